package io.basalt.kube.kinds.resource;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;

/**
 * A {@code resource.k8s.io/v1} ResourceClaimTemplate, its spec and status kept as JSON trees: {@link DraJson} reads the fields Basalt
 * uses, naming the field when one is wrong.
 */
public final class ResourceClaimTemplateObject extends CustomObject<ResourceClaimTemplateObject, JsonObject, JsonObject> {
  public static final String KIND = "ResourceClaimTemplate";
  public static final String PLURAL = "resourceclaimtemplates";
  static final boolean NAMESPACED = true;

  /** {@code ResourceClaimTemplateList}, for client-java's generic API and informers. */
  public static final class List extends CustomObjectList<ResourceClaimTemplateObject> {}
}
