package io.basalt.app;

import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.UUID;

/**
 * Lease leader election (client-java's LeaderElector) that really hands the Lease on when closed. The elector's own
 * release can fail: closing interrupts a renewal the API server may already have applied, and the release then
 * carries a stale resourceVersion (409). A standby would wait out the whole lease. So after closing, a Lease still
 * held by this instance is re-read and released.
 *
 * <p>The elector writes the Lease through a {@link LeaseFence}, which remembers when it was last renewed.
 */
final class LeaderElection implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(LeaderElection.class.getName());

  private final String identity;
  private final String leaseKey;
  private final Duration renewDeadline;
  private final LeaseFence lock;
  private final Duration leaseDuration;
  private final LeaderElector elector;

  LeaderElection(ApiClient client, String namespace, String name, Duration leaseDuration, Duration renewDeadline,
      Duration retryPeriod, java.util.function.LongSupplier fenceClock) throws IOException {
    this.identity = InetAddress.getLocalHost().getHostName() + "_" + UUID.randomUUID();
    this.leaseKey = namespace + "/" + name;
    this.renewDeadline = renewDeadline;
    this.lock = new LeaseFence(new LeaseLock(namespace, name, identity, client), renewDeadline, fenceClock);
    this.leaseDuration = leaseDuration;
    this.elector = new LeaderElector(new LeaderElectionConfig(lock, leaseDuration, renewDeadline, retryPeriod));
  }

  /** Whether this replica may still act as leader now: binds are fenced by it ({@link FencedBinder}). */
  LeaseFence fence() {
    return lock;
  }

  /** Blocks: waits for the Lease, runs {@code leading} while holding it, {@code stopped} when leadership ends. */
  void run(Runnable leading, Runnable stopped) {
    elector.run(leading, stopped);
  }

  /**
   * Says in plain words that this replica lost the Lease while leading, and to whom, as the elector's last read of
   * the Lease showed it: from here on the new leader decides, so binds stop.
   */
  String lostMessage() {
    String holder = lock.lastSeenHolder();
    String why;
    if (holder == null) {
      why = ": the Lease could not be read or renewed within " + renewDeadline.toSeconds()
          + "s (--renew-deadline); is the API server reachable?";
    } else if (holder.isEmpty()) {
      why = ": it was released by someone else";
    } else if (holder.equals(identity)) {
      why = ": not renewed within " + renewDeadline.toSeconds() + "s (--renew-deadline)";
    } else {
      why = " to " + holder;
    }
    return "lost the leader Lease " + leaseKey + why + "; stopping binds and exiting so a standby leads";
  }

  @Override
  public void close() {
    boolean leading = lock.sinceRenewal() != null;
    elector.close();
    try {
      LeaderElectionRecord now = lock.get();
      String holder = now == null ? null : now.getHolderIdentity();
      if (leading && now != null && (holder == null || holder.isEmpty())) {
        LOG.log(System.Logger.Level.INFO, "Lease released"); // by the elector itself, on closing
      } else if (leading && holder != null && !holder.equals(identity)) {
        LOG.log(System.Logger.Level.WARNING, "Lease " + leaseKey + " already held by " + holder);
      }
      if (now != null && identity.equals(holder)) {
        LeaderElectionRecord released = new LeaderElectionRecord();
        released.setLeaseDurationSeconds((int) leaseDuration.toSeconds());
        released.setLeaderTransitions(now.getLeaderTransitions());
        if (lock.update(released)) {
          LOG.log(System.Logger.Level.INFO, "Lease released");
        } else {
          LOG.log(System.Logger.Level.WARNING, "Lease not released; a standby takes over when it expires");
        }
      }
    } catch (ApiException e) {
      if (e.getCode() != 404) { // 404: there is no Lease, so nothing of ours to release
        LOG.log(System.Logger.Level.WARNING, "Lease not released (HTTP " + e.getCode() + "); a standby takes over "
            + "when it expires");
      }
    }
  }
}
