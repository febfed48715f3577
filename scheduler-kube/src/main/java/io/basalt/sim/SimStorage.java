package io.basalt.sim;

import io.basalt.cache.VolumeStore;
import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.model.ClusterVolumes;
import io.basalt.model.Node;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.PersistentVolume;
import io.basalt.model.StorageClass;
import io.basalt.model.VolumeClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The simulated cluster's claims and PVs as the API server, the PV controller and a provisioner keep them: writes of
 * the volume binding step are guarded by a resourceVersion per object, and once a pod is bound ({@link #settle}) a PV
 * reserved for a claim is bound to it, and a claim annotated with a node gets a new PV there, bound to it.
 */
final class SimStorage {
  static final String HOSTNAME = "kubernetes.io/hostname";

  private final VolumeStore store;
  private final Function<String, Node> nodes;
  private final Map<String, Long> versions = new HashMap<>();
  /** Per pod key, what was bound or provisioned for it: claim to "PV (how)", for the report. */
  /** Claim keys whose writes this API refuses (409), as when another writer changed them first (tests). */
  final java.util.Set<String> refused = new java.util.HashSet<>();
  private final Map<String, Map<String, String>> outcomes = new java.util.LinkedHashMap<>();

  SimStorage(VolumeStore store, Function<String, Node> nodes) {
    this.store = store;
    this.nodes = nodes;
  }

  private String version(String key) {
    return Long.toString(versions.getOrDefault(key, 0L));
  }

  private void bump(String key) {
    versions.merge(key, 1L, Long::sum);
  }

  ApiObjects.Read<VolumeClaim> readClaim(String namespace, String name) {
    VolumeClaim c = store.value().claim(namespace, name);
    return c == null ? new ApiObjects.Read<>(null, null, new ApiReply(404, "not found"))
        : new ApiObjects.Read<>(c, version("pvc/" + c.key()), new ApiReply(200, ""));
  }

  ApiObjects.Read<PersistentVolume> readVolume(String name) {
    PersistentVolume pv = store.value().volume(name);
    return pv == null ? new ApiObjects.Read<>(null, null, new ApiReply(404, "not found"))
        : new ApiObjects.Read<>(pv, version("pv/" + name), new ApiReply(200, ""));
  }

  ApiReply selectNode(String namespace, String claim, String node, String resourceVersion) {
    VolumeClaim c = store.value().claim(namespace, claim);
    if (c == null) {
      return new ApiReply(404, "not found");
    }
    if (!version("pvc/" + c.key()).equals(resourceVersion) || refused.contains(c.key())) {
      return new ApiReply(409, "the object has been modified");
    }
    store.putClaim(c.withSelectedNode(node));
    bump("pvc/" + c.key());
    return new ApiReply(200, "");
  }

  ApiReply reserveVolume(String volume, VolumeClaim claim, String resourceVersion) {
    PersistentVolume pv = store.value().volume(volume);
    if (pv == null) {
      return new ApiReply(404, "not found");
    }
    if (!version("pv/" + volume).equals(resourceVersion)
        || (claim != null && refused.contains(claim.key()))) {
      return new ApiReply(409, "the object has been modified");
    }
    store.putVolume(claim == null ? released(pv) : pv.boundTo(claim));
    bump("pv/" + volume);
    return new ApiReply(200, "");
  }

  private static PersistentVolume released(PersistentVolume pv) {
    return new PersistentVolume(pv.name(), pv.storageClassName(), pv.capacity(), pv.accessModes(), pv.volumeMode(),
        pv.nodeAffinity(), pv.labels(), null, null, "Available", pv.csiDriver());
  }

  /**
   * The PV controller and the provisioners act for {@code podKey}'s claims: a PV whose claimRef names an unbound
   * claim binds it; an unbound claim annotated with a node whose class provisions gets a new PV reachable from that
   * node only. {@code claims} are the claim keys the binding step wrote for.
   */
  void settle(String podKey, List<String> claims) {
    ClusterVolumes v = store.value();
    for (String key : claims) {
      VolumeClaim c = v.claims().get(key);
      if (c == null || c.isBound()) {
        continue;
      }
      PersistentVolume reserved = null;
      for (PersistentVolume pv : v.volumes().values()) {
        if (pv.reservedFor(c)) {
          reserved = pv;
        }
      }
      if (reserved != null) {
        store.putClaim(c.boundTo(reserved.name()));
        outcomes.computeIfAbsent(podKey, k -> new TreeMap<>()).put(c.name(), reserved.name() + " (bound)");
        continue;
      }
      StorageClass sc = v.storageClass(c.storageClassName());
      Node node = c.selectedNode() == null ? null : nodes.apply(c.selectedNode());
      if (sc == null || !sc.provisions() || node == null) {
        continue;
      }
      String name = "pvc-" + (c.uid() != null ? c.uid() : c.namespace() + "-" + c.name());
      String hostname = node.labels().get(HOSTNAME);
      NodeSelectorRequirement there = hostname != null
          ? new NodeSelectorRequirement(HOSTNAME, "In", List.of(hostname), false)
          : new NodeSelectorRequirement("metadata.name", "In", List.of(node.name()), true);
      PersistentVolume pv = new PersistentVolume(name, c.storageClassName(), c.request(), c.accessModes(),
          c.volumeMode(), List.of(new NodeSelectorTerm(List.of(there))), Map.of(), c.namespace(), c.name(), "Bound",
          sc.provisioner());
      store.putVolume(pv);
      store.putClaim(c.boundTo(name));
      outcomes.computeIfAbsent(podKey, k -> new TreeMap<>()).put(c.name(),
          name + " (provisioned on " + node.name() + ")");
    }
  }

  /** Per pod key, each claim's PV as bound or provisioned for it. */
  Map<String, Map<String, String>> outcomes() {
    return outcomes;
  }

  static List<String> keys(List<io.basalt.kube.volumes.VolumeBindStep.Write> writes) {
    List<String> out = new ArrayList<>();
    writes.forEach(w -> out.add(w.claim().key()));
    return out;
  }
}
