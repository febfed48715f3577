package io.basalt.kube.kinds.resource;

import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.KubeConversionException;
import io.basalt.kube.kinds.Records;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * A DRA kind of {@code resource.k8s.io/v1} (Kubernetes 1.34+), read from manifests and watched through the generic
 * API; a cluster that serves no such kind (older, or the API group off), or a chart that grants no access to it, is
 * skipped with one log line.
 */
abstract class ResourceKind<T extends CustomObject<T, ?, ?>> extends KindAdapter<T> {
  static final String GROUP = "resource.k8s.io";
  static final String VERSION = "v1";

  ResourceKind(String kind, String plural, boolean namespaced, Class<T> type,
      Class<? extends CustomObjectList<T>> listType) {
    super(GROUP, VERSION, kind, plural, namespaced, type, listType);
  }

  /** {@code namespace/name} (or the name of a cluster-scoped object), failing on an object with no name. */
  final String key(T object) {
    V1ObjectMeta meta = object.getMetadata();
    if (meta == null || meta.getName() == null || meta.getName().isEmpty()) {
      throw new KubeConversionException(kind(), "?", "metadata.name", "missing");
    }
    return namespaced() ? namespace(meta) + "/" + meta.getName() : meta.getName();
  }

  static String namespace(V1ObjectMeta meta) {
    return meta.getNamespace() == null || meta.getNamespace().isEmpty() ? "default" : meta.getNamespace();
  }

  /** Built in since Kubernetes 1.34: skipped when not served (404) or not granted (403). */
  @Override
  public Watch watch() {
    return Watch.IF_LISTABLE;
  }

  @Override
  public String project() {
    return "Kubernetes (resource.k8s.io/v1, 1.34+)";
  }

  /** The informer's key of an object that is gone. */
  @Override
  public void remove(T object, String key, Records.Removals out) {
    gone(key, out);
  }

  abstract void gone(String key, Records.Removals out);
}
