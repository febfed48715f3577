package io.basalt.sim;

import io.basalt.cache.ClusterCache;
import io.basalt.gpu.HamiBinding;
import io.basalt.model.Pod;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The simulator's binder: applies bindings and evictions to the cache the way the informers would report them
 * (the pod gets its node and runs; an evicted pod turns terminating), and remembers what it did for the report.
 */
public final class InMemoryBinder implements Binder {
  private final ClusterCache cache;
  private final List<SessionResult.Binding> bound = new ArrayList<>();
  private final List<SessionResult.Eviction> evicted = new ArrayList<>();

  private final Supplier<Instant> clock;

  public InMemoryBinder(ClusterCache cache) {
    this(cache, Instant::now);
  }

  /** @param clock when each bind is sent, for the time-stamped annotations of HAMi's protocol */
  public InMemoryBinder(ClusterCache cache, Supplier<Instant> clock) {
    this.cache = cache;
    this.clock = clock;
  }

  @Override
  public void bind(List<SessionResult.Binding> bindings) {
    for (SessionResult.Binding decided : bindings) {
      SessionResult.Binding b = new SessionResult.Binding(decided.pod(), decided.node(),
          HamiBinding.stamp(decided.annotations(), clock.get()));
      String uid = b.pod().uid();
      // The simulated API accepts every bind at once.
      Pod original = cache.assumeAccepted(uid, b.node(), b.annotations());
      if (original != null && !original.isAssigned()) {
        bound.add(b);
      }
    }
  }

  @Override
  public void evict(List<SessionResult.Eviction> evictions) {
    for (SessionResult.Eviction e : evictions) {
      if (cache.assumeTerminating(e.pod().uid()) != null) {
        evicted.add(e);
      }
    }
  }

  public List<SessionResult.Binding> bound() {
    return bound;
  }

  public List<SessionResult.Eviction> evicted() {
    return evicted;
  }
}
