package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import java.util.List;

/**
 * Across queues: a queue below its share takes back what other queues borrowed. Only queues marked reclaimable
 * (the default) give pods up, and only what the plugins agree is beyond their share (proportion, capacity).
 */
final class Reclaim implements Action {

  @Override
  public String name() {
    return "reclaim";
  }

  @Override
  public void execute(Session session) {
    VictimPlanner.Scope otherQueues = new VictimPlanner.Scope() {
      @Override
      public boolean inScope(String reclaimerQueue, String victimQueue) {
        return !victimQueue.equals(reclaimerQueue) && session.queue(victimQueue) != null
            && session.queue(victimQueue).queue().reclaimable();
      }

      @Override
      public List<TaskInfo> allowed(Session s, TaskInfo reclaimer, List<TaskInfo> candidates) {
        return s.callbacks().reclaimable(reclaimer, candidates);
      }

      @Override
      public boolean mayTake(Session s, JobInfo victim) {
        return s.callbacks().mayReclaimFrom(s.queue(victim.queue()));
      }
    };
    new Evictions().run(session, otherQueues,
        (s, queue, task) -> !s.callbacks().overused(queue) && s.callbacks().preemptive(queue, task),
        (victim, reclaimer) -> "reclaimed by queue " + reclaimer.job().queue() + " for " + reclaimer.key());
  }
}
