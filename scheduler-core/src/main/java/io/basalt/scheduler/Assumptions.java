package io.basalt.scheduler;

import io.basalt.cache.ClusterCache;
import io.basalt.model.Pod;
import io.basalt.session.SessionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cycle's assume step (kube-scheduler's): every decided placement is assumed in the cache before a binder sees it,
 * and every victim marked terminating, so the next snapshot never offers a pod twice or picks a victim again, whatever
 * the binder is. The binder then only does I/O and reports each outcome here ({@link BindOutcomes}), which settles the
 * assumption: {@link ClusterCache#finishBinding}, {@link ClusterCache#forget}, {@link ClusterCache#forgetTerminating}.
 */
public final class Assumptions implements BindOutcomes {
  private static final System.Logger LOG = System.getLogger(Assumptions.class.getName());

  private final ClusterCache cache;
  /** Victims this step marked terminating, by uid, until their eviction's outcome comes back. */
  private final Map<String, Pod> terminating = new ConcurrentHashMap<>();

  public Assumptions(ClusterCache cache) {
    this.cache = cache;
  }

  /**
   * Assumes each binding's pod on its node (with the binding's annotations) and hands the binder those that were
   * pending: a pod gone from the cache, or placed already (its bind in flight, or bound), is not bound again.
   */
  public void bind(Binder binder, List<SessionResult.Binding> bindings) {
    List<SessionResult.Binding> sent = new ArrayList<>(bindings.size());
    for (SessionResult.Binding b : bindings) {
      Pod original = cache.assume(b.pod().uid(), b.node(), b.annotations());
      if (original == null || original.isAssigned()) {
        LOG.log(System.Logger.Level.DEBUG, () -> "pod " + b.pod().key() + ": "
            + (original == null ? "gone" : "already on " + original.nodeName()) + ", not bound");
        continue;
      }
      cache.assumeClaims(b.pod().uid(), b.claims());
      sent.add(b);
    }
    if (!sent.isEmpty()) {
      binder.bind(sent, this);
    }
  }

  /** Marks each victim terminating and hands the evictions to the binder. */
  public void evict(Binder binder, List<SessionResult.Eviction> evictions) {
    if (evictions.isEmpty()) {
      return;
    }
    for (SessionResult.Eviction e : evictions) {
      Pod victim = cache.assumeTerminating(e.pod().uid());
      if (victim != null) {
        terminating.put(e.pod().uid(), victim);
      }
    }
    binder.evict(evictions, this);
  }

  @Override
  public void bound(String uid) {
    cache.finishBinding(uid);
    cache.settleClaims(uid);
  }

  @Override
  public void notBound(String uid, boolean hold) {
    cache.forget(uid, hold);
    cache.forgetClaims(uid);
  }

  @Override
  public void evicted(String uid) {
    terminating.remove(uid);
  }

  @Override
  public void notEvicted(String uid) {
    Pod victim = terminating.remove(uid);
    if (victim != null) {
      cache.forgetTerminating(victim);
    }
  }
}
