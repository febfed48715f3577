package io.basalt.kube.kinds.core;

import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.model.InlineDisk;
import io.basalt.model.PodConstraints;
import io.basalt.model.PodVolume;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's claim-backed volumes: {@code spec.volumes[].persistentVolumeClaim.claimName}, and generic ephemeral volumes
 * ({@code spec.volumes[].ephemeral}) as the claim {@code <pod>-<volume>} their controller creates; and its in-line
 * disks (GCE PD, AWS EBS, iSCSI, RBD), which VolumeRestrictions keeps pods on one node from sharing.
 */
final class PodVolumes {
  private PodVolumes() {}

  /** {@code constraints} with the pod's claim-backed volumes; the same object when it has none. */
  static PodConstraints with(PodConstraints constraints, String podName, V1PodSpec spec, Ctx ctx) {
    List<V1Volume> in = spec.getVolumes();
    if (in == null || in.isEmpty()) {
      return constraints;
    }
    List<PodVolume> out = new ArrayList<>();
    for (int i = 0; i < in.size(); i++) {
      V1Volume v = in.get(i);
      if (v == null) {
        continue;
      }
      if (v.getPersistentVolumeClaim() != null) {
        String claim = v.getPersistentVolumeClaim().getClaimName();
        if (claim == null || claim.isEmpty()) {
          throw ctx.fail("spec.volumes[" + i + "].persistentVolumeClaim.claimName", "missing");
        }
        out.add(new PodVolume(v.getName(), claim, false));
      } else if (v.getEphemeral() != null) {
        if (v.getName() == null || v.getName().isEmpty()) {
          throw ctx.fail("spec.volumes[" + i + "].name", "missing");
        }
        out.add(new PodVolume(v.getName(), PodVolume.ephemeralClaimName(podName, v.getName()), true));
      } else {
        InlineDisk disk = disk(v);
        if (disk != null) {
          out.add(PodVolume.inline(v.getName(), disk));
        }
      }
    }
    return out.isEmpty() ? constraints : constraints.withVolumes(out);
  }

  /** The in-line disk VolumeRestrictions reads, or null for a volume of another kind (or one naming no disk). */
  private static InlineDisk disk(V1Volume v) {
    if (v.getGcePersistentDisk() != null && v.getGcePersistentDisk().getPdName() != null) {
      return new InlineDisk("gce", v.getGcePersistentDisk().getPdName(), null,
          Boolean.TRUE.equals(v.getGcePersistentDisk().getReadOnly()));
    }
    if (v.getAwsElasticBlockStore() != null && v.getAwsElasticBlockStore().getVolumeID() != null) {
      return new InlineDisk("aws", v.getAwsElasticBlockStore().getVolumeID(), null,
          Boolean.TRUE.equals(v.getAwsElasticBlockStore().getReadOnly()));
    }
    if (v.getIscsi() != null && v.getIscsi().getIqn() != null) {
      return new InlineDisk("iscsi", v.getIscsi().getIqn(), null, Boolean.TRUE.equals(v.getIscsi().getReadOnly()));
    }
    if (v.getRbd() != null && v.getRbd().getImage() != null) {
      String pool = v.getRbd().getPool() == null ? "rbd" : v.getRbd().getPool(); // the API server's default
      return new InlineDisk("rbd", pool + "/" + v.getRbd().getImage(), v.getRbd().getMonitors(),
          Boolean.TRUE.equals(v.getRbd().getReadOnly()));
    }
    return null;
  }
}
