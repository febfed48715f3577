package io.basalt.kube.prebind;

import io.basalt.session.SessionResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Work a binder does for a pod around its binding, after kube-scheduler's Reserve / PreBind / Unreserve extension
 * points: it may add annotations that ride on the binding itself, and write other objects before the binding is
 * posted (a device protocol's node lock, a PVC annotation, a ResourceClaim's status), undoing them if the bind fails.
 * Both binders run the same steps ({@link PreBindSteps}): live against the API server, simulated in memory.
 */
public interface PreBindStep {
  /** How a pre-bind write came out: done, wait for another holder and try again, or failed (retried by its code). */
  enum State { DONE, WAIT, FAILED }

  /** {@code detail} says who holds what is waited for, or what failed. */
  record Result(State state, String detail, ApiReply reply) {
    public static final Result DONE = new Result(State.DONE, "", new ApiReply(200, ""));
  }

  /** The annotations to send with the binding, with this step's added (e.g. time stamps taken at {@code now}). */
  default Map<String, String> annotate(SessionResult.Binding binding, Map<String, String> annotations, Instant now) {
    return annotations;
  }

  /**
   * The bindings of one bind call, told before any of them runs: a step that reserves for a gang as a whole (the
   * volume binding step) groups them here. {@code sent} holds the uids the binder will bind; the others it held back
   * (an earlier bind of the pod still in flight). Nothing by default.
   */
  default void batch(List<SessionResult.Binding> bindings, Set<String> sent) {}

  /** Whether this step writes anything before {@code binding} (given the annotations it will carry). */
  boolean writesBefore(SessionResult.Binding binding, Map<String, String> annotations);

  /** PreBind: writes what must exist before the binding is posted. */
  Result preBind(SessionResult.Binding binding, ApiObjects api);

  /** Unreserve: undoes what {@link #preBind} wrote, after the bind failed; false when every try to undo failed. */
  boolean unreserve(SessionResult.Binding binding, ApiObjects api);
}
