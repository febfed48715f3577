package io.basalt.sim;

import io.basalt.gpu.HamiBinding;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The simulator's binder: its API accepts every bind and eviction at once (the cycle has already placed the pod, or
 * marked the victim terminating, in the cache), so each is reported done on the spot; it remembers what it did for
 * the report.
 */
public final class InMemoryBinder implements Binder {
  private final List<SessionResult.Binding> bound = new ArrayList<>();
  private final List<SessionResult.Eviction> evicted = new ArrayList<>();
  private final Set<String> evictedUids = new HashSet<>();

  private final Supplier<Instant> clock;

  public InMemoryBinder() {
    this(Instant::now);
  }

  /** @param clock when each bind is sent, for the time-stamped annotations of HAMi's protocol */
  public InMemoryBinder(Supplier<Instant> clock) {
    this.clock = clock;
  }

  @Override
  public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
    for (SessionResult.Binding decided : bindings) {
      bound.add(new SessionResult.Binding(decided.pod(), decided.node(),
          HamiBinding.stamp(decided.annotations(), clock.get())));
      outcomes.bound(decided.pod().uid());
    }
  }

  @Override
  public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {
    for (SessionResult.Eviction e : evictions) {
      if (evictedUids.add(e.pod().uid())) { // a victim goes once; it stays terminating in the simulated cluster
        evicted.add(e);
      }
      outcomes.evicted(e.pod().uid());
    }
  }

  public List<SessionResult.Binding> bound() {
    return bound;
  }

  public List<SessionResult.Eviction> evicted() {
    return evicted;
  }
}
