package io.basalt.api;

import io.basalt.model.ResourceVector;
import java.util.List;
import java.util.Map;

/**
 * The session's jobs as they stood when it opened, sorted out while the jobs were built, for the plugins' opening
 * passes: a backlog's tens of thousands of pending jobs are not admitted and hold nothing, so a pass over what is
 * admitted or held skips them without touching them, and what they request is summed per queue once; what the
 * holding jobs hold is summed per queue too, so a queue's allocation needs no pass over its running jobs. Read it in
 * {@code onSessionOpen} only: actions change phases and statuses afterwards. The lists are in no particular order
 * (the passes that read them sum).
 *
 * <p>The sums are per queue name as jobs name it (jobs naming none are left out).
 *
 * @param admitted jobs not Pending (Inqueue, Running, ...)
 * @param holding jobs with a task allocated, binding, bound or running
 * @param pendingRequests what the Pending tasks of the queue's jobs request together
 * @param heldRequests what the queue's jobs hold ({@link JobInfo#held}) together
 * @param heldBeyondMin what the queue's jobs hold beyond their minResources, summed per slot where a job holds more
 *     than its minimum, the pod count aside (elastic resources, which a queue could give back); a lone pod's job
 *     holds none, its minResources being its request but the pod slot
 */
public record JobsAtOpen(List<JobInfo> admitted, List<JobInfo> holding, Map<String, ResourceVector> pendingRequests,
    Map<String, ResourceVector> heldRequests, Map<String, ResourceVector> heldBeyondMin) {
  public JobsAtOpen {
    admitted = List.copyOf(admitted);
    holding = List.copyOf(holding);
    pendingRequests = Map.copyOf(pendingRequests);
    heldRequests = Map.copyOf(heldRequests);
    heldBeyondMin = Map.copyOf(heldBeyondMin);
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
    private final QueueSums pending = new QueueSums();
    private final QueueSums held = new QueueSums();
    private final QueueSums beyondMin = new QueueSums();

    /** Sorts a complete job (all its tasks added, its phase final) into the lists, and adds what it holds. */
    public void add(JobInfo job) {
      if (job.phase() != PodGroupPhase.PENDING) {
        admitted.add(job);
      }
      if (holds(job)) {
        holding.add(job);
        long[] sum = held.of(job.queue(), job.heldSlots());
        for (int i = 0, n = job.heldSlots(); sum != null && i < n; i++) {
          sum[i] += job.held(i);
        }
        if (!job.isImplicit()) { // a lone pod's job holds nothing beyond its minResources (see heldBeyondMin)
          addBeyondMin(job);
        }
      }
    }

    private void addBeyondMin(JobInfo job) {
      ResourceVector min = job.podGroup().minResources();
      if (min == null) {
        return;
      }
      long[] sum = null;
      for (int i = 0, n = Math.max(job.heldSlots(), min.size()); i < n; i++) {
        long beyond = job.held(i) - min.get(i);
        if (i != io.basalt.model.ResourceNames.PODS && beyond > 0) {
          sum = sum != null ? sum : beyondMin.of(job.queue(), n);
          if (sum == null) {
            return;
          }
          sum[i] += beyond;
        }
      }
    }

    /** Adds a Pending task's request to its job's queue (none for a job naming no queue: no queue accounts it). */
    public void pending(String queue, ResourceVector request) {
      long[] sum = pending.of(queue, request.size());
      for (int i = 0, n = request.size(); sum != null && i < n; i++) {
        sum[i] += request.get(i);
      }
    }

    public JobsAtOpen build() {
      return new JobsAtOpen(admitted, holding, pending.vectors(), held.vectors(), beyondMin.vectors());
    }
  }

  /** Sums per queue name, each an array; the last queue's is found again without a lookup (jobs come by queue). */
  private static final class QueueSums {
    private final Map<String, long[]> sums = new java.util.HashMap<>();
    private String lastQueue;
    private long[] lastSum;

    /** The sum of {@code queue}, at least {@code slots} long; null for no queue (nothing is summed for it). */
    long[] of(String queue, int slots) {
      if (queue == null) {
        return null;
      }
      if (!queue.equals(lastQueue)) {
        lastQueue = queue;
        lastSum = sums.get(queue);
      }
      if (lastSum == null || lastSum.length < slots) {
        lastSum = lastSum == null ? new long[slots] : java.util.Arrays.copyOf(lastSum, slots);
        sums.put(queue, lastSum);
      }
      return lastSum;
    }

    Map<String, ResourceVector> vectors() {
      Map<String, ResourceVector> out = new java.util.HashMap<>();
      sums.forEach((q, sum) -> out.put(q, ResourceVector.of(sum)));
      return out;
    }
  }
}
