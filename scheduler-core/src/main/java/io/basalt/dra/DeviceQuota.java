package io.basalt.dra;

import io.basalt.model.Queue;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * DRA devices counted against queue {@code capability}, per DeviceClass, under the resource name
 * {@code deviceclass/<class>} as Volcano's capacity plugin reads it: a queue (and each queue above it) may hold at most
 * that many devices of the class through its pods' claims. A claim counts once whatever the number of pods sharing it,
 * admin access counts nothing, and a claim allocated before the session counts for the queue of the pods it is
 * reserved for. Only the hard cap is enforced here, by the engine, whatever the tiers say (as claims themselves are);
 * {@code deserved} and {@code guarantee} on these names do not take part in proportion or reclaim.
 */
public final class DeviceQuota {
  /** The prefix of the resource names a queue caps DRA devices with. */
  public static final String PREFIX = "deviceclass/";

  private final Map<String, String> parents = new HashMap<>();
  /** queue -> class -> capability, for the queues that cap any class. */
  private final Map<String, Map<String, Long>> caps = new HashMap<>();
  /** queue -> class -> devices held by the queue's subtree. */
  private final Map<String, Map<String, Long>> held = new HashMap<>();

  private DeviceQuota(Collection<Queue> queues) {
    for (Queue q : queues) {
      if (q.parent() != null) {
        parents.put(q.name(), q.parent());
      }
      if (q.capability() != null) {
        q.capability().toMap().forEach((name, value) -> {
          if (name.startsWith(PREFIX)) {
            caps.computeIfAbsent(q.name(), k -> new TreeMap<>()).put(name.substring(PREFIX.length()), value);
          }
        });
      }
    }
  }

  /**
   * The queues' device caps, with what their pods' claims hold at open; null when no queue caps any DeviceClass.
   *
   * @param queueOfPod the queue of the pod with this uid, or null for a pod the session does not know
   */
  public static DeviceQuota open(Collection<Queue> queues, DraState state, Function<String, String> queueOfPod) {
    DeviceQuota quota = new DeviceQuota(queues);
    if (quota.caps.isEmpty()) {
      return null;
    }
    for (ResourceClaim c : state.claims()) {
      if (c.allocation() == null) {
        continue;
      }
      Set<String> counted = new HashSet<>();
      for (String uid : c.reservedFor()) {
        String queue = queueOfPod.apply(uid);
        if (queue != null && counted.add(queue)) {
          quota.add(queue, devicesByClass(c, c.allocation()), 1);
        }
      }
    }
    return quota;
  }

  /** How many devices of each class {@code allocation} of {@code claim} holds (admin access holds none). */
  static Map<String, Long> devicesByClass(ResourceClaim claim, Allocation allocation) {
    Map<String, Long> out = new TreeMap<>();
    for (AllocatedDevice d : allocation.devices()) {
      String cls = d.adminAccess() ? null : classOf(claim.spec(), d.request());
      if (cls != null) {
        out.merge(cls, 1L, Long::sum);
      }
    }
    return out;
  }

  /** The class of the request (or {@code <request>/<subrequest>}) named in a result, null when the spec has none. */
  private static String classOf(ClaimSpec spec, String request) {
    int slash = request.indexOf('/');
    String main = slash < 0 ? request : request.substring(0, slash);
    for (DeviceRequest r : spec.requests()) {
      if (!r.name().equals(main)) {
        continue;
      }
      if (slash < 0) {
        return r.deviceClassName();
      }
      String sub = request.substring(slash + 1);
      for (DeviceRequest s : r.firstAvailable()) {
        if (s.name().equals(sub)) {
          return s.deviceClassName();
        }
      }
    }
    return null;
  }

  /** Why {@code queue} may not take {@code devices} more (class -> count), or null when every cap allows it. */
  String exceeds(String queue, Map<String, Long> devices) {
    Set<String> seen = new HashSet<>();
    for (String q = queue; q != null && seen.add(q); q = parents.get(q)) {
      Map<String, Long> cap = caps.get(q);
      if (cap == null) {
        continue;
      }
      Map<String, Long> has = held.getOrDefault(q, Map.of());
      for (Map.Entry<String, Long> e : devices.entrySet()) {
        Long limit = cap.get(e.getKey());
        long now = has.getOrDefault(e.getKey(), 0L);
        if (limit != null && now + e.getValue() > limit) {
          return "queue " + q + " " + PREFIX + e.getKey() + " would exceed its capability: holds " + now + ", needs "
              + e.getValue() + " more, capability " + limit;
        }
      }
    }
    return null;
  }

  /** Adds ({@code sign} 1) or takes back (-1) {@code devices} held by {@code queue} and each queue above it. */
  void add(String queue, Map<String, Long> devices, int sign) {
    Set<String> seen = new HashSet<>();
    for (String q = queue; q != null && seen.add(q); q = parents.get(q)) {
      Map<String, Long> has = held.computeIfAbsent(q, k -> new HashMap<>());
      devices.forEach((cls, n) -> has.merge(cls, sign * n, Long::sum));
    }
  }

  /** Devices of {@code deviceClass} {@code queue}'s subtree holds; for tests and reports. */
  public long held(String queue, String deviceClass) {
    return held.getOrDefault(queue, Map.of()).getOrDefault(deviceClass, 0L);
  }
}
