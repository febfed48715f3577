package io.basalt.kube.kinds.resource;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;

/**
 * A {@code resource.k8s.io/v1} DeviceClass, its spec and status kept as JSON trees: {@link DraJson} reads the fields Basalt
 * uses, naming the field when one is wrong.
 */
public final class DeviceClassObject extends CustomObject<DeviceClassObject, JsonObject, JsonObject> {
  public static final String KIND = "DeviceClass";
  public static final String PLURAL = "deviceclasses";
  static final boolean NAMESPACED = false;

  /** {@code DeviceClassList}, for client-java's generic API and informers. */
  public static final class List extends CustomObjectList<DeviceClassObject> {}
}
