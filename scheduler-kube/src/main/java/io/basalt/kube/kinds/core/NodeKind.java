package io.basalt.kube.kinds.core;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;

/** v1 Nodes. */
public final class NodeKind extends KindAdapter<V1Node> {
  public NodeKind() {
    super("", "v1", "Node", "nodes", false, V1Node.class, V1NodeList.class);
  }

  @Override
  public void put(V1Node node, Records out) {
    out.node(NodeConversion.toNode(node));
  }

  @Override
  public void remove(V1Node node, String key, Records.Removals out) {
    out.nodeGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1Node.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.ALWAYS;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    CoreV1Api core = new CoreV1Api(client);
    return p -> core.listNode().resourceVersion(p.resourceVersion).watch(p.watch).timeoutSeconds(p.timeoutSeconds)
        .allowWatchBookmarks(p.watch).buildCall(null);
  }
}
