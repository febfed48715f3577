package io.basalt.kube.kinds.volcano;

import static io.basalt.kube.kinds.Conversion.emptyToNull;
import static io.basalt.kube.kinds.Conversion.instant;
import static io.basalt.kube.kinds.Conversion.isBlank;
import static io.basalt.kube.kinds.Conversion.namespaceOf;
import static io.basalt.kube.kinds.Conversion.optionalResources;
import static io.basalt.kube.kinds.Conversion.resources;
import static io.basalt.kube.kinds.Conversion.strings;

import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.model.NetworkTopology;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Volcano's PodGroup and Queue to the model, kept together because both apply Volcano's defaults for unset fields
 * rather than Kubernetes'. Each throws a {@link io.basalt.kube.kinds.KubeConversionException} naming the field it
 * cannot take.
 */
public final class VolcanoConversion {
  private VolcanoConversion() {}

  /**
   * A PodGroup: {@code minMember} 1 when unset, queue {@value Queue#DEFAULT} when unset (the CRD's default),
   * {@code minResources} null when unset, phase Pending when the status has none.
   */
  public static PodGroup toPodGroup(V1beta1PodGroup pg) {
    V1ObjectMeta meta = pg.getMetadata();
    Ctx ctx = Ctx.namespaced("PodGroup", meta);
    V1beta1PodGroup.Spec spec = pg.getSpec() == null ? new V1beta1PodGroup.Spec() : pg.getSpec();
    int minMember = spec.minMember() == null ? 1 : spec.minMember();
    if (minMember < 0) {
      throw ctx.fail("spec.minMember", "negative value " + minMember);
    }
    Map<String, Integer> minTaskMember = new LinkedHashMap<>();
    if (spec.minTaskMember() != null) {
      for (Map.Entry<String, Integer> e : spec.minTaskMember().entrySet()) {
        if (e.getValue() == null || e.getValue() < 0) {
          throw ctx.fail("spec.minTaskMember." + e.getKey(), "expected a non-negative count, got " + e.getValue());
        }
        minTaskMember.put(e.getKey(), e.getValue());
      }
    }
    ResourceVector minResources =
        spec.minResources() == null ? null : resources(spec.minResources(), "spec.minResources", ctx);
    String phase = pg.getStatus() == null || isBlank(pg.getStatus().phase()) ? "Pending" : pg.getStatus().phase();
    return new PodGroup(namespaceOf(meta), meta.getName(), minMember, minTaskMember,
        isBlank(spec.queue()) ? Queue.DEFAULT : spec.queue(), emptyToNull(spec.priorityClassName()),
        minResources, phase, instant(meta.getCreationTimestamp()), null, networkTopology(spec, meta, ctx), null);
  }

  /** {@code spec.networkTopology} and MetaX's group size annotation; null when neither is set. */
  private static NetworkTopology networkTopology(V1beta1PodGroup.Spec spec, V1ObjectMeta meta, Ctx ctx) {
    String size = meta.getAnnotations() == null ? null
        : meta.getAnnotations().get(NetworkTopology.GPU_GROUP_SIZE_ANNOTATION);
    Integer gpus = null;
    if (!isBlank(size)) {
      try {
        gpus = Integer.parseInt(size.trim());
      } catch (NumberFormatException e) {
        gpus = -1;
      }
      if (gpus < 1) {
        throw ctx.fail("metadata.annotations." + NetworkTopology.GPU_GROUP_SIZE_ANNOTATION,
            "expected a positive GPU count, got '" + size + "'");
      }
    }
    V1beta1PodGroup.NetworkTopology t = spec.networkTopology();
    if (t == null) {
      return gpus == null ? null : NetworkTopology.groupSize(gpus);
    }
    NetworkTopology.Mode mode;
    if (isBlank(t.mode()) || "hard".equalsIgnoreCase(t.mode())) {
      mode = NetworkTopology.Mode.HARD;
    } else if ("soft".equalsIgnoreCase(t.mode())) {
      mode = NetworkTopology.Mode.SOFT;
    } else {
      throw ctx.fail("spec.networkTopology.mode", "expected hard or soft, got '" + t.mode() + "'");
    }
    if (t.highestTierAllowed() != null && t.highestTierAllowed() < 1) {
      throw ctx.fail("spec.networkTopology.highestTierAllowed", "expected a tier of 1 or more, got "
          + t.highestTierAllowed());
    }
    return new NetworkTopology(mode, t.highestTierAllowed(), emptyToNull(t.highestTierName()), gpus);
  }

  /**
   * A Queue: weight 1 when unset (or 0, which Go cannot tell from unset), capability / guarantee / deserved null when
   * unset or empty, reclaimable true when unset, priority 0, state Open when the status has none.
   */
  public static Queue toQueue(V1beta1Queue q) {
    V1ObjectMeta meta = q.getMetadata();
    Ctx ctx = Ctx.clusterScoped("Queue", meta);
    V1beta1Queue.Spec spec = q.getSpec() == null ? new V1beta1Queue.Spec() : q.getSpec();
    int weight = spec.weight() == null || spec.weight() == 0 ? 1 : spec.weight();
    if (weight < 0) {
      throw ctx.fail("spec.weight", "negative value " + weight);
    }
    int priority = spec.priority() == null ? 0 : spec.priority();
    if (priority < 0) {
      throw ctx.fail("spec.priority", "negative value " + priority);
    }
    ResourceVector guarantee = spec.guarantee() == null
        ? null : optionalResources(spec.guarantee().resource(), "spec.guarantee.resource", ctx);
    String state = q.getStatus() == null || isBlank(q.getStatus().state()) ? "Open" : q.getStatus().state();
    return new Queue(meta.getName(), weight,
        optionalResources(spec.capability(), "spec.capability", ctx),
        guarantee,
        optionalResources(spec.deserved(), "spec.deserved", ctx),
        spec.reclaimable() == null || spec.reclaimable(),
        priority,
        emptyToNull(spec.parent()),
        state,
        strings(meta.getAnnotations()));
  }
}
