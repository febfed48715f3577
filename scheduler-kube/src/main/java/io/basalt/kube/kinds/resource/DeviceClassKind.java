package io.basalt.kube.kinds.resource;

import io.basalt.kube.kinds.Records;

/** {@code resource.k8s.io/v1} DeviceClass. */
public final class DeviceClassKind extends ResourceKind<DeviceClassObject> {
  public DeviceClassKind() {
    super(DeviceClassObject.KIND, DeviceClassObject.PLURAL, DeviceClassObject.NAMESPACED, DeviceClassObject.class,
        DeviceClassObject.List.class);
  }

  @Override
  public void put(DeviceClassObject o, Records out) {
    out.deviceClass(new DraJson(kind(), key(o)).deviceClass(o.getMetadata().getName(), o.getSpec()));
  }

  @Override
  void gone(String key, Records.Removals out) {
    out.deviceClassGone(key);
  }
}
