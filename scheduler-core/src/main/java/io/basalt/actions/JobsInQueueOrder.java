package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.QueueInfo;
import io.basalt.session.JobSortKeys;
import io.basalt.session.Session;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sorts jobs in queue order then job order, as enqueue, preempt and reclaim walk them. With a backlog of tens of
 * thousands of pending jobs the sort was most of enqueue, so everything a comparison asks is worked out before
 * sorting: each job's queue and job-order keys ({@link JobSortKeys}) once per job, and the queue order once per pair
 * of queues. The comparisons answer as before, so the order is the same.
 */
final class JobsInQueueOrder {
  /**
   * A job with its queue (null when the queue does not exist), and what sorting compares: its queue's number among
   * the sorted jobs' queues and its order keys (one object per job: a backlog sorts tens of thousands per cycle).
   */
  static final class Entry extends JobSortKeys.Key {
    private final QueueInfo queue;
    private final int queueId;

    private Entry(JobSortKeys order, JobInfo job, double[] rows, int row, QueueInfo queue, int queueId) {
      super(order, job, rows, row);
      this.queue = queue;
      this.queueId = queueId;
    }

    QueueInfo queue() {
      return queue;
    }
  }

  /** Above this many distinct queues the queue order is asked per comparison rather than kept per pair. */
  private static final int MAX_MEMO_QUEUES = 256;

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
    JobSortKeys jobOrder = session.callbacks().jobSortKeys();
    Map<QueueInfo, Integer> queueIds = new IdentityHashMap<>();
    Entry[] items = new Entry[jobs.size()];
    double[] rows = jobOrder.rows(items.length);
    for (int i = 0; i < items.length; i++) {
      JobInfo job = jobs.get(i);
      QueueInfo queue = session.queue(job.queue());
      Integer id = queueIds.get(queue);
      if (id == null) {
        id = queueIds.size();
        queueIds.put(queue, id);
      }
      items[i] = new Entry(jobOrder, job, rows, i, queue, id);
    }
    QueuePairs queues = new QueuePairs(session.callbacks().queueOrder(), queueIds.size());
    Arrays.sort(items, (a, b) -> {
      int c = queues.compare(a, b);
      return c != 0 ? c : jobOrder.compare(a, b);
    });
    return Arrays.asList(items);
  }

  /** The queue order's answer per pair of queues, asked once per pair (nothing changes a queue during a sort). */
  private static final class QueuePairs {
    private final Comparator<QueueInfo> order;
    private final int n;
    /** Per pair, the answer plus 2 (so 1, 2 or 3), or 0 while not asked; null with too many queues. */
    private final byte[] memo;

    QueuePairs(Comparator<QueueInfo> order, int n) {
      this.order = order;
      this.n = n;
      this.memo = n <= MAX_MEMO_QUEUES ? new byte[n * n] : null;
    }

    int compare(Entry a, Entry b) {
      if (memo == null) {
        return order.compare(a.queue, b.queue);
      }
      int at = a.queueId * n + b.queueId;
      if (memo[at] == 0) {
        memo[at] = (byte) (Integer.signum(order.compare(a.queue, b.queue)) + 2);
      }
      return memo[at] - 2;
    }
  }
}
