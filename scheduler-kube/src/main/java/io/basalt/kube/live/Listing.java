package io.basalt.kube.live;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import java.util.List;

/** Every page of one LIST as the reflector takes it: the objects and the resourceVersion to watch from. */
record Listing<T extends KubernetesObject>(V1ListMeta metadata, List<T> items) implements KubernetesListObject {
  @Override
  public V1ListMeta getMetadata() {
    return metadata;
  }

  @Override
  public List<T> getItems() {
    return items;
  }

  @Override
  public String getApiVersion() {
    return null;
  }

  @Override
  public String getKind() {
    return null;
  }
}
