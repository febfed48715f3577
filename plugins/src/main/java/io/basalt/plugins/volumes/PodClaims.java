package io.basalt.plugins.volumes;

import io.basalt.framework.FilterResult;
import io.basalt.model.ClusterVolumes;
import io.basalt.model.InlineDisk;
import io.basalt.model.Node;
import io.basalt.model.PersistentVolume;
import io.basalt.model.Pod;
import io.basalt.model.PodVolume;
import io.basalt.model.VolumeClaim;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * One pod's claims resolved against the cluster's storage objects once per task (kube-scheduler's VolumeBinding
 * PreFilter): the bound ones with their PVs, the unbound {@code WaitForFirstConsumer} ones, or the reason the pod
 * cannot be placed anywhere (a missing or deleting claim, an unbound Immediate claim).
 */
final class PodClaims {
  // kube-scheduler's reasons (volumebinding, volumezone, nodevolumelimits, volumerestrictions).
  static final FilterResult UNBOUND_IMMEDIATE =
      FilterResult.unfit("pod has unbound immediate PersistentVolumeClaims");
  static final FilterResult NODE_CONFLICT = FilterResult.unfit("node(s) had volume node affinity conflict");
  static final FilterResult BIND_CONFLICT =
      FilterResult.unfit("node(s) didn't find available persistent volumes to bind");
  static final FilterResult NOT_ENOUGH_SPACE = FilterResult.unfit("node(s) did not have enough free storage");
  static final FilterResult PV_NOT_EXIST =
      FilterResult.unfit("node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)");
  static final FilterResult ZONE_CONFLICT = FilterResult.unfit("node(s) had no available volume zone");
  static final FilterResult NO_PV_NO_CLASS =
      FilterResult.unfit("PersistentVolumeClaim had no pv name and storageClass name");
  static final FilterResult PV_NO_NAME = FilterResult.unfit("PersistentVolume had no name");
  static final FilterResult MAX_VOLUME_COUNT = FilterResult.unfit("node(s) exceed max volume count");
  static final FilterResult DISK_CONFLICT = FilterResult.unfit("node(s) had no available disk");
  static final FilterResult RWOP_CONFLICT = FilterResult.unfit(
      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode");

  final List<VolumeClaim> claims = new ArrayList<>();
  /** The pod's in-line disks. */
  final List<InlineDisk> disks = new ArrayList<>();
  final List<PersistentVolume> boundVolumes = new ArrayList<>();
  /** Unbound WaitForFirstConsumer claims, largest request first (as kube-scheduler matches them). */
  final List<VolumeClaim> delayed = new ArrayList<>();
  /** Why the pod fits no node whatever the node, or null. */
  final FilterResult everywhere;

  PodClaims(Pod pod, ClusterVolumes volumes) {
    FilterResult problem = null;
    FilterResult lost = null;
    boolean immediate = false;
    boolean pvMissing = false;
    for (PodVolume v : pod.constraints().volumes()) {
      if (!v.isClaim()) {
        disks.add(v.disk());
        continue;
      }
      VolumeClaim c = volumes.claim(pod.namespace(), v.claimName());
      if (c == null) {
        problem = FilterResult.unfit(v.ephemeral()
            ? "waiting for ephemeral volume controller to create the persistentvolumeclaim \"" + v.claimName() + "\""
            : "persistentvolumeclaim \"" + v.claimName() + "\" not found");
        break;
      }
      if (c.deleting()) {
        problem = FilterResult.unfit("persistentvolumeclaim \"" + v.claimName() + "\" is being deleted");
        break;
      }
      if (v.ephemeral() && !c.controlledBy(pod.uid())) {
        // kube-scheduler's ephemeral.VolumeIsForPod: a claim of that name someone else created is not the volume's.
        problem = FilterResult.unfit("PVC " + c.key() + " was not created for pod " + pod.namespace() + "/"
            + pod.name() + " (pod is not owner)");
        break;
      }
      claims.add(c);
      if (c.isBound()) {
        PersistentVolume pv = volumes.volume(c.volumeName());
        if (pv == null) {
          // A lost claim is refused before any node is looked at; a PV not (yet) in the cache on every node.
          if (lost == null && "Lost".equals(c.phase())) {
            lost = FilterResult.unfit("persistentvolumeclaim \"" + c.name()
                + "\" bound to non-existent persistentvolume \"" + c.volumeName() + "\"");
          }
          pvMissing = true;
        } else {
          boundVolumes.add(pv);
        }
      } else if (volumes.delaysBinding(c)) {
        delayed.add(c);
      } else {
        immediate = true;
      }
    }
    delayed.sort(Comparator.comparingLong(VolumeClaim::request).reversed().thenComparing(VolumeClaim::name));
    // kube-scheduler's order: missing or deleting claims and lost ones (PreFilter), unbound immediate claims
    // (PreFilter), then PVs that do not exist (Filter).
    everywhere = problem != null ? problem : lost != null ? lost : immediate ? UNBOUND_IMMEDIATE
        : pvMissing ? PV_NOT_EXIST : null;
  }

  /** Whether any claim is {@code ReadWriteOncePod}. */
  boolean anyReadWriteOncePod() {
    for (VolumeClaim c : claims) {
      if (c.readWriteOncePod()) {
        return true;
      }
    }
    return false;
  }

  /**
   * What binding the unbound claims on {@code node} takes: per claim key, the PV chosen (smallest fitting, not
   * {@code taken} for another claim (PV name, claim key), not chosen for another claim of this pod) or null where it
   * is provisioned. The verdict is OK, or the reason the node cannot take them.
   */
  Binding bind(Node node, ClusterVolumes volumes, BiPredicate<String, String> taken) {
    Map<String, String> chosen = new LinkedHashMap<>();
    Set<String> mine = new HashSet<>();
    boolean noSpace = false;
    for (VolumeClaim c : delayed) {
      if (c.selectedNode() != null && !c.selectedNode().equals(node.name())) {
        return new Binding(BIND_CONFLICT, Map.of());
      }
      PersistentVolume pv = volumes.bestMatch(c, node, name -> mine.contains(name) || taken.test(name, c.key()));
      if (pv != null) {
        mine.add(pv.name());
        chosen.put(c.key(), pv.name());
        continue;
      }
      ClusterVolumes.Provisioning why = volumes.provisioning(c, node);
      if (why == null) {
        chosen.put(c.key(), null);
      } else if (why == ClusterVolumes.Provisioning.CAPACITY) {
        noSpace = true;
      } else {
        return new Binding(BIND_CONFLICT, Map.of());
      }
    }
    return noSpace ? new Binding(NOT_ENOUGH_SPACE, Map.of()) : new Binding(FilterResult.OK, chosen);
  }

  /** The verdict of binding a pod's unbound claims on a node, and the PV chosen per claim (null: provisioned). */
  record Binding(FilterResult verdict, Map<String, String> chosen) {}
}
