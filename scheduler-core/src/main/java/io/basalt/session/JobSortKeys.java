package io.basalt.session;

import io.basalt.api.JobInfo;
import io.basalt.framework.JobOrderKey;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The session's job order for a sort of many jobs: the orders plugins registered as {@link JobOrderKey} (priority,
 * gang readiness, drf share) are read once per job into a key array before sorting, instead of twice per comparison
 * (drf's is a map lookup), with the creation time the ties fall back to. {@link #compare} gives the same answer as
 * {@link Callbacks#jobOrder()} for the same jobs, as long as nothing changes between taking the keys and sorting.
 */
public final class JobSortKeys {
  private final List<Callbacks.Entry<Comparator<JobInfo>>> entries;
  /** Per entry, the entry as a {@link JobOrderKey}, or null for a plain comparator. */
  private final JobOrderKey[] keyed;

  JobSortKeys(List<Callbacks.Entry<Comparator<JobInfo>>> entries) {
    this.entries = entries;
    this.keyed = new JobOrderKey[entries.size()];
    for (int i = 0; i < keyed.length; i++) {
      keyed[i] = entries.get(i).fn() instanceof JobOrderKey k ? k : null;
    }
  }

  /**
   * One job with what comparing it reads: the keyed orders' keys (NaN where the entry is a plain comparator), in its
   * row of an array one sort shares ({@link #rows}), and its creation time unpacked (the tie-break most backlog
   * comparisons reach). One object per job: a backlog sorts tens of thousands of jobs per cycle, and a key object
   * plus an array each was a seventh of a cycle's allocation. Open for sorts that carry more per job.
   */
  public static class Key {
    private final JobInfo job;
    private final double[] rows;
    private final int row;
    private final boolean timed;
    private final long seconds;
    private final int nanos;

    /** {@code job}'s keys, taken now, into row {@code row} of {@code rows} (from {@link JobSortKeys#rows}). */
    protected Key(JobSortKeys order, JobInfo job, double[] rows, int row) {
      this.job = job;
      this.rows = rows;
      this.row = row * order.keyed.length;
      for (int i = 0; i < order.keyed.length; i++) {
        rows[this.row + i] = order.keyed[i] == null ? Double.NaN : order.keyed[i].key(job);
      }
      Instant t = job.creationTimestamp();
      this.timed = t != null;
      this.seconds = t == null ? 0 : t.getEpochSecond();
      this.nanos = t == null ? 0 : t.getNano();
    }

    public JobInfo job() {
      return job;
    }
  }

  /** The array {@code jobs} keys share, a row each. */
  public double[] rows(int jobs) {
    return new double[jobs * keyed.length];
  }

  /** Sorts {@code jobs} in job order (stable, as {@code jobs.sort(callbacks.jobOrder())}), each key taken once. */
  public void sort(List<JobInfo> jobs) {
    Key[] keys = new Key[jobs.size()];
    double[] rows = rows(keys.length);
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new Key(this, jobs.get(i), rows, i);
    }
    java.util.Arrays.sort(keys, this::compare);
    for (int i = 0; i < keys.length; i++) {
      jobs.set(i, keys[i].job());
    }
  }

  /**
   * {@link Callbacks#jobOrder()}'s answer for the two jobs, the keyed entries and the creation times read from the
   * keys: the older job first (a job without a time last, as {@code Instant.compareTo} on seconds then nanos), then
   * by job key.
   */
  public int compare(Key a, Key b) {
    for (int i = 0; i < keyed.length; i++) {
      int c = keyed[i] != null ? Double.compare(a.rows[a.row + i], b.rows[b.row + i])
          : entries.get(i).fn().compare(a.job, b.job);
      if (c != 0) {
        return c;
      }
    }
    int c;
    if (!a.timed || !b.timed) {
      c = !a.timed ? (!b.timed ? 0 : 1) : -1;
    } else {
      c = a.seconds != b.seconds ? Long.compare(a.seconds, b.seconds) : Integer.compare(a.nanos, b.nanos);
    }
    return c != 0 ? c : a.job.key().compareTo(b.job.key());
  }
}
