package io.basalt.kube.kinds.volcano;

import io.basalt.kube.kinds.CustomObjectList;

/** {@code PodGroupList}, the list type client-java's generic API and informers need for {@link V1beta1PodGroup}. */
public final class V1beta1PodGroupList extends CustomObjectList<V1beta1PodGroup> {
  public static final String KIND = "PodGroupList";
}
