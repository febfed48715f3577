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
  private final LeaseFence lock;
  private final Duration leaseDuration;
  private final LeaderElector elector;

  LeaderElection(ApiClient client, String namespace, String name, Duration leaseDuration, Duration renewDeadline,
      Duration retryPeriod) throws IOException {
    this.identity = InetAddress.getLocalHost().getHostName() + "_" + UUID.randomUUID();
    this.lock = new LeaseFence(new LeaseLock(namespace, name, identity, client), renewDeadline, System::nanoTime);
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

  @Override
  public void close() {
    elector.close();
    try {
      LeaderElectionRecord now = lock.get();
      if (now != null && identity.equals(now.getHolderIdentity())) {
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
