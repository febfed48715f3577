package io.basalt.kube;

import static io.basalt.kube.KubeConverter.emptyToNull;
import static io.basalt.kube.KubeConverter.instant;
import static io.basalt.kube.KubeConverter.isBlank;
import static io.basalt.kube.KubeConverter.namespaceOf;
import static io.basalt.kube.KubeConverter.optionalResources;
import static io.basalt.kube.KubeConverter.resources;
import static io.basalt.kube.KubeConverter.strings;

import io.basalt.kube.KubeConverter.Ctx;
import io.basalt.kube.volcano.V1beta1PodGroup;
import io.basalt.kube.volcano.V1beta1Queue;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Volcano's PodGroup and Queue for {@link KubeConverter}, kept together because both apply Volcano's defaults for
 * unset fields rather than Kubernetes'; callers go through {@link KubeConverter#toPodGroup} and
 * {@link KubeConverter#toQueue}.
 */
final class VolcanoConversion {
  private VolcanoConversion() {}

  static PodGroup toPodGroup(V1beta1PodGroup pg) {
    V1ObjectMeta meta = pg.getMetadata();
    Ctx ctx = Ctx.namespaced("PodGroup", meta);
    V1beta1PodGroup.Spec spec = pg.getSpec() == null ? new V1beta1PodGroup.Spec() : pg.getSpec();
    int minMember = spec.getMinMember() == null ? 1 : spec.getMinMember();
    if (minMember < 0) {
      throw ctx.fail("spec.minMember", "negative value " + minMember);
    }
    Map<String, Integer> minTaskMember = new LinkedHashMap<>();
    if (spec.getMinTaskMember() != null) {
      for (Map.Entry<String, Integer> e : spec.getMinTaskMember().entrySet()) {
        if (e.getValue() == null || e.getValue() < 0) {
          throw ctx.fail("spec.minTaskMember." + e.getKey(), "expected a non-negative count, got " + e.getValue());
        }
        minTaskMember.put(e.getKey(), e.getValue());
      }
    }
    ResourceVector minResources =
        spec.getMinResources() == null ? null : resources(spec.getMinResources(), "spec.minResources", ctx);
    String phase = pg.getStatus() == null || isBlank(pg.getStatus().getPhase()) ? "Pending" : pg.getStatus().getPhase();
    return new PodGroup(namespaceOf(meta), meta.getName(), minMember, minTaskMember,
        isBlank(spec.getQueue()) ? Queue.DEFAULT : spec.getQueue(), emptyToNull(spec.getPriorityClassName()),
        minResources, phase, instant(meta.getCreationTimestamp()));
  }

  static Queue toQueue(V1beta1Queue q) {
    V1ObjectMeta meta = q.getMetadata();
    Ctx ctx = Ctx.clusterScoped("Queue", meta);
    V1beta1Queue.Spec spec = q.getSpec() == null ? new V1beta1Queue.Spec() : q.getSpec();
    int weight = spec.getWeight() == null || spec.getWeight() == 0 ? 1 : spec.getWeight();
    if (weight < 0) {
      throw ctx.fail("spec.weight", "negative value " + weight);
    }
    int priority = spec.getPriority() == null ? 0 : spec.getPriority();
    if (priority < 0) {
      throw ctx.fail("spec.priority", "negative value " + priority);
    }
    ResourceVector guarantee = spec.getGuarantee() == null
        ? null : optionalResources(spec.getGuarantee().getResource(), "spec.guarantee.resource", ctx);
    String state = q.getStatus() == null || isBlank(q.getStatus().getState()) ? "Open" : q.getStatus().getState();
    return new Queue(meta.getName(), weight,
        optionalResources(spec.getCapability(), "spec.capability", ctx),
        guarantee,
        optionalResources(spec.getDeserved(), "spec.deserved", ctx),
        spec.getReclaimable() == null || spec.getReclaimable(),
        priority,
        emptyToNull(spec.getParent()),
        state,
        strings(meta.getAnnotations()));
  }
}
