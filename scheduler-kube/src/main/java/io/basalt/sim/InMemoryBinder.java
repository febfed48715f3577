package io.basalt.sim;

import io.basalt.cache.ClusterCache;
import io.basalt.model.Pod;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulator's binder: applies bindings and evictions to the cache the way the informers would report them
 * (the pod gets its node and runs; an evicted pod turns terminating), and remembers what it did for the report.
 */
public final class InMemoryBinder implements Binder {
  private final ClusterCache cache;
  private final List<SessionResult.Binding> bound = new ArrayList<>();
  private final List<SessionResult.Eviction> evicted = new ArrayList<>();

  public InMemoryBinder(ClusterCache cache) {
    this.cache = cache;
  }

  @Override
  public void bind(List<SessionResult.Binding> bindings) {
    for (SessionResult.Binding b : bindings) {
      String uid = b.pod().uid();
      Pod original = cache.assume(uid, b.node(), b.annotations());
      if (original != null && !original.isAssigned()) {
        cache.finishBinding(uid); // the simulated API accepts every bind at once
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
