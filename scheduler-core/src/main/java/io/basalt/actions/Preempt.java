package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import java.util.List;

/**
 * Within a queue, a starving job evicts work of other jobs the plugins agree may go (priority: strictly lower
 * priority; conformance: never critical pods; drf: only while the preemptor stays the poorer job), and never work of
 * higher priority than its own, whichever tier decides ({@link #notAbove}).
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
        return notAbove(preemptor, s.callbacks().preemptable(preemptor, candidates));
      }

      @Override
      public boolean mayTake(Session s, JobInfo victim) {
        return true;
      }
    };
    new Evictions().run(session, sameQueue, (s, queue, task) -> true,
        (victim, preemptor) -> "preempted by " + preemptor.key() + " (priority " + preemptor.priority() + ")");
  }

  /**
   * {@code victims} less those of higher priority than {@code preemptor}: of another job, a job of higher priority;
   * of its own job, a pod of higher priority (Volcano's priority plugin's comparison). The tiers combine as Volcano's
   * do, so when the priority plugin (tier 1) allows none, drf (tier 2) chooses among every pod of the queue, and
   * chose a priority-100000 pod for a priority-0 job that held less: kube-scheduler never preempts upward, and
   * neither does Volcano's priority plugin by its own rule. Equal priority is left to the tiers (drf's fair share).
   */
  static List<TaskInfo> notAbove(TaskInfo preemptor, List<TaskInfo> victims) {
    List<TaskInfo> out = null;
    for (int i = 0; i < victims.size(); i++) {
      TaskInfo v = victims.get(i);
      boolean above = v.job() == preemptor.job() ? v.priority() > preemptor.priority()
          : v.job().priority() > preemptor.job().priority();
      if (above && out == null) {
        out = new java.util.ArrayList<>(victims.subList(0, i));
      } else if (!above && out != null) {
        out.add(v);
      }
    }
    return out == null ? victims : out;
  }
}
