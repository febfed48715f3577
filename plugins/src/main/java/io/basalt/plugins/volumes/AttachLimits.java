package io.basalt.plugins.volumes;

import io.basalt.api.NodeInfo;
import io.basalt.framework.SessionView;
import io.basalt.model.ClusterVolumes;
import io.basalt.model.CsiNode;
import io.basalt.model.InlineDisk;
import io.basalt.model.Node;
import io.basalt.model.PersistentVolume;
import io.basalt.model.Pod;
import io.basalt.model.PodVolume;
import io.basalt.model.StorageClass;
import io.basalt.model.VolumeAttachment;
import io.basalt.model.VolumeClaim;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * kube-scheduler's NodeVolumeLimits (CSI) for one session: the volumes attached per node (its pods', those placed
 * there this cycle, and those its VolumeAttachments name), counted per CSI driver against the node's CSINode limits.
 * A volume counts once per driver and volume handle; in-tree volumes count against the CSI driver migration
 * translates them to. Each node is read the first time it is asked about; placements and their undo keep it current.
 */
final class AttachLimits {
  private final SessionView session;
  private final ClusterVolumes volumes;
  /** Node name to its attached volume ids with the number of pods using each; filled per node as asked about. */
  private final Map<String, Map<String, Integer>> attached = new HashMap<>();
  /** Node name to the volumes its VolumeAttachments name ({@code driver|handle}); filled per node as asked about. */
  private final Map<String, Set<String>> attachments = new HashMap<>();

  AttachLimits(SessionView session, ClusterVolumes volumes) {
    this.session = session;
    this.volumes = volumes;
  }


  /** Whether adding the pod's volumes to the node exceeds a driver's limit of its CSINode. */
  boolean exceeds(Pod pod, Node node) {
    CsiNode csi = volumes.csiNode(node.name());
    if (csi == null || csi.attachLimits().isEmpty()) {
      return false;
    }
    Map<String, Integer> on = attachedOn(node.name());
    Map<String, Integer> adding = new HashMap<>();
    for (PodVolume v : pod.constraints().volumes()) {
      Attachment a = attachment(pod.namespace(), v);
      if (a != null && a.driver != null && csi.attachLimits().containsKey(a.driver) && !on.containsKey(a.id)) {
        adding.merge(a.driver, 1, Integer::sum);
      }
    }
    Set<String> vas = attachmentsOn(node.name());
    for (Map.Entry<String, Integer> e : adding.entrySet()) {
      int count = 0;
      for (String id : on.keySet()) {
        if (id.startsWith(e.getKey() + "|")) {
          count++;
        }
      }
      for (String id : vas) { // attached, though no pod there uses it (kube-scheduler dedups only with pods' volumes)
        if (id.startsWith(e.getKey() + "|") && !on.containsKey(id)) {
          count++;
        }
      }
      if (count + e.getValue() > csi.attachLimits().get(e.getKey())) {
        return true;
      }
    }
    return false;
  }

  /** A volume as attach limits count it: {@code driver|volume}, the PV's or (unbound) the claim's. */
  private record Attachment(String driver, String id) {}

  private Attachment attachment(String namespace, String claimName) {
    VolumeClaim c = volumes.claim(namespace, claimName);
    if (c == null) {
      return null;
    }
    if (c.isBound()) {
      PersistentVolume pv = volumes.volume(c.volumeName());
      if (pv != null) {
        String driver = pv.csiDriver();
        return new Attachment(driver, driver + "|" + pv.volumeHandle());
      }
      // A PV not (yet) known: counted through the claim's class, as kube-scheduler counts it.
    }
    StorageClass sc = volumes.storageClass(c.storageClassName());
    String driver = sc == null ? null : PersistentVolume.migratedDriver(sc.provisioner());
    return new Attachment(driver, driver + "|claim/" + c.key());
  }

  /** An in-line disk as attach limits count it: EBS and GCE PD volumes through their CSI drivers; others not. */
  private static Attachment attachment(InlineDisk disk) {
    String plugin = switch (disk.kind()) {
      case "aws" -> "kubernetes.io/aws-ebs";
      case "gce" -> "kubernetes.io/gce-pd";
      default -> null;
    };
    if (plugin == null) {
      return null;
    }
    String driver = PersistentVolume.migratedDriver(plugin);
    return new Attachment(driver, driver + "|" + disk.id());
  }

  /** The attachment of a pod volume: its claim's, or its in-line disk's. */
  private Attachment attachment(String namespace, PodVolume v) {
    return v.isClaim() ? attachment(namespace, v.claimName()) : attachment(v.disk());
  }

  /** The volumes the node's VolumeAttachments name, as {@code attacher|handle}; those of unknown PVs left out. */
  private Set<String> attachmentsOn(String node) {
    Set<String> ids = attachments.get(node);
    if (ids == null) {
      ids = new HashSet<>();
      for (VolumeAttachment va : volumes.attachedTo(node)) {
        PersistentVolume pv = volumes.volume(va.volumeName());
        if (pv != null && pv.volumeHandle() != null) {
          ids.add(va.attacher() + "|" + pv.volumeHandle());
        }
      }
      attachments.put(node, ids);
    }
    return ids;
  }

  /** The node's attached volume ids with the number of pods using each; read from its pods the first time. */
  private Map<String, Integer> attachedOn(String node) {
    Map<String, Integer> on = attached.get(node);
    if (on == null) {
      on = new HashMap<>();
      attached.put(node, on);
      NodeInfo info = session.node(node);
      if (info != null) {
        for (Pod p : session.podsOn(info)) {
          attach(on, p, 1);
        }
      }
    }
    return on;
  }

  private void attach(Map<String, Integer> on, Pod p, int delta) {
    for (PodVolume v : p.constraints().volumes()) {
      Attachment a = attachment(p.namespace(), v);
      if (a != null && a.driver != null) {
        int n = on.getOrDefault(a.id, 0) + delta;
        if (n <= 0) {
          on.remove(a.id);
        } else {
          on.put(a.id, n);
        }
      }
    }
  }


  /** A placement on {@code node}: its volumes are attached there. */
  void placed(Pod pod, String node) {
    attach(attachedOn(node), pod, 1);
  }

  /** An undone placement or an eviction from {@code node}, if the node was read. */
  void removed(Pod pod, String node) {
    Map<String, Integer> on = attached.get(node);
    if (on != null) {
      attach(on, pod, -1);
    }
  }
}
