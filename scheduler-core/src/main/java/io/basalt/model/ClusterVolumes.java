package io.basalt.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The storage objects of a cluster, as the volume filters and the binder read them: claims by {@code namespace/name},
 * PVs, StorageClasses and CSINodes by name, CSIStorageCapacities by class, VolumeAttachments by node. Immutable; a change is a new value. The
 * matching rules live here, beside the records, because the filters (which decide where a pod may go) and the binder
 * (which binds or provisions the chosen volumes) must answer alike.
 */
public record ClusterVolumes(
    Map<String, VolumeClaim> claims,
    Map<String, PersistentVolume> volumes,
    Map<String, StorageClass> classes,
    Map<String, CsiNode> csiNodes,
    Map<String, List<StorageCapacity>> capacities,
    Map<String, List<VolumeAttachment>> attachments) {
  public static final ClusterVolumes EMPTY = new ClusterVolumes(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(),
      Map.of());

  public ClusterVolumes {
    claims = Map.copyOf(claims);
    volumes = Map.copyOf(volumes);
    classes = Map.copyOf(classes);
    csiNodes = Map.copyOf(csiNodes);
    capacities = Map.copyOf(capacities);
    attachments = Map.copyOf(attachments);
  }

  /** What a manifest or an informer stated, gathered into one value (no VolumeAttachments). */
  public static ClusterVolumes of(List<VolumeClaim> claims, List<PersistentVolume> volumes, List<StorageClass> classes,
      List<CsiNode> csiNodes, List<StorageCapacity> capacities) {
    return of(claims, volumes, classes, csiNodes, capacities, List.of());
  }

  /** What a manifest or an informer stated, gathered into one value. */
  public static ClusterVolumes of(List<VolumeClaim> claims, List<PersistentVolume> volumes, List<StorageClass> classes,
      List<CsiNode> csiNodes, List<StorageCapacity> capacities, List<VolumeAttachment> attachments) {
    Map<String, VolumeClaim> c = new HashMap<>();
    claims.forEach(x -> c.put(x.key(), x));
    Map<String, PersistentVolume> v = new HashMap<>();
    volumes.forEach(x -> v.put(x.name(), x));
    Map<String, StorageClass> s = new HashMap<>();
    classes.forEach(x -> s.put(x.name(), x));
    Map<String, CsiNode> n = new HashMap<>();
    csiNodes.forEach(x -> n.put(x.nodeName(), x));
    Map<String, List<StorageCapacity>> cap = new HashMap<>();
    capacities.forEach(x -> cap.computeIfAbsent(x.storageClassName(), k -> new ArrayList<>()).add(x));
    Map<String, List<StorageCapacity>> frozen = new HashMap<>();
    cap.forEach((k, l) -> frozen.put(k, List.copyOf(l)));
    Map<String, List<VolumeAttachment>> byNode = new HashMap<>();
    attachments.forEach(x -> byNode.computeIfAbsent(x.nodeName(), k -> new ArrayList<>()).add(x));
    Map<String, List<VolumeAttachment>> attached = new HashMap<>();
    byNode.forEach((k, l) -> attached.put(k, List.copyOf(l)));
    return new ClusterVolumes(c, v, s, n, frozen, attached);
  }

  public boolean isEmpty() {
    return claims.isEmpty() && volumes.isEmpty() && classes.isEmpty() && csiNodes.isEmpty() && capacities.isEmpty()
        && attachments.isEmpty();
  }

  public VolumeClaim claim(String namespace, String name) {
    return claims.get(namespace + "/" + name);
  }

  public PersistentVolume volume(String name) {
    return name == null ? null : volumes.get(name);
  }

  public StorageClass storageClass(String name) {
    return name == null ? null : classes.get(name);
  }

  public CsiNode csiNode(String node) {
    return csiNodes.get(node);
  }

  /** The VolumeAttachments naming {@code node}. */
  public List<VolumeAttachment> attachedTo(String node) {
    return attachments.getOrDefault(node, List.of());
  }

  /**
   * Whether an unbound {@code claim} waits for its pod's node ({@code WaitForFirstConsumer}); false when its class is
   * Immediate, absent or unknown, as kube-scheduler's volume binder reads it.
   */
  public boolean delaysBinding(VolumeClaim claim) {
    StorageClass c = storageClass(claim.storageClassName());
    return c != null && c.waitsForFirstConsumer();
  }

  /**
   * The PV an unbound {@code claim} would bind on {@code node}: the smallest available one that satisfies it and is
   * reachable from the node, skipping those {@code taken} says are taken (PVs other claims chose this cycle); ties go
   * to the name first in order, so the filter and the binder choose alike. Null when none.
   */
  public PersistentVolume bestMatch(VolumeClaim claim, Node node, Predicate<String> taken) {
    PersistentVolume best = null;
    for (PersistentVolume pv : volumes.values()) {
      if (!pv.availableFor(claim) || !pv.satisfies(claim) || taken.test(pv.name()) || !pv.reachableFrom(node)) {
        continue;
      }
      if (pv.reservedFor(claim)) {
        return pv; // pre-bound to this claim: nothing else may be chosen
      }
      if (best == null || pv.capacity() < best.capacity()
          || (pv.capacity() == best.capacity() && pv.name().compareTo(best.name()) < 0)) {
        best = pv;
      }
    }
    return best;
  }

  /**
   * The default StorageClass: of the classes annotated default, the newest (then the first by name), as kube's
   * DefaultStorageClass admission plugin and PV controller choose it; null when none is.
   */
  public StorageClass defaultClass() {
    StorageClass best = null;
    for (StorageClass c : classes.values()) {
      if (c.isDefault() && (best == null || c.createdMillis() > best.createdMillis()
          || (c.createdMillis() == best.createdMillis() && c.name().compareTo(best.name()) < 0))) {
        best = c;
      }
    }
    return best;
  }

  /**
   * These objects with every unbound claim of no class ({@code spec.storageClassName} absent) given the default
   * class, as the cluster would have them: the admission plugin sets it on a claim created while a default exists,
   * and the PV controller sets it later on one created before (retroactive default StorageClass assignment). The
   * simulator reads cluster YAML that never went through either, so it applies this; live mode reads claims after
   * they did, and waits for the PV controller as kube-scheduler does. The same value when nothing changes.
   */
  public ClusterVolumes withDefaultClass() {
    StorageClass d = defaultClass();
    if (d == null) {
      return this;
    }
    Map<String, VolumeClaim> c = null;
    for (VolumeClaim claim : claims.values()) {
      if (claim.classUnset() && !claim.isBound()) {
        if (c == null) {
          c = new HashMap<>(claims);
        }
        c.put(claim.key(), claim.withStorageClass(d.name()));
      }
    }
    return c == null ? this : new ClusterVolumes(c, volumes, classes, csiNodes, capacities, attachments);
  }

  /** Why a class cannot provision {@code claim} for {@code node}; null when it can. */
  public Provisioning provisioning(VolumeClaim claim, Node node) {
    StorageClass c = storageClass(claim.storageClassName());
    if (c == null || !c.provisions() || claim.selector() != null) {
      return Provisioning.NO_PROVISIONER; // dynamic provisioning ignores claims with selectors
    }
    if (!c.allowsTopologyOf(node)) {
      return Provisioning.TOPOLOGY;
    }
    List<StorageCapacity> caps = capacities.get(c.name());
    if (caps != null && !caps.isEmpty()) {
      for (int i = 0, n = caps.size(); i < n; i++) {
        if (caps.get(i).fits(node, claim.request())) {
          return null;
        }
      }
      return Provisioning.CAPACITY;
    }
    return null;
  }

  /** Why provisioning a claim is refused on a node. */
  public enum Provisioning { NO_PROVISIONER, TOPOLOGY, CAPACITY }

  /** These objects with {@code claim} put (added or replaced). */
  public ClusterVolumes withClaim(VolumeClaim claim) {
    Map<String, VolumeClaim> c = new HashMap<>(claims);
    c.put(claim.key(), claim);
    return new ClusterVolumes(c, volumes, classes, csiNodes, capacities, attachments);
  }

  /** These objects with {@code pv} put (added or replaced). */
  public ClusterVolumes withVolume(PersistentVolume pv) {
    Map<String, PersistentVolume> v = new HashMap<>(volumes);
    v.put(pv.name(), pv);
    return new ClusterVolumes(claims, v, classes, csiNodes, capacities, attachments);
  }
}
