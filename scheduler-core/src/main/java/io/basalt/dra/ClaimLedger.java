package io.basalt.dra;

import io.basalt.gpu.GpuTopology;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One session's view of DRA allocations: the devices claims hold (those allocated when the session opened and those
 * it allocated since), which claims it allocated, and for which pods. A placement {@link #allocate}s its pod's
 * claims and gets a {@link Booking} that {@link #undo} takes back, so a statement that discards a gang leaves no
 * claim allocated. Not thread-safe: one session's searches run on one thread.
 */
public final class ClaimLedger {
  private final DraState state;
  private final Set<DeviceId> inUse;
  private final Map<String, Allocation> allocatedHere = new HashMap<>();
  private final Allocator allocator;
  /**
   * What allocating claims of these specs on a node came to, kept while no allocation of this ledger touches the
   * node's devices: a search asks it of every node for every pod with claims, and pods of one template ask alike. The
   * reason is kept without the claim's name, which is the asking pod's own.
   */
  private record VerdictKey(String node, int shape) {}

  private record Verdict(long global, long local, int blamed, String reason, Map<String, Long> devices) {}

  private final Map<VerdictKey, Verdict> verdicts = new HashMap<>();
  /** Each distinct reason once, so the pod being searched gets the same text object from every node alike. */
  private final Map<String, String> reasons = new HashMap<>();
  private final Map<String, Text> texts = new java.util.IdentityHashMap<>();

  private record Text(ResourceClaim claim, String text) {}

  private Pod textsOf;
  /** The pending claims' specs of the pods checked, each distinct list numbered once. */
  private final Map<List<ClaimSpec>, Integer> shapes = new HashMap<>();
  /** Moved by every allocation or undo: a pod's resolved claims are kept while it stays. */
  private long changes;
  private Pod lastPod;
  private long lastChanges = -1;
  private List<ResourceClaim> lastPending;
  private int lastShape;
  /** Moved by each allocation or undo of node-local devices on a node; devices reachable from several, all nodes. */
  private final Map<String, Long> nodeGeneration = new HashMap<>();
  private long globalGeneration;
  /** Queue caps on DRA devices ({@link DeviceQuota}); null when no queue caps a DeviceClass. */
  private DeviceQuota quota;

  /**
   * The claims a placement allocated (or found allocated) for its pod, to write when the pod binds.
   *
   * @param queue the queue the new allocations count against, null when none does
   * @param devices the devices per DeviceClass the new allocations hold, counted against {@code queue}
   */
  public record Booking(List<ClaimBinding> claims, String queue, Map<String, Long> devices) {
    public static final Booking NONE = new Booking(List.of());

    public Booking {
      claims = List.copyOf(claims);
      devices = Map.copyOf(devices);
    }

    public Booking(List<ClaimBinding> claims) {
      this(claims, null, Map.of());
    }
  }

  public ClaimLedger(DraState state) {
    this.state = state;
    this.inUse = new HashSet<>(state.allocatedAtOpen());
    this.allocator = new Allocator(state, inUse::contains);
  }

  public DraState state() {
    return state;
  }

  /** Counts the devices new allocations hold against {@code value}'s queue caps from now on. */
  public void useQuota(DeviceQuota value) {
    this.quota = value;
  }

  /** Why {@code pod}'s claims cannot all be allocated with it on {@code node}, or null when they can. */
  public String check(Pod pod, Node node) {
    return check(pod, null, node, null);
  }

  /**
   * Why {@code pod}'s claims cannot all be allocated with it on {@code node}, its queue's device caps included, or
   * null when they can; {@code gpus} is the node's GPU topology (null when unknown), which the choice of devices
   * follows.
   */
  public String check(Pod pod, String queue, Node node, GpuTopology gpus) {
    List<ResourceClaim> pending;
    int shape;
    if (pod == lastPod && changes == lastChanges) {
      pending = lastPending;
      shape = lastShape;
    } else {
      Resolved r = resolve(pod, node);
      if (r.failure != null) {
        return r.failure;
      }
      if (r.pending.isEmpty()) {
        return null;
      }
      pending = r.pending;
      List<ClaimSpec> specs = new ArrayList<>(pending.size());
      pending.forEach(c -> specs.add(c.spec()));
      shape = shapes.computeIfAbsent(specs, k -> shapes.size());
      if (r.ready.isEmpty()) { // nothing allocated yet: the same on every node until this ledger changes
        lastPod = pod;
        lastChanges = changes;
        lastPending = pending;
        lastShape = shape;
      }
    }
    VerdictKey key = new VerdictKey(node.name(), shape);
    long local = nodeGeneration.getOrDefault(node.name(), 0L);
    Verdict v = verdicts.get(key);
    if (v == null || v.global != globalGeneration || v.local != local) {
      Allocator.Outcome o = allocator.allocate(pending, node, gpus);
      v = o.ok() ? new Verdict(globalGeneration, local, -1, null, devicesByClass(pending, o))
          : new Verdict(globalGeneration, local, o.blamed(), reasons.computeIfAbsent(o.reason(), k -> k), null);
      verdicts.put(key, v);
    }
    if (v.reason != null) {
      if (pod != textsOf) {
        texts.clear();
        textsOf = pod;
      }
      ResourceClaim blamed = pending.get(v.blamed);
      Text t = texts.get(v.reason);
      if (t == null || t.claim != blamed) {
        t = new Text(blamed, "claim " + blamed.key() + ": " + v.reason);
        texts.put(v.reason, t);
      }
      return t.text;
    }
    return quota == null || queue == null ? null : quota.exceeds(queue, v.devices);
  }

  /** Allocates {@code pod}'s unallocated claims on {@code node}; {@link Booking#NONE} when {@link #check} fails. */
  public Booking allocate(Pod pod, Node node) {
    return allocate(pod, null, node, null);
  }

  /**
   * Allocates {@code pod}'s unallocated claims on {@code node}, counting their devices against {@code queue};
   * {@link Booking#NONE} when {@link #check} fails.
   */
  public Booking allocate(Pod pod, String queue, Node node, GpuTopology gpus) {
    Resolved r = resolve(pod, node);
    if (r.failure != null) {
      return Booking.NONE;
    }
    List<ClaimBinding> out = new ArrayList<>(r.ready);
    Map<String, Long> counted = Map.of();
    if (!r.pending.isEmpty()) {
      Allocator.Outcome o = allocator.allocate(r.pending, node, gpus);
      if (!o.ok() || overQuota(queue, r.pending, o) != null) {
        return Booking.NONE;
      }
      if (quota != null && queue != null) {
        counted = devicesByClass(r.pending, o);
        quota.add(queue, counted, 1);
      }
      for (int i = 0; i < r.pending.size(); i++) {
        ResourceClaim c = r.pending.get(i);
        Allocation a = o.allocations().get(i);
        allocatedHere.put(c.key(), a);
        moved(a);
        for (AllocatedDevice d : a.devices()) {
          if (!d.adminAccess()) {
            inUse.add(d.device());
          }
        }
        out.add(new ClaimBinding(c.namespace(), c.name(), c.uid(), a, true));
      }
    }
    return new Booking(out, counted.isEmpty() ? null : queue, counted);
  }

  /** {@code a}'s devices were taken or given back: verdicts on the nodes reaching them are stale. */
  private void moved(Allocation a) {
    changes++;
    if (a.nodeName() != null && !state.sharedDevices()) {
      nodeGeneration.merge(a.nodeName(), 1L, Long::sum);
    } else {
      globalGeneration++;
    }
  }

  /** Why the devices of {@code o} would take {@code queue} over a cap, or null. */
  private String overQuota(String queue, List<ResourceClaim> pending, Allocator.Outcome o) {
    return quota == null || queue == null ? null : quota.exceeds(queue, devicesByClass(pending, o));
  }

  private static Map<String, Long> devicesByClass(List<ResourceClaim> pending, Allocator.Outcome o) {
    Map<String, Long> out = new java.util.TreeMap<>();
    for (int i = 0; i < pending.size(); i++) {
      DeviceQuota.devicesByClass(pending.get(i), o.allocations().get(i)).forEach((c, n) -> out.merge(c, n, Long::sum));
    }
    return out;
  }

  /** Takes back the claims {@code booking} allocated. */
  public void undo(Booking booking) {
    if (booking.queue() != null && quota != null) {
      quota.add(booking.queue(), booking.devices(), -1);
    }
    for (ClaimBinding b : booking.claims()) {
      if (b.allocated() && allocatedHere.remove(b.key()) != null) {
        moved(b.allocation());
        for (AllocatedDevice d : b.allocation().devices()) {
          if (!d.adminAccess()) {
            inUse.remove(d.device());
          }
        }
      }
    }
  }

  /** The claim's allocation: this session's, else its {@code status.allocation}; null when unallocated. */
  public Allocation allocation(ResourceClaim claim) {
    Allocation a = allocatedHere.get(claim.key());
    return a != null ? a : claim.allocation();
  }

  /** The pod's claims: those allocated (usable on the node or not), those still to allocate, or why it cannot run. */
  private Resolved resolve(Pod pod, Node node) {
    Resolved r = new Resolved();
    for (PodResourceClaim ref : pod.constraints().resourceClaims()) {
      if (ref.claimName() == null) {
        r.failure = "waiting for a claim to be made from template " + pod.namespace() + "/" + ref.templateName()
            + " for " + ref.name();
        return r;
      }
      ResourceClaim c = state.claim(pod.namespace(), ref.claimName());
      if (c == null) {
        r.failure = "claim " + pod.namespace() + "/" + ref.claimName() + " not found";
        return r;
      }
      Allocation a = allocation(c);
      if (a == null) {
        if (!r.pending.contains(c)) {
          r.pending.add(c);
        }
      } else if (!a.allows(node.name())) {
        r.failure = "claim " + c.key() + ": allocated on node " + a.nodeName();
        return r;
      } else {
        r.ready.add(new ClaimBinding(c.namespace(), c.name(), c.uid(), a, false));
      }
    }
    return r;
  }

  private static final class Resolved {
    final List<ResourceClaim> pending = new ArrayList<>();
    final List<ClaimBinding> ready = new ArrayList<>();
    String failure;
  }
}
