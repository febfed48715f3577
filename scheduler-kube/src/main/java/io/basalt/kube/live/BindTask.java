package io.basalt.kube.live;

import io.basalt.kube.prebind.ApiReply;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.kube.prebind.PreBindSteps;
import io.basalt.model.Pod;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.session.SessionResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Binds one pod with one POST of the binding, which carries the pod's new annotations (the chosen GPUs): the API server
 * writes them together with the node, so no observer ever sees the pod bound without them, or annotated but unbound
 * (which would let a cycle place it again while its bind is in flight). A 409 is read back: already on our node is
 * success (an earlier attempt landed), elsewhere is a lost race. Attempts that run out after one got no answer or a
 * 5xx are read back too, until the read-back is answered: the binding may have landed.
 * Success is reported to the cycle's outcomes, which leave the assumption in the cache for the informer to confirm. The bind first runs the pre-bind steps (in
 * HAMi's protocol: HAMi's node lock, waiting while another pod holds it, and HAMi's bind-time annotations); what they
 * wrote stays (the lock, for HAMi's device plugin to release after it allocated), unless the bind fails, when it is
 * undone at once. A failed
 * bind writes no {@code hami.io/bind-phase: failed}: its annotations only ever reach the pod with a binding that
 * landed, so a pod whose bind failed carries nothing of HAMi's to mark (HAMi's device plugin writes {@code failed}
 * when its allocation fails). Failure rolls the assumption back and, unless another scheduler won the pod, nominates
 * it to the node it was meant for, so the next cycle places it there before anyone else takes the room (a gang's
 * bound members are waiting on it).
 */
final class BindTask extends BindOp {
  private static final System.Logger LOG = System.getLogger(KubeBinder.class.getName());

  private final SessionResult.Binding binding;
  private final Pod original;
  private final BindOutcomes outcomes;
  private BindGang gang = BindGang.NONE;
  private boolean lostRace;
  /** The pre-bind steps for this binding: what they wrote is undone only when the bind fails. */
  private final PreBindSteps.Run steps;
  /** Whether every pre-bind step is done (their writes stay, unless the bind fails). */
  private boolean reserved;
  /** When waiting on a pre-bind step (another pod's node lock) began, or null. */
  private Instant waitingSince;
  private int contended;
  /** Whether an attempt got no answer or a 5xx, so the binding may have landed though no attempt succeeded. */
  private boolean mayHaveLanded;
  /** The reply that ended the attempts, once the pod is being read back; null before. */
  private ApiReply verifying;
  /** Read-backs that got no answer, and the attempts made before the first. */
  private int unread;
  private int posted;

  /** @param outcomes told once whether the pod was bound (the cycle assumed it before this task was made) */
  BindTask(KubeBinder binder, SessionResult.Binding binding, BindOutcomes outcomes) {
    super(binder);
    this.binding = binding;
    this.original = binding.pod();
    this.outcomes = outcomes;
    this.steps = binder.steps().start(binding);
  }

  /** Set before the task is submitted. */
  void gang(BindGang g) {
    this.gang = g;
  }

  /** The pod as the session saw it pending. */
  Pod pod() {
    return original;
  }

  @Override
  String uid() {
    return original.uid();
  }

  @Override
  void attempt() {
    if (verifying != null) {
      readBack(verifying);
      return;
    }
    BindCalls calls = binder.calls();
    Map<String, String> annotations = steps.annotate(Instant.now());
    if (!reserved && !preBind(annotations)) {
      return;
    }
    ApiReply r = calls.bind(original, binding.node(), annotations);
    mayHaveLanded |= r.code() == 0 || r.code() >= 500;
    if (r.ok()) {
      succeeded();
    } else if (r.code() == 409 || mayHaveLanded && !binder.retry().again(r.code(), attempt)) {
      readBack(r);
    } else {
      onError("binding refused", r);
    }
  }

  /**
   * After a 409 (the pod is already bound, or being deleted), or when the attempts run out after one that may have
   * landed (an API server can apply a binding and still answer 5xx, or not answer at all), where the pod is decides:
   * on our node is success, elsewhere a lost race, unbound or gone a failure. Rolling back a landed bind would free
   * room the pod holds (and release HAMi's node lock under the device plugin), so until a read-back is answered the
   * bind stays in flight, its room taken, and the read-back is retried with the bind's backoff.
   */
  private void readBack(ApiReply last) {
    if (verifying == null) {
      verifying = last;
      posted = attempt;
    }
    BindCalls.NodeOf now = binder.calls().nodeOf(original);
    if (now.node() == null && now.reply().code() != 404) {
      binder.later(this, binder.retry().backoff(Math.min(++unread, 8)), now.reply().code());
    } else if (binding.node().equals(now.node())) {
      succeeded();
    } else if (now.node() == null || now.node().isEmpty()) {
      failed((last.code() == 409 ? "conflict" : "binding refused after " + posted + " attempt(s)") + ", then read "
          + (now.node() == null ? "back gone" : "back unbound") + ": " + KubeBinder.brief(last));
    } else {
      lostRace(now.node());
    }
  }

  private void lostRace(String node) {
    binder.countLostRace();
    lostRace = true;
    failed("lost race: already bound to node " + node);
  }

  /**
   * Runs the pre-bind steps (HAMi's node lock); false when this attempt ends here (waiting for a holder, retrying an
   * error, or given up). Waiting for another pod's lock does not use up the attempts meant for API errors.
   */
  private boolean preBind(Map<String, String> annotations) {
    PreBindStep.Result o = steps.preBind(annotations, binder.calls());
    switch (o.state()) {
      case DONE -> {
        reserved = true;
        return true;
      }
      case WAIT -> {
        Instant now = Instant.now();
        if (waitingSince == null) {
          waitingSince = now;
          binder.notifyWaiting(original, binding.node(), o.detail()); // told once per bind: its condition and event
        }
        if (Duration.between(waitingSince, now).compareTo(binder.lockWait()) >= 0) {
          failed("gave up after waiting " + KubeBinder.seconds(binder.lockWait()) + ": " + o.detail()
              + " (HAMi's device plugin releases it once it allocated)");
        } else {
          attempt--;
          binder.later(this, binder.retry().backoff(Math.min(++contended, 4)), 409);
        }
        return false;
      }
      default -> {
        onError(o.detail(), o.reply());
        return false;
      }
    }
  }

  private void onError(String what, ApiReply r) {
    if (binder.retry().again(r.code(), attempt)) {
      retry(attempt, r);
    } else {
      failed(what + " after " + attempt + " attempt(s): " + KubeBinder.brief(r));
    }
  }

  @Override
  void onSuccess() {
    outcomes.bound(original.uid());
    binder.countBind(true);
    binder.notifyBound(original, binding.node());
    gang.done(original, null);
  }

  @Override
  void onFailure(String reason) {
    steps.unreserve(binder.calls()); // each step logs what it could not undo
    binder.countBind(false);
    outcomes.notBound(original.uid(), !lostRace);
    LOG.log(System.Logger.Level.WARNING, "pod " + original.key() + " not bound to " + binding.node() + ": " + reason
        + (lostRace ? "; left where the other scheduler put it" : "; back to pending, its place on "
        + binding.node() + " held for the next cycle"));
    gang.done(original, reason);
  }
}
