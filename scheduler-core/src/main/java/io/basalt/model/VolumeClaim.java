package io.basalt.model;

import java.util.List;

/**
 * A PersistentVolumeClaim as the volume filters and the binder read it.
 *
 * @param storageClassName {@code spec.storageClassName}; "" asks for a PV of no class; unset (null) is read as ""
 *     and {@code classUnset} says so, as kube-scheduler reads it until the PV controller gives an unbound claim the
 *     default class ({@link ClusterVolumes#withDefaultClass()})
 * @param volumeName {@code spec.volumeName}, the PV it is bound (or pre-bound) to; null when unbound
 * @param request {@code spec.resources.requests.storage} in bytes (0 when absent)
 * @param volumeMode {@code Filesystem} (the default) or {@code Block}
 * @param selector {@code spec.selector}; null when absent (any PV)
 * @param selectedNode the {@link #SELECTED_NODE} annotation: the node chosen for provisioning; null when absent
 * @param deleting true once a deletion timestamp is set
 * @param classUnset true when {@code spec.storageClassName} is absent (not merely "")
 * @param ownerUid the uid of the claim's controller ({@code metadata.ownerReferences[]} with {@code controller:
 *     true}); null when none. A generic ephemeral volume's claim must be controlled by its pod.
 */
public record VolumeClaim(
    String namespace,
    String name,
    String uid,
    String storageClassName,
    String volumeName,
    List<String> accessModes,
    long request,
    String volumeMode,
    LabelSelector selector,
    String selectedNode,
    String phase,
    boolean deleting,
    boolean classUnset,
    String ownerUid) {
  /** The annotation that asks a provisioner to provision a claim on a node (kube-scheduler writes it). */
  public static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
  public static final String READ_WRITE_ONCE_POD = "ReadWriteOncePod";
  public static final String FILESYSTEM = "Filesystem";

  public VolumeClaim {
    storageClassName = storageClassName == null ? "" : storageClassName;
    volumeName = volumeName == null || volumeName.isEmpty() ? null : volumeName;
    accessModes = accessModes == null ? List.of() : List.copyOf(accessModes);
    volumeMode = volumeMode == null || volumeMode.isEmpty() ? FILESYSTEM : volumeMode;
    selectedNode = selectedNode == null || selectedNode.isEmpty() ? null : selectedNode;
  }

  /** A claim controlled by no owner. */
  public VolumeClaim(String namespace, String name, String uid, String storageClassName, String volumeName,
      List<String> accessModes, long request, String volumeMode, LabelSelector selector, String selectedNode,
      String phase, boolean deleting, boolean classUnset) {
    this(namespace, name, uid, storageClassName, volumeName, accessModes, request, volumeMode, selector, selectedNode,
        phase, deleting, classUnset, null);
  }

  /** A claim whose class is unset exactly when {@code storageClassName} is null. */
  public VolumeClaim(String namespace, String name, String uid, String storageClassName, String volumeName,
      List<String> accessModes, long request, String volumeMode, LabelSelector selector, String selectedNode,
      String phase, boolean deleting) {
    this(namespace, name, uid, storageClassName, volumeName, accessModes, request, volumeMode, selector, selectedNode,
        phase, deleting, storageClassName == null);
  }

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }

  public boolean isBound() {
    return volumeName != null;
  }

  /** Whether the pod of {@code podUid} controls this claim (the ephemeral-volume controller created it for it). */
  public boolean controlledBy(String podUid) {
    return ownerUid != null && ownerUid.equals(podUid);
  }

  public boolean readWriteOncePod() {
    return accessModes.contains(READ_WRITE_ONCE_POD);
  }

  /** This claim bound to {@code pv}, as the PV controller leaves it. */
  public VolumeClaim boundTo(String pv) {
    return new VolumeClaim(namespace, name, uid, storageClassName, pv, accessModes, request, volumeMode, selector,
        selectedNode, "Bound", deleting, classUnset, ownerUid);
  }

  /** This claim with the {@link #SELECTED_NODE} annotation set (null removes it). */
  public VolumeClaim withSelectedNode(String node) {
    return new VolumeClaim(namespace, name, uid, storageClassName, volumeName, accessModes, request, volumeMode,
        selector, node, phase, deleting, classUnset, ownerUid);
  }

  /** This claim of class {@code className}, as the PV controller sets it on a claim of no class. */
  public VolumeClaim withStorageClass(String className) {
    return new VolumeClaim(namespace, name, uid, className, volumeName, accessModes, request, volumeMode, selector,
        selectedNode, phase, deleting, false, ownerUid);
  }
}
