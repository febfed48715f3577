package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.QueueInfo;
import io.basalt.session.Session;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Sorts jobs in queue order then job order, as enqueue, preempt and reclaim walk them. Each job's queue is looked up
 * once before sorting instead of twice per comparison: with a backlog of thousands of pending jobs those lookups were
 * most of enqueue's sort. The comparisons made, and so the order, are the same.
 */
final class JobsInQueueOrder {
  /** A job with its queue (null when the queue does not exist). */
  record Entry(JobInfo job, QueueInfo queue) {}

  private JobsInQueueOrder() {}

  /** Sorts {@code jobs} in place (stable, as {@link List#sort}). */
  static void sort(Session session, List<JobInfo> jobs) {
    List<Entry> entries = sorted(session, jobs);
    for (int i = 0; i < jobs.size(); i++) {
      jobs.set(i, entries.get(i).job());
    }
  }

  /** {@code jobs} with their queues, sorted (stable, as {@link List#sort}); {@code jobs} is left as it is. */
  static List<Entry> sorted(Session session, List<JobInfo> jobs) {
    Comparator<QueueInfo> queueOrder = session.callbacks().queueOrder();
    Comparator<JobInfo> jobOrder = session.callbacks().jobOrder();
    Entry[] entries = new Entry[jobs.size()];
    for (int i = 0; i < entries.length; i++) {
      JobInfo job = jobs.get(i);
      entries[i] = new Entry(job, session.queue(job.queue()));
    }
    Arrays.sort(entries, (a, b) -> {
      int c = queueOrder.compare(a.queue(), b.queue());
      return c != 0 ? c : jobOrder.compare(a.job(), b.job());
    });
    return Arrays.asList(entries);
  }
}
