package io.basalt.model;

import java.util.List;
import java.util.Map;

/**
 * A PersistentVolume as the volume filters read it.
 *
 * @param capacity {@code spec.capacity.storage} in bytes
 * @param nodeAffinity {@code spec.nodeAffinity.required.nodeSelectorTerms}; empty when the PV is reachable from any node
 * @param claimNamespace with {@code claimName}: {@code spec.claimRef}, the claim it is bound or reserved for; null
 *     when available
 * @param csiDriver {@code spec.csi.driver}, or for an in-tree volume (AWS EBS, GCE PD, Azure Disk, Cinder) the CSI
 *     driver kube's CSI migration translates it to, as attach limits count it; null for a PV of neither
 * @param volumeHandle {@code spec.csi.volumeHandle}, or the in-tree volume's id; attach limits count a volume once
 *     per driver and handle (the PV's name when null)
 */
public record PersistentVolume(
    String name,
    String storageClassName,
    long capacity,
    List<String> accessModes,
    String volumeMode,
    List<NodeSelectorTerm> nodeAffinity,
    Map<String, String> labels,
    String claimNamespace,
    String claimName,
    String phase,
    String csiDriver,
    String volumeHandle) {
  public PersistentVolume {
    storageClassName = storageClassName == null ? "" : storageClassName;
    accessModes = accessModes == null ? List.of() : List.copyOf(accessModes);
    volumeMode = volumeMode == null || volumeMode.isEmpty() ? VolumeClaim.FILESYSTEM : volumeMode;
    nodeAffinity = nodeAffinity == null ? List.of() : List.copyOf(nodeAffinity);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    claimName = claimName == null || claimName.isEmpty() ? null : claimName;
    volumeHandle = volumeHandle == null || volumeHandle.isEmpty() ? name : volumeHandle;
  }

  /** A PV whose volume handle is its name. */
  public PersistentVolume(String name, String storageClassName, long capacity, List<String> accessModes,
      String volumeMode, List<NodeSelectorTerm> nodeAffinity, Map<String, String> labels, String claimNamespace,
      String claimName, String phase, String csiDriver) {
    this(name, storageClassName, capacity, accessModes, volumeMode, nodeAffinity, labels, claimNamespace, claimName,
        phase, csiDriver, null);
  }

  /**
   * The CSI driver kube's CSI migration translates an in-tree plugin (a PV's source or a class's provisioner) to, or
   * {@code name} itself when it is not one of the migrated plugins.
   */
  public static String migratedDriver(String name) {
    if (name == null) {
      return null;
    }
    return switch (name) {
      case "kubernetes.io/aws-ebs" -> "ebs.csi.aws.com";
      case "kubernetes.io/gce-pd" -> "pd.csi.storage.gke.io";
      case "kubernetes.io/azure-disk" -> "disk.csi.azure.com";
      case "kubernetes.io/cinder" -> "cinder.csi.openstack.org";
      default -> name;
    };
  }

  /** Whether its node affinity lets {@code node} reach it (no affinity: every node). */
  public boolean reachableFrom(Node node) {
    if (nodeAffinity.isEmpty()) {
      return true;
    }
    for (int i = 0, n = nodeAffinity.size(); i < n; i++) {
      if (nodeAffinity.get(i).matches(node)) {
        return true;
      }
    }
    return false;
  }

  /** Whether its {@code claimRef} names {@code claim}. */
  public boolean reservedFor(VolumeClaim claim) {
    return claimName != null && claimName.equals(claim.name()) && claim.namespace().equals(claimNamespace);
  }

  /** Whether an unbound claim could bind it: available or pre-bound to that claim, and not being released. */
  public boolean availableFor(VolumeClaim claim) {
    if (claimName != null) {
      return reservedFor(claim);
    }
    return !"Released".equals(phase) && !"Failed".equals(phase);
  }

  /**
   * Whether this PV satisfies {@code claim}'s spec, as the PV controller's matcher checks it: same class, enough
   * capacity, every access mode asked for, same volume mode, the claim's selector (if any) matching its labels.
   */
  public boolean satisfies(VolumeClaim claim) {
    if (!storageClassName.equals(claim.storageClassName()) || capacity < claim.request()
        || !accessModes.containsAll(claim.accessModes()) || !volumeMode.equals(claim.volumeMode())) {
      return false;
    }
    return claim.selector() == null || claim.selector().matches(labels);
  }

  /** This PV bound to {@code claim}. */
  public PersistentVolume boundTo(VolumeClaim claim) {
    return new PersistentVolume(name, storageClassName, capacity, accessModes, volumeMode, nodeAffinity, labels,
        claim.namespace(), claim.name(), "Bound", csiDriver, volumeHandle);
  }
}
