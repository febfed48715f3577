package io.basalt.kube.live;

import io.basalt.model.Pod;
import io.basalt.session.SessionResult;

/**
 * Evicts one pod through the Eviction API, so PodDisruptionBudgets are honoured: 201 and 404 (already gone) are
 * success, 429 (a budget blocks it now) and 5xx are retried, anything else is final and rolls back the cache's
 * "terminating" assumption so the next cycle sees the victim as running again.
 */
final class EvictTask extends BindOp {
  private static final System.Logger LOG = System.getLogger(KubeBinder.class.getName());

  private final SessionResult.Eviction eviction;
  private final Pod assumed;

  /**
   * @param assumed the terminating pod {@link io.basalt.cache.ClusterCache#assumeTerminating} put in the cache, or
   *     null when there was nothing to mark (nothing to roll back)
   */
  EvictTask(KubeBinder binder, SessionResult.Eviction eviction, Pod assumed) {
    super(binder);
    this.eviction = eviction;
    this.assumed = assumed;
  }

  @Override
  String uid() {
    return eviction.pod().uid();
  }

  @Override
  void attempt() {
    BindCalls.Reply r = binder.calls().evict(eviction.pod());
    if (r.ok() || r.code() == 404) {
      succeeded();
    } else if (binder.retry().again(r.code(), attempt)) {
      retry(attempt, r);
    } else {
      failed("eviction refused after " + attempt + " attempt(s): " + KubeBinder.brief(r));
    }
  }

  @Override
  void onSuccess() {
    binder.countEviction(true);
  }

  @Override
  void onFailure(String reason) {
    binder.countEviction(false);
    if (assumed != null) {
      binder.cache().forgetTerminating(assumed);
    }
    LOG.log(System.Logger.Level.WARNING, "pod " + eviction.pod().key() + " not evicted (" + eviction.reason() + "): "
        + reason);
  }
}
