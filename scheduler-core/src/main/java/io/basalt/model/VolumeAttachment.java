package io.basalt.model;

/**
 * A VolumeAttachment (storage.k8s.io/v1): the attach/detach controller's record that a CSI volume is, or is being,
 * attached to a node. Attach limits count it even when no pod on the node uses the volume any more (a pod deleted,
 * its volume not yet detached).
 *
 * @param name the object's name
 * @param attacher {@code spec.attacher}, the CSI driver
 * @param nodeName {@code spec.nodeName}
 * @param volumeName {@code spec.source.persistentVolumeName}; null for an in-line volume (not counted)
 */
public record VolumeAttachment(String name, String attacher, String nodeName, String volumeName) {}
