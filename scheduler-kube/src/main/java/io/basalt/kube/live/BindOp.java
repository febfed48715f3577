package io.basalt.kube.live;

import io.basalt.kube.prebind.ApiReply;

/**
 * One pod's API work (a bind or an eviction) as a resumable step: each run makes one attempt and either finishes the
 * op or asks the binder to run it again after a backoff, so a waiting retry holds no worker thread.
 */
abstract class BindOp implements Runnable {
  protected final KubeBinder binder;
  /** Attempts made at the current call, 1-based once running. */
  protected int attempt;
  private boolean done;

  BindOp(KubeBinder binder) {
    this.binder = binder;
  }

  /** The pod uid this op holds in flight. */
  abstract String uid();

  /** Makes one attempt; calls {@link #retry}, {@link #succeeded} or {@link #failed} exactly once. */
  abstract void attempt();

  /** The op gave up for good (failure, lost race, or shut down): undo the cache assumption, count and log. */
  abstract void onFailure(String reason);

  abstract void onSuccess();

  @Override
  public final void run() {
    attempt++;
    try {
      attempt();
    } catch (RuntimeException e) {
      failed("unexpected error: " + e);
    }
  }

  final void retry(int attemptOfCall, ApiReply reply) {
    binder.later(this, binder.retry().delay(attemptOfCall, reply.retryAfter()), reply.code());
  }

  final void succeeded() {
    if (finish()) {
      onSuccess();
      binder.finished(this);
    }
  }

  final void failed(String reason) {
    if (finish()) {
      try {
        onFailure(reason);
      } finally {
        binder.finished(this);
      }
    }
  }

  private synchronized boolean finish() {
    if (done) {
      return false;
    }
    done = true;
    return true;
  }
}
