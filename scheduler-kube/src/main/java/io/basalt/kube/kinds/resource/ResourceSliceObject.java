package io.basalt.kube.kinds.resource;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;

/**
 * A {@code resource.k8s.io/v1} ResourceSlice, its spec and status kept as JSON trees: {@link DraJson} reads the fields Basalt
 * uses, naming the field when one is wrong.
 */
public final class ResourceSliceObject extends CustomObject<ResourceSliceObject, JsonObject, JsonObject> {
  public static final String KIND = "ResourceSlice";
  public static final String PLURAL = "resourceslices";
  static final boolean NAMESPACED = false;

  /** {@code ResourceSliceList}, for client-java's generic API and informers. */
  public static final class List extends CustomObjectList<ResourceSliceObject> {}
}
