package io.basalt.kube.kinds.volcano;

import io.basalt.kube.kinds.CustomObjectList;

/** {@code QueueList}, the list type client-java's generic API and informers need for {@link V1beta1Queue}. */
public final class V1beta1QueueList extends CustomObjectList<V1beta1Queue> {
  public static final String KIND = "QueueList";
}
