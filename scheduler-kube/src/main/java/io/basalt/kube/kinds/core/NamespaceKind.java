package io.basalt.kube.kinds.core;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.Namespace;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NamespaceList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * v1 Namespaces: their labels, which pod affinity's namespace selectors match. Read from manifests only; live mode
 * does not watch them (that needs a namespaces list/watch grant the chart does not give yet), so there a namespace
 * has only the label Kubernetes always sets, its name ({@code kubernetes.io/metadata.name}).
 */
public final class NamespaceKind extends KindAdapter<V1Namespace> {
  public NamespaceKind() {
    super("", "v1", "Namespace", "namespaces", false, V1Namespace.class, V1NamespaceList.class);
  }

  @Override
  public void put(V1Namespace namespace, Records out) {
    V1ObjectMeta meta = namespace.getMetadata();
    if (meta == null || meta.getName() == null) {
      return;
    }
    Map<String, String> labels = new HashMap<>();
    if (meta.getLabels() != null) {
      labels.putAll(meta.getLabels());
    }
    // The API server sets it on every namespace; a manifest written by hand may leave it out.
    labels.putIfAbsent(Namespace.NAME_LABEL, meta.getName());
    out.namespace(new Namespace(meta.getName(), labels));
  }

  @Override
  public void remove(V1Namespace namespace, String key, Records.Removals out) {
    out.namespaceGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1Namespace.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.NEVER;
  }
}
