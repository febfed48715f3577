package io.basalt.kube.kinds.core;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NamespaceList;
import java.io.IOException;

/**
 * v1 Namespaces, in manifests only: the engine needs nothing of them, but a cluster dump holds them, so they are
 * checked and counted rather than listed as skipped. Not watched.
 */
public final class NamespaceKind extends KindAdapter<V1Namespace> {
  public NamespaceKind() {
    super("", "v1", "Namespace", "namespaces", false, V1Namespace.class, V1NamespaceList.class);
  }

  @Override
  public void put(V1Namespace namespace, Records out) {}

  @Override
  public void remove(V1Namespace namespace, String key, Records.Removals out) {}

  @Override
  public void check(JsonObject document) throws IOException {
    V1Namespace.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.NEVER;
  }
}
