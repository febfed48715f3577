package io.basalt.dra;

import io.basalt.model.Node;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The DRA objects of one snapshot: device classes, the devices published in ResourceSlices, claims and claim
 * templates. Which devices a node can be allocated is worked out once per node and snapshot; a pool is read at its
 * highest generation, and left out while that generation's slices are not all published.
 */
public final class DraState {
  public static final DraState EMPTY = new DraState(List.of(), List.of(), List.of(), List.of());

  private final Map<String, DeviceClass> classes = new HashMap<>();
  private final List<ResourceSlice> slices;
  private final Map<String, ResourceClaim> claims = new LinkedHashMap<>();
  private final Map<String, ClaimTemplate> templates = new HashMap<>();
  private final Set<DeviceId> allocated = new HashSet<>();
  private final Map<String, List<Candidate>> byNode = new ConcurrentHashMap<>();
  private final boolean shared;

  public DraState(Collection<DeviceClass> classes, Collection<ResourceSlice> slices,
      Collection<ResourceClaim> claims, Collection<ClaimTemplate> templates) {
    classes.forEach(c -> this.classes.put(c.name(), c));
    this.slices = current(slices);
    this.shared = this.slices.stream().anyMatch(s -> !s.nodeLocal());
    for (ResourceClaim c : claims) {
      this.claims.put(c.key(), c);
      if (c.allocation() != null) {
        for (AllocatedDevice d : c.allocation().devices()) {
          if (!d.adminAccess()) {
            allocated.add(d.device());
          }
        }
      }
    }
    templates.forEach(t -> this.templates.put(t.key(), t));
  }

  /** Whether any slice's devices are reachable from more than one node (a node selector, or all nodes). */
  public boolean sharedDevices() {
    return shared;
  }

  /** Whether the cluster states any DRA object: without, the session adds no claim check at all. */
  public boolean active() {
    return !classes.isEmpty() || !slices.isEmpty() || !claims.isEmpty() || !templates.isEmpty();
  }

  public DeviceClass deviceClass(String name) {
    return classes.get(name);
  }

  public ResourceClaim claim(String namespace, String name) {
    return claims.get(namespace + "/" + name);
  }

  public Collection<ResourceClaim> claims() {
    return claims.values();
  }

  public ClaimTemplate template(String namespace, String name) {
    return templates.get(namespace + "/" + name);
  }

  public List<ResourceSlice> slices() {
    return slices;
  }

  /** Devices some claim's {@code status.allocation} holds (admin access holds none). */
  Set<DeviceId> allocatedAtOpen() {
    return allocated;
  }

  /** The devices {@code node} reaches, in slice then device order. */
  List<Candidate> candidates(Node node) {
    return byNode.computeIfAbsent(node.name(), n -> {
      List<Candidate> out = new ArrayList<>();
      for (ResourceSlice s : slices) {
        if (s.reaches(node)) {
          for (Device d : s.devices()) {
            out.add(new Candidate(new DeviceId(s.driver(), s.pool(), d.name()), d, s.nodeLocal()));
          }
        }
      }
      return List.copyOf(out);
    });
  }

  /** The slices of complete pools at their highest generation, in the order given. */
  private static List<ResourceSlice> current(Collection<ResourceSlice> slices) {
    Map<String, Long> generation = new HashMap<>();
    for (ResourceSlice s : slices) {
      generation.merge(s.driver() + "/" + s.pool(), s.generation(), Math::max);
    }
    Map<String, Integer> count = new HashMap<>();
    for (ResourceSlice s : slices) {
      if (s.generation() == generation.get(s.driver() + "/" + s.pool())) {
        count.merge(s.driver() + "/" + s.pool(), 1, Integer::sum);
      }
    }
    List<ResourceSlice> out = new ArrayList<>();
    for (ResourceSlice s : slices) {
      String pool = s.driver() + "/" + s.pool();
      if (s.generation() == generation.get(pool) && count.get(pool) >= s.resourceSliceCount()) {
        out.add(s);
      }
    }
    return List.copyOf(out);
  }
}
