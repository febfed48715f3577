package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a job could still become ready in the placing attempt under way, once one of its tasks fit nowhere
 * (Volcano's "need continue allocating"). The job counts what is already placed (ready or pipelined, since a
 * pipelined job may still be held) plus the attempt's untried tasks, except those of a role that already failed:
 * its pods are identical by construction, so none of them will fit either. A role-less task stands only for itself.
 * Made at the attempt's first failure and kept up to date from then on, so a long gang pays once, not per failure.
 */
final class GangProspect {
  private final JobInfo job;
  private final Map<String, Integer> untriedByRole = new HashMap<>();
  private final Map<String, Integer> placedByRole = new HashMap<>();
  private int untried;

  /** @param untriedTasks the attempt's tasks not tried yet, the one that just failed first */
  GangProspect(JobInfo job, List<TaskInfo> untriedTasks) {
    this.job = job;
    for (TaskInfo t : untriedTasks) {
      untriedByRole.merge(t.role(), 1, Integer::sum);
    }
    untried = untriedTasks.size();
    if (!job.minTaskMember().isEmpty()) {
      for (TaskInfo t : job.tasks()) {
        if (t.status().isReady() || t.status() == TaskStatus.PIPELINED) {
          placedByRole.merge(t.role(), 1, Integer::sum);
        }
      }
    }
  }

  /** {@code task}, one of the untried, was placed (allocated or pipelined). */
  void placed(TaskInfo task) {
    untried(task);
    placedByRole.merge(task.role(), 1, Integer::sum);
  }

  /** {@code task}, one of the untried, fit nowhere; so do the untried pods of its role, if it has one. */
  void failed(TaskInfo task) {
    untried(task);
    if (!task.role().isEmpty()) {
      Integer same = untriedByRole.remove(task.role());
      untried -= same == null ? 0 : same;
    }
  }

  /** Enough placed and untried tasks for minMember, and for every role's minTaskMember. */
  boolean canBecomeReady() {
    if (job.readyTaskNum() + job.waitingTaskNum() + untried < job.minMember()) {
      return false;
    }
    for (Map.Entry<String, Integer> e : job.minTaskMember().entrySet()) {
      String role = e.getKey();
      if (placedByRole.getOrDefault(role, 0) + untriedByRole.getOrDefault(role, 0) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  private void untried(TaskInfo task) {
    Integer n = untriedByRole.get(task.role());
    if (n != null) {
      untried--;
      if (n == 1) {
        untriedByRole.remove(task.role());
      } else {
        untriedByRole.put(task.role(), n - 1);
      }
    }
  }
}
