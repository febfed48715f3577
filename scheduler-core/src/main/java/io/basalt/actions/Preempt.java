package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import java.util.List;

/**
 * Within a queue, a starving job evicts work of other jobs the plugins agree may go (priority: strictly lower
 * priority; conformance: never critical pods; drf: only while the preemptor stays the poorer job).
 */
final class Preempt implements Action {

  @Override
  public String name() {
    return "preempt";
  }

  @Override
  public void execute(Session session) {
    VictimPlanner.Scope sameQueue = new VictimPlanner.Scope() {
      @Override
      public boolean inScope(String preemptorQueue, String victimQueue) {
        return victimQueue.equals(preemptorQueue);
      }

      @Override
      public List<TaskInfo> allowed(Session s, TaskInfo preemptor, List<TaskInfo> candidates) {
        return s.callbacks().preemptable(preemptor, candidates);
      }

      @Override
      public boolean mayTake(Session s, JobInfo victim) {
        return true;
      }
    };
    new Evictions().run(session, sameQueue, (s, queue, task) -> true,
        (victim, preemptor) -> "preempted by " + preemptor.key() + " (priority " + preemptor.priority() + ")");
  }
}
