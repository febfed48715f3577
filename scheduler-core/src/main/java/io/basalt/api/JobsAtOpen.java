package io.basalt.api;

import io.basalt.model.ResourceVector;
import java.util.List;
import java.util.Map;

/**
 * The session's jobs as they stood when it opened, sorted out while the jobs were built, for the plugins' opening
 * passes: a backlog's tens of thousands of pending jobs are not admitted and hold nothing, so a pass over what is
 * admitted or held skips them without touching them, and what they request is summed per queue once. Read it in
 * {@code onSessionOpen} only: actions change phases and statuses afterwards. The lists are in no particular order
 * (the passes that read them sum).
 *
 * @param admitted jobs not Pending (Inqueue, Running, ...)
 * @param holding jobs with a task allocated, binding, bound or running
 * @param pendingRequests per queue name (as jobs name it; jobs naming none are left out), what the Pending tasks of
 *     its jobs request together
 */
public record JobsAtOpen(List<JobInfo> admitted, List<JobInfo> holding, Map<String, ResourceVector> pendingRequests) {
  public JobsAtOpen {
    admitted = List.copyOf(admitted);
    holding = List.copyOf(holding);
    pendingRequests = Map.copyOf(pendingRequests);
  }

  /** True when the job has a task allocated, binding, bound or running. */
  public static boolean holds(JobInfo job) {
    return job.count(TaskStatus.ALLOCATED) + job.count(TaskStatus.BINDING) + job.count(TaskStatus.BOUND)
        + job.count(TaskStatus.RUNNING) > 0;
  }

  /** Sorts {@code jobs} out as {@link JobsAtOpen} does, with a pass over them. */
  public static JobsAtOpen of(Iterable<JobInfo> jobs) {
    Builder b = new Builder();
    for (JobInfo job : jobs) {
      b.add(job);
      List<TaskInfo> tasks = job.tasks();
      for (int i = 0, n = tasks.size(); i < n; i++) {
        if (tasks.get(i).status() == TaskStatus.PENDING) {
          b.pending(job.queue(), tasks.get(i).request());
        }
      }
    }
    return b.build();
  }

  /** Collects jobs as they are completed, and Pending tasks' requests by queue. */
  public static final class Builder {
    private final List<JobInfo> admitted = new java.util.ArrayList<>();
    private final List<JobInfo> holding = new java.util.ArrayList<>();
    private final Map<String, long[]> pending = new java.util.HashMap<>();
    private String lastQueue;
    private long[] lastSum;

    /** Sorts a complete job (all its tasks added, its phase final) into the lists. */
    public void add(JobInfo job) {
      if (job.phase() != PodGroupPhase.PENDING) {
        admitted.add(job);
      }
      if (holds(job)) {
        holding.add(job);
      }
    }

    /** Adds a Pending task's request to its job's queue (none for a job naming no queue: no queue accounts it). */
    public void pending(String queue, ResourceVector request) {
      if (queue == null) {
        return;
      }
      if (!queue.equals(lastQueue)) {
        lastQueue = queue;
        lastSum = pending.get(queue);
      }
      if (lastSum == null || lastSum.length < request.size()) {
        lastSum = lastSum == null ? new long[request.size()] : java.util.Arrays.copyOf(lastSum, request.size());
        pending.put(queue, lastSum);
      }
      for (int i = 0, n = request.size(); i < n; i++) {
        lastSum[i] += request.get(i);
      }
    }

    public JobsAtOpen build() {
      Map<String, ResourceVector> sums = new java.util.HashMap<>();
      pending.forEach((q, sum) -> sums.put(q, ResourceVector.of(sum)));
      return new JobsAtOpen(admitted, holding, sums);
    }
  }
}
