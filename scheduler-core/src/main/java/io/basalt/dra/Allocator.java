package io.basalt.dra;

import io.basalt.gpu.GpuTopology;
import io.basalt.model.Node;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The structured-parameters allocator: chooses devices on one node for claims together, with the semantics of
 * kube-scheduler's allocator. A request takes {@code count} devices ({@code ExactCount}) or every matching one
 * ({@code All}: all must be free, and there must be one), each passing its class's and its own CEL selectors; a
 * {@code firstAvailable} request takes the first sub-request that can be met; a {@code matchAttribute} constraint
 * makes the devices of the requests it covers agree on an attribute. A device goes to one request of one claim
 * (devices taken already, by other claims or earlier in this search, are skipped) unless the request asks for admin
 * access, which may use any matching device and takes none away from others. The search backtracks, trying devices in
 * slice order (for a request of several GPUs, the best-linked free set first: {@link TopologyOrder}), bounded by
 * {@link #MAX_STEPS}.
 */
public final class Allocator {
  /** How many device choices one allocation may try before it gives up (a reason says so). */
  static final int MAX_STEPS = 100_000;

  /** What came of allocating: the claims' allocations in order, or why not (the first claim and request that failed). */
  public record Outcome(List<Allocation> allocations, String failure, int blamed, String reason) {
    Outcome(List<Allocation> allocations) {
      this(allocations, null, -1, null);
    }

    /** Failed: {@code reason} for the claim at {@code blamed} of those asked for. */
    Outcome(List<ResourceClaim> claims, int blamed, String reason) {
      this(List.of(), "claim " + claims.get(blamed).key() + ": " + reason, blamed, reason);
    }

    public boolean ok() {
      return failure == null;
    }
  }

  private final DraState state;
  private final Predicate<DeviceId> inUse;

  /** @param inUse whether a device is taken already (by a claim allocated before or during this session) */
  public Allocator(DraState state, Predicate<DeviceId> inUse) {
    this.state = state;
    this.inUse = inUse;
  }

  /** Devices on {@code node} for each of {@code claims} (none allocated yet), all or none. */
  public Outcome allocate(List<ResourceClaim> claims, Node node) {
    return allocate(claims, node, null);
  }

  /**
   * As {@link #allocate(List, Node)}, trying first, for a request of several devices, the free set best linked in
   * {@code gpus} (the node's GPU topology, null when unknown): see {@link TopologyOrder}.
   */
  public Outcome allocate(List<ResourceClaim> claims, Node node, GpuTopology gpus) {
    List<Candidate> devices = state.candidates(node);
    List<Slot> slots = new ArrayList<>();
    for (ResourceClaim claim : claims) {
      for (DeviceRequest r : claim.spec().requests()) {
        List<DeviceRequest> choices = r.firstAvailable().isEmpty() ? List.of(r) : r.firstAvailable();
        List<Choice> options = new ArrayList<>();
        String why = null;
        for (DeviceRequest c : choices) {
          String name = c == r ? r.name() : r.name() + "/" + c.name();
          Choice choice = new Choice(name, c, c.adminAccess());
          why = choice.match(node, devices);
          if (why == null) {
            if (!choice.admin && !c.all()) {
              choice.matching = TopologyOrder.prefer(choice.matching, choice.wanted(), gpus, d -> !inUse.test(d.id));
            }
            options.add(choice);
          } else if (choices.size() > 1) {
            why = "subrequest " + c.name() + ": " + why;
          }
        }
        if (options.isEmpty()) {
          return new Outcome(claims, claims.indexOf(claim), "request " + r.name() + ": " + why);
        }
        slots.add(new Slot(claim, options));
      }
    }
    Search search = new Search(slots);
    if (!search.run(0)) {
      ResourceClaim blamed = search.blamed != null ? search.blamed : claims.get(0);
      String why = search.steps >= MAX_STEPS ? "gave up after " + MAX_STEPS + " device choices"
          : search.constraintFailed != null ? "no devices satisfy matchAttribute " + search.constraintFailed
          : "not enough free devices for all requests together";
      return new Outcome(claims, claims.indexOf(blamed), why);
    }
    List<Allocation> out = new ArrayList<>();
    for (ResourceClaim claim : claims) {
      List<AllocatedDevice> results = new ArrayList<>();
      boolean local = false;
      for (int i = 0; i < slots.size(); i++) {
        Slot s = slots.get(i);
        if (s.claim == claim) {
          for (Candidate c : search.chosen.get(i)) {
            results.add(new AllocatedDevice(search.picked.get(i).name, c.id, search.picked.get(i).admin));
            local |= c.nodeLocal;
          }
        }
      }
      out.add(new Allocation(results, local ? node.name() : null));
    }
    return new Outcome(out);
  }

  /** Which devices of a node pass a class's and a request's selectors: fixed for the snapshot, asked per pod. */
  private record MatchKey(String node, String deviceClass, List<String> selectors) {}

  /** The devices passing, or why none does. */
  private record Matched(List<Candidate> devices, String none) {}

  private final java.util.Map<MatchKey, Matched> matched = new java.util.HashMap<>();

  /** One request of one claim: its options (one, or a {@code firstAvailable} list) that have matching devices. */
  private record Slot(ResourceClaim claim, List<Choice> options) {}

  /** One way to meet a request, and the devices on the node that pass its selectors. */
  private final class Choice {
    final String name;
    final DeviceRequest request;
    final boolean admin;
    List<Candidate> matching;

    Choice(String name, DeviceRequest request, boolean admin) {
      this.name = name;
      this.request = request;
      this.admin = admin;
    }

    /** Finds the matching devices; null when they could meet the request, else why not. */
    String match(Node node, List<Candidate> devices) {
      DeviceClass cls = state.deviceClass(request.deviceClassName());
      if (cls == null) {
        return "device class " + request.deviceClassName() + " does not exist";
      }
      Matched m = matched.get(new MatchKey(node.name(), cls.name(), request.selectors()));
      if (m == null) {
        m = matchAll(cls, devices);
        matched.put(new MatchKey(node.name(), cls.name(), request.selectors()), m);
      }
      if (m.none() != null) {
        return m.none();
      }
      matching = m.devices();
      long free = matching.size();
      if (!admin) {
        for (Candidate d : matching) {
          free -= inUse.test(d.id) ? 1 : 0;
        }
      }
      if (request.all()) {
        return free == matching.size() ? null
            : "asks for all " + matching.size() + " matching devices, " + (matching.size() - free) + " allocated";
      }
      return free >= request.count() ? null
          : "needs " + request.count() + " devices, " + free + " of " + matching.size() + " matching are free";
    }

    /** The devices passing the class's and the request's selectors, or why none does. */
    private Matched matchAll(DeviceClass cls, List<Candidate> devices) {
      List<Candidate> out = new ArrayList<>();
      String error = null;
      int classMatches = 0;
      for (Candidate d : devices) {
        String e = failed(d, cls.selectors());
        if (e == null) {
          classMatches++;
          e = failed(d, request.selectors());
          if (e == null) {
            out.add(d);
            continue;
          }
        }
        if (!e.isEmpty() && error == null) {
          error = e;
        }
      }
      if (out.isEmpty()) {
        String of = error != null ? " (" + error + ")" : "";
        return new Matched(List.of(), classMatches == 0 ? "no device matches the selector of class " + cls.name() + of
            : "no device of class " + cls.name() + " matches the request's selectors" + of);
      }
      return new Matched(List.copyOf(out), null);
    }

    /** "" when a selector rejects the device, its error when one could not say, null when all pass. */
    private String failed(Candidate d, List<String> selectors) {
      for (String s : selectors) {
        Selectors.Result r = d.test(s);
        if (!r.matches()) {
          return r.error() == null ? "" : r.error();
        }
      }
      return null;
    }

    int wanted() {
      return request.all() ? matching.size() : (int) Math.min(request.count(), Integer.MAX_VALUE);
    }
  }

  /** Depth-first over the slots: an option per slot, then its devices one by one, undoing on a dead end. */
  private final class Search {
    final List<Slot> slots;
    final List<List<Candidate>> chosen = new ArrayList<>();
    final List<Choice> picked = new ArrayList<>();
    final Set<DeviceId> taken = new HashSet<>();
    int steps;
    String constraintFailed;
    ResourceClaim blamed;

    Search(List<Slot> slots) {
      this.slots = slots;
      for (int i = 0; i < slots.size(); i++) {
        chosen.add(new ArrayList<>());
        picked.add(null);
      }
    }

    boolean run(int slot) {
      if (slot == slots.size()) {
        return true;
      }
      Slot s = slots.get(slot);
      for (Choice option : s.options()) {
        picked.set(slot, option);
        if (fill(slot, option, 0)) {
          return true;
        }
        if (steps >= MAX_STEPS) {
          return false;
        }
      }
      picked.set(slot, null);
      if (blamed == null) {
        blamed = s.claim();
      }
      return false;
    }

    /** Chooses the devices of {@code option} from index {@code from} of its matching list, then the next slots. */
    private boolean fill(int slot, Choice option, int from) {
      List<Candidate> mine = chosen.get(slot);
      if (mine.size() == option.wanted()) {
        return run(slot + 1);
      }
      for (int i = from; i < option.matching.size(); i++) {
        if (++steps >= MAX_STEPS) {
          return false;
        }
        Candidate d = option.matching.get(i);
        if (!option.admin && (inUse.test(d.id) || taken.contains(d.id))) {
          if (option.request.all()) {
            return false;
          }
          continue;
        }
        if (!fitsConstraints(slot, option, d)) {
          if (option.request.all()) {
            return false;
          }
          continue;
        }
        mine.add(d);
        if (!option.admin) {
          taken.add(d.id);
        }
        if (fill(slot, option, i + 1)) {
          return true;
        }
        mine.remove(mine.size() - 1);
        taken.remove(d.id);
        if (steps >= MAX_STEPS) {
          return false;
        }
      }
      return false;
    }

    /** Whether {@code d} agrees with the devices chosen so far under each constraint of the claim covering it. */
    private boolean fitsConstraints(int slot, Choice option, Candidate d) {
      ResourceClaim claim = slots.get(slot).claim();
      for (MatchConstraint mc : claim.spec().constraints()) {
        if (mc.matchAttribute() == null || !mc.covers(option.name)) {
          continue;
        }
        Object value = d.attribute(mc.matchAttribute());
        if (value == null) {
          constraintFailed = mc.matchAttribute();
          return false;
        }
        for (int j = 0; j <= slot; j++) {
          if (slots.get(j).claim() != claim || picked.get(j) == null || !mc.covers(picked.get(j).name)) {
            continue;
          }
          for (Candidate other : chosen.get(j)) {
            if (!Objects.equals(other.attribute(mc.matchAttribute()), value)) {
              constraintFailed = mc.matchAttribute();
              return false;
            }
          }
        }
      }
      return true;
    }
  }
}
