package io.basalt.app.topology;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.basalt.app.cli.KubeClients;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.util.PatchUtils;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@link NodeAnnotator} over client-java. Writes with a JSON merge patch of {@code metadata.annotations} only, so it
 * needs nothing but {@code nodes get, patch} and cannot clobber labels, taints or other annotations.
 */
final class KubeNodeAnnotator implements NodeAnnotator {
  static final String FIELD_MANAGER = "basalt-topology-agent";

  private final ApiClient client;
  private final CoreV1Api api;

  KubeNodeAnnotator(ApiClient client) {
    this.client = client;
    this.api = new CoreV1Api(client);
  }

  /** A client for the cluster found as {@link KubeClients} says: --kubeconfig, in-cluster, $KUBECONFIG, home. */
  static KubeNodeAnnotator connect(Path kubeconfig) throws ClusterException {
    try {
      return new KubeNodeAnnotator(KubeClients.connect(kubeconfig));
    } catch (IOException | RuntimeException e) {
      throw new ClusterException("cannot load the kube config: " + e.getMessage(), e);
    }
  }

  @Override
  public String get(String node, String key) throws ClusterException {
    try {
      V1Node n = api.readNode(node).execute();
      Map<String, String> annotations = n.getMetadata() == null ? null : n.getMetadata().getAnnotations();
      return annotations == null ? null : annotations.get(key);
    } catch (ApiException e) {
      throw failure("GET", node, e);
    } catch (RuntimeException e) {
      throw new ClusterException("GET node " + node + ": unexpected response: " + e.getMessage(), e);
    }
  }

  @Override
  public void set(String node, String key, String value) throws ClusterException {
    JsonObject annotations = new JsonObject();
    annotations.addProperty(key, value);
    JsonObject metadata = new JsonObject();
    metadata.add("annotations", annotations);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    try {
      PatchUtils.patch(V1Node.class,
          () -> api.patchNode(node, new V1Patch(patch.toString())).fieldManager(FIELD_MANAGER).buildCall(null),
          V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    } catch (ApiException e) {
      throw failure("PATCH", node, e);
    } catch (RuntimeException e) {
      throw new ClusterException("PATCH node " + node + ": unexpected response: " + e.getMessage(), e);
    }
  }

  /** The API server's own message (from its Status body) when there is one, else the client's. */
  private static ClusterException failure(String verb, String node, ApiException e) {
    // ApiException's own message spans four lines ("Message: ...\nHTTP response code: 0\n..."): keep the cause.
    String why = e.getCause() != null ? String.valueOf(e.getCause())
        : String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    String body = e.getResponseBody();
    if (body != null && !body.isBlank()) {
      try {
        JsonObject status = JsonParser.parseString(body).getAsJsonObject();
        if (status.has("message")) {
          why = status.get("message").getAsString();
        }
      } catch (JsonParseException | IllegalStateException | UnsupportedOperationException ignored) {
        why = body.strip();
      }
    }
    String code = e.getCode() == 0 ? "" : " (HTTP " + e.getCode() + ")";
    return new ClusterException(verb + " node " + node + code + ": " + why, e);
  }
}
