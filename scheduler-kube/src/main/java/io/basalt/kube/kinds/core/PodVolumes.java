package io.basalt.kube.kinds.core;

import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.model.PodConstraints;
import io.basalt.model.PodVolume;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's claim-backed volumes: {@code spec.volumes[].persistentVolumeClaim.claimName}, and generic ephemeral volumes
 * ({@code spec.volumes[].ephemeral}) as the claim {@code <pod>-<volume>} their controller creates.
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
      }
    }
    return out.isEmpty() ? constraints : constraints.withVolumes(out);
  }
}
