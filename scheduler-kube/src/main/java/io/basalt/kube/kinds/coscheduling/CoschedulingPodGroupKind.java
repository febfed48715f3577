package io.basalt.kube.kinds.coscheduling;

import static io.basalt.kube.kinds.Conversion.instant;
import static io.basalt.kube.kinds.Conversion.namespaceOf;
import static io.basalt.kube.kinds.Conversion.resources;

import io.basalt.kube.gang.CoschedulingGroup;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.ResourceVector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The scheduler-plugins coscheduling PodGroup ({@code scheduling.x-k8s.io/v1alpha1}): not a gang of its own but what
 * gang inference reads for the pods labelled with its name.
 */
public final class CoschedulingPodGroupKind extends KindAdapter<CoschedulingPodGroup> {
  public CoschedulingPodGroupKind() {
    super(CoschedulingPodGroup.GROUP, CoschedulingPodGroup.VERSION, CoschedulingPodGroup.KIND,
        CoschedulingPodGroup.PLURAL, true, CoschedulingPodGroup.class, CoschedulingPodGroup.List.class);
  }

  /** Converts a coscheduling PodGroup: {@code minMember} 1 when unset (0 and negatives are errors). */
  public static CoschedulingGroup toGroup(CoschedulingPodGroup pg) {
    V1ObjectMeta meta = pg.getMetadata();
    Ctx ctx = Ctx.namespaced("PodGroup", meta);
    CoschedulingPodGroup.Spec spec = pg.getSpec() == null ? new CoschedulingPodGroup.Spec() : pg.getSpec();
    int minMember = spec.minMember() == null ? 1 : spec.minMember();
    if (minMember < 1) {
      throw ctx.fail("spec.minMember", "expected a positive count, got " + minMember);
    }
    Integer timeout = spec.scheduleTimeoutSeconds();
    if (timeout != null && timeout < 0) {
      throw ctx.fail("spec.scheduleTimeoutSeconds", "negative value " + timeout);
    }
    ResourceVector minResources =
        spec.minResources() == null ? null : resources(spec.minResources(), "spec.minResources", ctx);
    return new CoschedulingGroup(namespaceOf(meta), meta.getName(), minMember, minResources, timeout,
        instant(meta.getCreationTimestamp()));
  }


  @Override
  public void put(CoschedulingPodGroup group, Records out) {
    out.coschedulingGroup(toGroup(group));
  }

  @Override
  public void remove(CoschedulingPodGroup group, String key, Records.Removals out) {
    out.coschedulingGroupGone(key);
  }

  @Override
  public String project() {
    return "scheduler-plugins'";
  }

  /** Named apart from Volcano's podgroups, which share the plural. */
  @Override
  public String informerName() {
    return "coscheduling podgroups";
  }
}
