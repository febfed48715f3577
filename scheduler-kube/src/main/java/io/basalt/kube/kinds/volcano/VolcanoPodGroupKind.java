package io.basalt.kube.kinds.volcano;

import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;

/** Volcano's {@code scheduling.volcano.sh/v1beta1} PodGroup: a gang as its job controller (or a user) states it. */
public final class VolcanoPodGroupKind extends KindAdapter<V1beta1PodGroup> {
  public VolcanoPodGroupKind() {
    super(V1beta1PodGroup.GROUP, V1beta1PodGroup.VERSION, V1beta1PodGroup.KIND, V1beta1PodGroup.PLURAL, true,
        V1beta1PodGroup.class, V1beta1PodGroupList.class);
  }

  @Override
  public void put(V1beta1PodGroup group, Records out) {
    out.podGroup(VolcanoConversion.toPodGroup(group));
  }

  @Override
  public void remove(V1beta1PodGroup group, String key, Records.Removals out) {
    out.podGroupGone(key);
  }

  @Override
  public String project() {
    return "Volcano";
  }
}
