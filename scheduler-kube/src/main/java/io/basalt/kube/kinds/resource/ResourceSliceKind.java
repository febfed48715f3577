package io.basalt.kube.kinds.resource;

import io.basalt.kube.kinds.Records;

/** {@code resource.k8s.io/v1} ResourceSlice. */
public final class ResourceSliceKind extends ResourceKind<ResourceSliceObject> {
  public ResourceSliceKind() {
    super(ResourceSliceObject.KIND, ResourceSliceObject.PLURAL, ResourceSliceObject.NAMESPACED,
        ResourceSliceObject.class, ResourceSliceObject.List.class);
  }

  @Override
  public void put(ResourceSliceObject o, Records out) {
    out.resourceSlice(new DraJson(kind(), key(o)).slice(o.getMetadata().getName(), o.getSpec()));
  }

  @Override
  void gone(String key, Records.Removals out) {
    out.resourceSliceGone(key);
  }
}
