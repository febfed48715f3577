package io.basalt.sim;

import io.basalt.cache.ClusterCache;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.scheduler.StatusSink;
import io.basalt.session.SessionResult;

/**
 * Plays the API server and the kubelet for an in-memory cluster: keeps what a session decided (PodGroup phases)
 * for the next cycle to read, and lets terminating pods finish between cycles.
 */
public final class InMemoryStatus implements StatusSink {
  private final ClusterCache cache;

  public InMemoryStatus(ClusterCache cache) {
    this.cache = cache;
  }

  @Override
  public void update(SessionResult result) {
    for (SessionResult.JobStatus s : result.jobs()) {
      PodGroup pg = s.implicit() ? null : cache.podGroup(s.key());
      if (pg != null && !s.phase().wireName().equals(pg.phase())) {
        cache.putPodGroup(pg.withPhase(s.phase().wireName()));
      }
    }
  }

  /** The kubelet's part: every terminating pod is gone by the next cycle. True when any was. */
  public boolean finishTerminating() {
    boolean any = false;
    for (Pod p : cache.pods()) {
      if (p.terminating()) {
        cache.removePod(p.uid());
        any = true;
      }
    }
    return any;
  }
}
