package io.basalt.kube.devices.hami;

import io.basalt.gpu.protocol.hami.HamiBinding;
import io.basalt.gpu.protocol.hami.HamiFormat;
import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.session.SessionResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The Kubernetes half of HAMi's protocol: a binding carrying HAMi's annotations gets its bind-time stamps
 * ({@code vgpu-time}, {@code bind-time}, {@code bind-phase: allocating}) when it is sent, and, where HAMi's device
 * plugin expects it (NVIDIA, MetaX sGPU), first takes HAMi's node lock ({@link HamiNodeLock}). The lock stays for the
 * device plugin to release once it allocated; only a failed bind releases it here. HAMi's pod annotations ride on
 * the binding itself, so a refused binding leaves nothing of HAMi's on the pod.
 */
public final class HamiPreBind implements PreBindStep {
  private static final System.Logger LOG = System.getLogger(HamiPreBind.class.getName());
  /** How long a lock is honoured before it is taken over (HAMi's default {@code HAMI_NODELOCK_EXPIRE}). */
  public static final Duration LOCK_EXPIRY = HamiNodeLock.EXPIRY;

  private final HamiNodeLock lock;

  /** @param clock when a lock is taken, and whether another's has expired */
  public HamiPreBind(Supplier<Instant> clock) {
    this.lock = new HamiNodeLock(clock);
  }

  @Override
  public Map<String, String> annotate(SessionResult.Binding binding, Map<String, String> annotations, Instant now) {
    return HamiBinding.stamp(annotations, now);
  }

  @Override
  public boolean writesBefore(SessionResult.Binding binding, Map<String, String> annotations) {
    return HamiBinding.needsLock(annotations);
  }

  @Override
  public Result preBind(SessionResult.Binding binding, ApiObjects api) {
    return lock.acquire(api, binding.node(), binding.pod());
  }

  @Override
  public boolean unreserve(SessionResult.Binding binding, ApiObjects api) {
    if (lock.release(api, binding.node(), binding.pod())) {
      return true;
    }
    LOG.log(System.Logger.Level.WARNING, "pod " + binding.pod().key() + ": could not release " + HamiFormat.NODE_LOCK
        + " on node " + binding.node() + "; it expires after " + LOCK_EXPIRY);
    return false;
  }
}
