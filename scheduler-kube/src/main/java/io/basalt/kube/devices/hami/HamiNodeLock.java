package io.basalt.kube.devices.hami;

import io.basalt.gpu.protocol.hami.HamiFormat;
import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.kube.prebind.PreBindStep.Result;
import io.basalt.kube.prebind.PreBindStep.State;
import io.basalt.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * HAMi's node lock, {@code hami.io/mutex.lock: TIME,NAMESPACE,POD} on the node. HAMi's device plugin finds the pod it
 * must allocate for through this lock, so a scheduler speaking HAMi's protocol takes it before binding a device pod
 * and leaves it to the plugin to release once it has allocated; only a bind that fails is unlocked by the scheduler.
 * One pod per node holds it at a time.
 *
 * <p>Both writes are JSON merge patches carrying the node's resourceVersion as read, so two schedulers (or two
 * binds of ours) racing for the lock cannot both win: the loser gets 409 and reads again. A lock older than
 * {@link #EXPIRY} (HAMi's default {@code HAMI_NODELOCK_EXPIRE}), one whose pod no longer exists, or one nobody can
 * parse is taken over, as HAMi does, so a crashed holder never locks a node for good.
 */
final class HamiNodeLock {
  static final Duration EXPIRY = Duration.ofMinutes(5);
  /** How often a release is tried when the node keeps changing under it (kubelet heartbeats). */
  static final int RELEASE_TRIES = 5;

  private final Supplier<Instant> clock;

  HamiNodeLock(Supplier<Instant> clock) {
    this.clock = clock;
  }

  /** Takes the lock on {@code node} for {@code pod} (DONE), or says who holds it (WAIT) or what failed. */
  Result acquire(ApiObjects calls, String node, Pod pod) {
    ApiObjects.Meta n = calls.read(ApiObjects.Kind.NODE, null, node);
    if (n.annotations() == null) {
      return new Result(State.FAILED, "node " + node + " not readable", n.reply());
    }
    String current = n.annotations().get(HamiFormat.NODE_LOCK);
    if (current != null) {
      Result held = holder(calls, node, current, pod);
      if (held != null) {
        return held;
      }
    }
    Instant now = clock.get();
    ApiReply r = calls.annotate(ApiObjects.Kind.NODE, null, node, HamiFormat.NODE_LOCK,
        HamiFormat.lockValue(now, pod.namespace(), pod.name()), n.resourceVersion());
    if (r.ok()) {
      return new Result(State.DONE, "", r);
    }
    return r.code() == 409 ? new Result(State.WAIT, "node " + node + " changed while locking", r)
        : new Result(State.FAILED, "locking node " + node, r);
  }

  /** Null when the lock may be taken (expired, holder gone, unreadable); else DONE (ours) or WAIT. */
  private Result holder(ApiObjects calls, String node, String value, Pod pod) {
    HamiFormat.Lock lock;
    try {
      lock = HamiFormat.parseLock(value);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (lock.namespace().equals(pod.namespace()) && lock.pod().equals(pod.name())) {
      return Result.DONE;
    }
    if (lock.time().plus(EXPIRY).isBefore(clock.get())) {
      return null;
    }
    if (!lock.pod().isEmpty()
        && calls.read(ApiObjects.Kind.POD, lock.namespace(), lock.pod()).reply().code() == 404) {
      return null;
    }
    // Who holds it and since when, for the waiting pod's condition and event: the time is when it was taken.
    String who = lock.pod().isEmpty() ? "" : " by pod " + lock.namespace() + "/" + lock.pod();
    return new Result(State.WAIT, "node " + node + "'s " + HamiFormat.NODE_LOCK + " is held" + who + " (taken "
        + lock.time() + ")", new ApiReply(409, ""));
  }

  /**
   * Removes the lock from {@code node} if {@code pod} holds it. True when the node is no longer locked by the pod
   * (released, never held, taken over, or the node is gone); false when every try failed.
   */
  boolean release(ApiObjects calls, String node, Pod pod) {
    for (int i = 0; i < RELEASE_TRIES; i++) {
      ApiObjects.Meta n = calls.read(ApiObjects.Kind.NODE, null, node);
      if (n.annotations() == null) {
        if (n.reply().code() == 404) {
          return true;
        }
        continue;
      }
      String current = n.annotations().get(HamiFormat.NODE_LOCK);
      if (current == null || !heldBy(current, pod)) {
        return true;
      }
      ApiReply r = calls.annotate(ApiObjects.Kind.NODE, null, node, HamiFormat.NODE_LOCK, null, n.resourceVersion());
      if (r.ok() || r.code() == 404) {
        return true;
      }
    }
    return false;
  }

  private static boolean heldBy(String value, Pod pod) {
    try {
      HamiFormat.Lock lock = HamiFormat.parseLock(value);
      return lock.namespace().equals(pod.namespace()) && lock.pod().equals(pod.name());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
