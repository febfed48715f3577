package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.model.Quantities;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import java.util.List;

/**
 * Words a refusal by the queue's share honestly: when the whole cluster could not hold the job's remaining pods
 * either, the user is told the cluster lacks room (and how much), not that the queue reached its share; a single
 * queue whose share is the whole cluster would otherwise always blame itself.
 */
final class ShareLimit {
  private ShareLimit() {}

  /**
   * @param attempt the job's pods in this attempt, in order
   * @param refusedAt the index of the pod the queue refused; the ones before it are placed or failed
   */
  static String explain(Session session, JobInfo job, List<TaskInfo> attempt, int refusedAt) {
    long[] need = new long[ResourceNames.count()];
    long[] free = session.clusterFutureIdle();
    for (int i = 0; i < attempt.size(); i++) {
      TaskInfo t = attempt.get(i);
      boolean placedHere = i < refusedAt && t.fitNode() != null; // its room is in use by this very attempt
      for (int r = 0; r < need.length; r++) {
        need[r] += t.request().get(r);
        free[r] += placedHere ? t.request().get(r) : 0;
      }
    }
    StringBuilder lacks = new StringBuilder();
    for (int r = 0; r < need.length; r++) {
      if (r == ResourceNames.PODS || need[r] <= free[r]) {
        continue;
      }
      lacks.append(lacks.isEmpty() ? "" : ", ").append(Quantities.format(r, need[r] - free[r]))
          .append(' ').append(ResourceNames.name(r)).append(" (needs ").append(Quantities.format(r, need[r]))
          .append(", free ").append(Quantities.format(r, free[r])).append(')');
    }
    TaskInfo refused = attempt.get(refusedAt);
    if (!lacks.isEmpty()) {
      String pods = attempt.size() == 1 ? refused.key() : "the " + attempt.size() + " pods of " + job.key();
      return "the cluster lacks " + lacks + " for " + pods;
    }
    return "queue " + job.queue() + " has reached its share: no room for " + refused.key() + " "
        + JobPlacer.describe(refused.request());
  }
}
