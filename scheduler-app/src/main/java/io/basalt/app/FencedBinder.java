package io.basalt.app;

import io.basalt.scheduler.BindOutcomes;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import java.time.Duration;
import java.util.List;

/**
 * A binder that carries out a batch only while this replica still leads by a recent Lease renewal
 * ({@link LeaseFence}). A refused batch is forgotten, not queued: its pods are reported not bound (pending again,
 * for whichever replica leads next) and its victims not evicted, and the elector's next renewal ends this replica's
 * leadership. The check is made per batch, so a pause between it and a batch's API calls is not covered.
 */
final class FencedBinder implements Binder {
  private static final System.Logger LOG = System.getLogger(FencedBinder.class.getName());

  private final Binder binder;
  private final LeaseFence fence;

  FencedBinder(Binder binder, LeaseFence fence) {
    this.binder = binder;
    this.fence = fence;
  }

  @Override
  public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
    if (bindings.isEmpty() || fence.holds()) {
      binder.bind(bindings, outcomes);
      return;
    }
    LOG.log(System.Logger.Level.WARNING, bindings.size() + " binding(s) not sent: " + why()
        + "; the pods stay pending for the leader");
    bindings.forEach(b -> outcomes.notBound(b.pod().uid(), false));
  }

  @Override
  public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {
    if (evictions.isEmpty() || fence.holds()) {
      binder.evict(evictions, outcomes);
      return;
    }
    LOG.log(System.Logger.Level.WARNING, evictions.size() + " eviction(s) not sent: " + why());
    evictions.forEach(e -> outcomes.notEvicted(e.pod().uid()));
  }

  private String why() {
    Duration since = fence.sinceRenewal();
    return since == null ? "this replica does not hold the Lease"
        : "the Lease was last renewed " + since.toMillis() + " ms ago, too long to be sure this replica still leads";
  }
}
