package io.basalt.model;

import java.util.List;

/**
 * A disk a pod names in line ({@code spec.volumes[]} of kind {@code gcePersistentDisk}, {@code awsElasticBlockStore},
 * {@code iscsi} or {@code rbd}), which kube-scheduler's VolumeRestrictions keeps two pods on one node from sharing:
 * the same GCE PD or iSCSI target unless both mount it read-only, the same EBS volume always, the same RBD image of
 * the same pool from monitors that overlap unless both are read-only.
 *
 * @param kind {@code gce}, {@code aws}, {@code iscsi} or {@code rbd}
 * @param id the PD name, volume id, IQN, or {@code pool/image}
 * @param monitors an RBD volume's Ceph monitors; empty for the other kinds
 */
public record InlineDisk(String kind, String id, List<String> monitors, boolean readOnly) {
  public InlineDisk {
    monitors = monitors == null ? List.of() : List.copyOf(monitors);
  }

  /** Whether this disk and {@code other}, on one node, conflict as kube-scheduler's VolumeRestrictions says. */
  public boolean conflictsWith(InlineDisk other) {
    if (!kind.equals(other.kind) || !id.equals(other.id)) {
      return false;
    }
    return switch (kind) {
      case "aws" -> true;
      case "rbd" -> !(readOnly && other.readOnly) && monitors.stream().anyMatch(other.monitors::contains);
      default -> !(readOnly && other.readOnly);
    };
  }
}
