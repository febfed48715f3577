package io.basalt.cache;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.protocol.DeviceProtocols;
import io.basalt.model.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Which of one node's GPUs its pods hold, from their claims ({@code basalt.io/gpu-devices}, else HAMi's allocated
 * annotations), under rules that let no annotation hide more GPUs than its pod can hold, and never hand out a GPU
 * a pod may be using (docs/GPU.md, "Whose claims count"):
 *
 * <ul>
 *   <li>a pod requesting no GPUs (neither whole GPUs nor a share) holds none, whatever it is annotated with;
 *   <li>a claim naming a GPU twice, a GPU the node does not have, or more GPUs than its pod requests is rejected;
 *       the pod then holds as many of the lowest free GPUs as it requests, as a pod without a claim does;
 *   <li>pods of this scheduler are read first, then the others, each oldest first: a GPU already claimed when a
 *       later claim names it again stays used, once, and the later pod is counted on one more of the lowest free
 *       GPUs instead, since one of the two claims is wrong.
 * </ul>
 *
 * Problems go to {@code warn}, keyed per pod, never thrown.
 */
final class ClaimLedger {
  /** Receives one warning: a key (kind/pod uid) to report it once by, and the message. */
  interface Warn {
    void warn(String key, String message);
  }

  /** HAMi's messages quote a whole entry; a log line keeps this much of a problem. */
  private static final int MAX_PROBLEM = 300;

  private final String node;
  private final GpuTopology gpus;
  private final Set<String> ours;
  private final Warn warn;
  private final DeviceUsage usage;
  /** The pod holding each GPU whole (by index), for naming both sides of a conflict. */
  private final String[] holders;
  /** GPUs some pod claims whole, unhealthy ones included: a second claim on one is a conflict. */
  private DeviceSet claimed = DeviceSet.EMPTY;
  private long unannotated;

  private final Comparator<Pod> order;

  /**
   * The order claims are read in: this scheduler's pods first, then each oldest first, then by key. Built once per
   * set of scheduler names ({@link #readingOrder}), since a cycle builds a ledger per node that changed.
   */
  static Comparator<Pod> readingOrder(Set<String> ours) {
    return Comparator.comparing((Pod p) -> !ours.contains(p.schedulerName()))
        .thenComparing(Pod::creationTimestamp, Comparator.nullsLast(Comparator.naturalOrder()))
        .thenComparing(Pod::key);
  }

  ClaimLedger(String node, GpuTopology gpus, Set<String> ours, Warn warn) {
    this(node, gpus, ours, readingOrder(ours), warn);
  }

  ClaimLedger(String node, GpuTopology gpus, Set<String> ours, Comparator<Pod> order, Warn warn) {
    this.node = node;
    this.gpus = gpus;
    this.ours = ours;
    this.order = order;
    this.warn = warn;
    this.usage = new DeviceUsage(gpus.size());
    this.holders = new String[gpus.size()];
  }

  /** The usage of the node's GPUs by {@code pods} (finished pods hold nothing). */
  DeviceUsage build(Collection<Pod> pods) {
    holdWhole(gpus.unhealthy());
    List<Pod> live = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      if (!p.isFinished()) {
        live.add(p);
      }
    }
    if (live.size() > 1) {
      live.sort(order);
    }
    for (Pod p : live) {
      read(p);
    }
    holdWhole(usage.untouched().lowest((int) Math.min(unannotated, Integer.MAX_VALUE)));
    return usage;
  }

  /** Marks {@code devices} held whole (nothing to mark when it is empty). */
  private void holdWhole(DeviceSet devices) {
    if (!devices.isEmpty()) {
      usage.add(DeviceClaim.whole(devices), 1);
    }
  }

  private void read(Pod p) {
    String devices = p.annotations().get(GpuAnnotations.DEVICES);
    boolean hami = devices == null && DeviceProtocols.HAMI.recorded(p.annotations());
    long requested = requested(p);
    if (requested == 0) {
      if (devices != null || hami) {
        warn.warn("claim/" + p.uid(), "pod " + p.key() + " on node " + node + " requests no GPUs; its annotation "
            + (devices != null ? GpuAnnotations.DEVICES : "of HAMi's") + " is ignored");
      }
      return;
    }
    List<DeviceClaim> claims = null;
    if (devices != null) {
      claims = basaltClaim(p, devices, requested);
    } else if (hami) {
      claims = hamiClaims(p, requested);
    }
    if (claims == null) {
      long n = assumedCount(p, requested);
      unannotated += n;
      if (devices == null && !hami && n > 0 && !ours.contains(p.schedulerName())) {
        warn.warn("claim/" + p.uid(), "pod " + p.key() + " on node " + node + " holds " + n + " GPUs without "
            + GpuAnnotations.DEVICES + " (placed by another scheduler?); assuming the lowest free ones");
      }
      return;
    }
    for (DeviceClaim c : claims) {
      apply(p, c);
    }
  }

  /** {@code basalt.io/gpu-devices}, checked; null when rejected. */
  private List<DeviceClaim> basaltClaim(Pod p, String text, long requested) {
    List<DeviceClaim> claims;
    try {
      claims = DeviceProtocols.BASALT.recordedClaims(p, gpus, node);
    } catch (IllegalArgumentException e) {
      reject(p, e.getMessage(), requested);
      return null;
    }
    DeviceSet set = claims.get(0).devices();
    if (set.size() > requested) {
      reject(p, "annotation " + GpuAnnotations.DEVICES + " '" + text + "' names " + set.size()
          + " GPUs but the pod requests " + requested, requested);
      return null;
    }
    if (set.size() < requested && !GpuInventory.isShare(p)) {
      unannotated += requested - set.size();
      warn.warn("claim/" + p.uid(), "pod " + p.key() + " on node " + node + ": annotation " + GpuAnnotations.DEVICES
          + " '" + text + "' names " + set.size() + " GPUs but the pod requests " + requested
          + "; assuming the rest on the lowest free ones");
    }
    return claims;
  }

  /** HAMi's allocated annotations; null when malformed or naming more GPUs than requested. */
  private List<DeviceClaim> hamiClaims(Pod p, long requested) {
    List<DeviceClaim> claims;
    try {
      claims = DeviceProtocols.HAMI.recordedClaims(p, gpus, node);
    } catch (IllegalArgumentException e) {
      reject(p, e.getMessage(), requested);
      return null;
    }
    DeviceSet all = DeviceSet.EMPTY;
    for (DeviceClaim c : claims) {
      all = all.or(c.devices());
    }
    int named = all.size();
    if (named > requested) {
      reject(p, "HAMi's annotations name " + named + " GPUs but the pod requests " + requested, requested);
      return null;
    }
    if (named < requested && !GpuInventory.isShare(p)) {
      unannotated += requested - named;
      warn.warn("claim/" + p.uid(), "pod " + p.key() + " on node " + node + ": HAMi's annotations name "
          + named + " GPUs but the pod requests " + requested
          + "; assuming the rest on the lowest free ones");
    }
    return claims;
  }

  private void reject(Pod p, String problem, long requested) {
    long n = assumedCount(p, requested);
    String shown = problem.length() <= MAX_PROBLEM ? problem : problem.substring(0, MAX_PROBLEM) + "...";
    warn.warn("claim/" + p.uid(), "pod " + p.key() + " on node " + node + ": " + shown + "; "
        + (n > 0 ? "assuming it holds the lowest free " + n + " GPU" + (n == 1 ? "" : "s") : "ignored"));
  }

  /** Records {@code c}; GPUs someone already holds stay used once, and the pod is assumed on others instead. */
  private void apply(Pod p, DeviceClaim c) {
    DeviceSet devices = c.devices();
    DeviceSet conflict = devices.and(claimed.or(usage.shared()));
    if (c.shared()) {
      conflict = devices.and(claimed);
      int d = devices.first();
      conflict = !conflict.isEmpty() && p.key().equals(holders[d]) ? DeviceSet.EMPTY : conflict; // its own entry
    }
    if (!conflict.isEmpty()) {
      warn.warn("conflict/" + p.uid(), "pod " + p.key() + " on node " + node + " claims GPU "
          + conflict.format() + " held by " + holderOf(conflict)
          + (c.shared() ? "" : "; it stays used, and " + p.key() + " is assumed on another free GPU"));
    }
    if (c.shared()) {
      usage.add(c, 1);
      return;
    }
    DeviceSet mine = devices.andNot(conflict);
    usage.add(DeviceClaim.whole(mine), 1);
    claimed = claimed.or(mine);
    for (int d = mine.first(); d >= 0; d = mine.next(d + 1)) {
      holders[d] = p.key();
    }
    unannotated += conflict.size();
  }

  private String holderOf(DeviceSet conflict) {
    String h = holders[conflict.first()];
    return h == null ? "a shared pod" : h;
  }

  /**
   * How many GPUs {@code p} can hold: its whole-GPU request, or one for a share (a share spanning several GPUs is
   * not supported); 0 when it requests neither.
   */
  private static long requested(Pod p) {
    long whole = GpuInventory.gpuRequest(p);
    if (whole > 0) {
      return whole;
    }
    return GpuInventory.isShare(p) ? Math.max(1, p.request().get(GpuResources.METAX_SGPU)) : 0;
  }

  /** GPUs assumed for a pod without a usable claim: whole ones only; a share's device is unknown. */
  private static long assumedCount(Pod p, long requested) {
    return GpuInventory.isShare(p) ? 0 : requested;
  }
}
