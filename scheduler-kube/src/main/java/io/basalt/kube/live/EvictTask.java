package io.basalt.kube.live;

import io.basalt.kube.prebind.ApiReply;

import io.basalt.scheduler.BindOutcomes;
import io.basalt.session.SessionResult;

/**
 * Evicts one pod through the Eviction API, so PodDisruptionBudgets are honoured: 201 and 404 (already gone) are
 * success, 429 (a budget blocks it now) and 5xx are retried, anything else is final and is reported, which rolls back the cycle's
 * "terminating" assumption so the next cycle sees the victim as running again.
 */
final class EvictTask extends BindOp {
  private static final System.Logger LOG = System.getLogger(KubeBinder.class.getName());

  private final SessionResult.Eviction eviction;
  private final BindOutcomes outcomes;

  /** @param outcomes told once whether the eviction went through (the cycle marked the victim terminating) */
  EvictTask(KubeBinder binder, SessionResult.Eviction eviction, BindOutcomes outcomes) {
    super(binder);
    this.eviction = eviction;
    this.outcomes = outcomes;
  }

  @Override
  String uid() {
    return eviction.pod().uid();
  }

  @Override
  void attempt() {
    ApiReply r = binder.calls().evict(eviction.pod());
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
    outcomes.evicted(eviction.pod().uid());
  }

  @Override
  void onFailure(String reason) {
    binder.countEviction(false);
    outcomes.notEvicted(eviction.pod().uid());
    LOG.log(System.Logger.Level.WARNING, "pod " + eviction.pod().key() + " not evicted (" + eviction.reason() + "): "
        + reason);
  }
}
