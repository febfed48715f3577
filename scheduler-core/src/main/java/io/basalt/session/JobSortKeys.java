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
   * One job with what comparing it reads: the keyed orders' keys by entry (NaN where the entry is a plain
   * comparator), and its creation time unpacked (the tie-break most backlog comparisons reach).
   */
  public record Key(JobInfo job, double[] keys, boolean timed, long seconds, int nanos) {}

  /** {@code job} with its keys, taken now. */
  public Key of(JobInfo job) {
    double[] keys = new double[keyed.length];
    for (int i = 0; i < keyed.length; i++) {
      keys[i] = keyed[i] == null ? Double.NaN : keyed[i].key(job);
    }
    Instant t = job.creationTimestamp();
    return new Key(job, keys, t != null, t == null ? 0 : t.getEpochSecond(), t == null ? 0 : t.getNano());
  }

  /** Sorts {@code jobs} in job order (stable, as {@code jobs.sort(callbacks.jobOrder())}), each key taken once. */
  public void sort(List<JobInfo> jobs) {
    Key[] keys = new Key[jobs.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = of(jobs.get(i));
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
      int c = keyed[i] != null ? Double.compare(a.keys[i], b.keys[i])
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
