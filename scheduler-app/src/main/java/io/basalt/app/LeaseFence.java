package io.basalt.app;

import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.Lock;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The Lease lock as the elector uses it, remembering when this replica last wrote the Lease as its holder, so binds
 * can be fenced: a replica paused past its Lease (SIGSTOP, a long GC, a frozen VM) resumes still believing it leads
 * until its elector's next renewal fails, and in that window it must not bind what it decided before the pause.
 *
 * <p>The time kept is when the successful write was <em>sent</em>: the API server applied it after that, so a
 * standby cannot have seen the Lease expire until at least {@code leaseDuration} after it. Binds are allowed while
 * that send is less than {@code renewDeadline} old, leaving {@code leaseDuration - renewDeadline} for a batch to land.
 */
final class LeaseFence implements Lock {
  private final Lock lease;
  private final long renewDeadlineNanos;
  private final LongSupplier nanoTime;
  private final Object lock = new Object();
  private boolean held;
  private long renewedAt;
  /** The holder the last read of the Lease showed ("" when none, null before a read or when the read failed). */
  private volatile String lastHolder;

  LeaseFence(Lock lease, Duration renewDeadline, LongSupplier nanoTime) {
    this.lease = lease;
    this.renewDeadlineNanos = renewDeadline.toNanos();
    this.nanoTime = nanoTime;
  }

  /** Whether this replica holds the Lease by a write recent enough that no standby can have taken it over. */
  boolean holds() {
    synchronized (lock) {
      return held && nanoTime.getAsLong() - renewedAt < renewDeadlineNanos;
    }
  }

  /** How long ago the last write as holder was sent; for the log line of a refused batch. */
  Duration sinceRenewal() {
    synchronized (lock) {
      return held ? Duration.ofNanos(nanoTime.getAsLong() - renewedAt) : null;
    }
  }

  @Override
  public LeaderElectionRecord get() throws ApiException {
    try {
      LeaderElectionRecord r = lease.get();
      lastHolder = r == null || r.getHolderIdentity() == null ? "" : r.getHolderIdentity();
      return r;
    } catch (ApiException | RuntimeException e) {
      lastHolder = null;
      throw e;
    }
  }

  /**
   * The holder the elector's last read of the Lease showed: another replica's identity when it took the Lease over,
   * this replica's own when renewals failed, "" when nobody held it, null when the read itself failed.
   */
  String lastSeenHolder() {
    return lastHolder;
  }

  @Override
  public boolean create(LeaderElectionRecord record) {
    long sent = nanoTime.getAsLong();
    return written(record, sent, lease.create(record));
  }

  @Override
  public boolean update(LeaderElectionRecord record) {
    long sent = nanoTime.getAsLong();
    return written(record, sent, lease.update(record));
  }

  private boolean written(LeaderElectionRecord record, long sent, boolean ok) {
    synchronized (lock) {
      if (ok) {
        // A release (holder emptied) ends leadership as surely as a lost Lease.
        held = lease.identity().equals(record.getHolderIdentity());
        renewedAt = sent;
      }
    }
    return ok;
  }

  @Override
  public String identity() {
    return lease.identity();
  }

  @Override
  public String describe() {
    return lease.describe();
  }
}
