package io.basalt.app.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/** client-java against the shared fake API server: the GET, the merge PATCH, and API errors. */
class KubeNodeAnnotatorTest {
  private static final String KEY = GpuAnnotations.TOPOLOGY;

  /** A Node labelled with its hostname, as a kubelet registers it, with {@code annotations} (a JSON object). */
  static String node(String name, String annotations) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":"
        + "{\"kubernetes.io/hostname\":\"" + name + "\"},\"annotations\":" + annotations + "}}";
  }

  /** The node's metadata as the server stores it. */
  static JsonObject metadata(FakeApiServer server, String node) {
    return server.get(Resources.NODES, null, node).getAsJsonObject("metadata");
  }

  /** One annotation of the stored node, or null. */
  static String annotation(FakeApiServer server, String node, String key) {
    JsonObject annotations = metadata(server, node).getAsJsonObject("annotations");
    return annotations == null || !annotations.has(key) ? null : annotations.get(key).getAsString();
  }

  @Test
  void getsThenMergePatchesOnlyTheOneAnnotation() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", "{\"node.alpha.kubernetes.io/ttl\":\"0\"}"));
      KubeNodeAnnotator nodes = new KubeNodeAnnotator(server.apiClient());

      assertNull(nodes.get("gpu-1", KEY));
      nodes.set("gpu-1", KEY, "{\"devices\":[],\"links\":[]}");
      assertEquals("{\"devices\":[],\"links\":[]}", nodes.get("gpu-1", KEY));

      List<RecordedRequest> r = server.requests();
      assertEquals(3, r.size(), r.toString());
      assertEquals("GET", r.get(0).method());
      assertEquals("/api/v1/nodes/gpu-1", r.get(0).path());
      RecordedRequest patch = r.get(1);
      assertEquals("PATCH", patch.method());
      assertEquals("/api/v1/nodes/gpu-1", patch.path());
      assertTrue(patch.contentType().startsWith("application/merge-patch+json"), patch.contentType());
      assertEquals(KubeNodeAnnotator.FIELD_MANAGER, patch.queryParam("fieldManager"));
      JsonObject expected = JsonParser.parseString(
          "{\"metadata\":{\"annotations\":{\"basalt.io/gpu-topology\":\"{\\\"devices\\\":[],\\\"links\\\":[]}\"}}}")
          .getAsJsonObject();
      assertEquals(expected, JsonParser.parseString(patch.body()));
      assertEquals("GET", r.get(2).method());
      assertEquals("/api/v1/nodes/gpu-1", r.get(2).path());

      JsonObject stored = metadata(server, "gpu-1");
      assertEquals(JsonParser.parseString("{\"node.alpha.kubernetes.io/ttl\":\"0\","
          + "\"basalt.io/gpu-topology\":\"{\\\"devices\\\":[],\\\"links\\\":[]}\"}"), stored.get("annotations"),
          "other annotations untouched");
      assertEquals(JsonParser.parseString("{\"kubernetes.io/hostname\":\"gpu-1\"}"), stored.get("labels"),
          "labels untouched");
    }
  }

  @Test
  void apiErrorsCarryTheServersMessage() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", "{}"));
      KubeNodeAnnotator nodes = new KubeNodeAnnotator(server.apiClient());
      ClusterException missing = assertThrows(ClusterException.class, () -> nodes.get("gpu-9", KEY));
      assertEquals("GET node gpu-9 (HTTP 404): nodes \"gpu-9\" not found", missing.getMessage());

      server.faults().failNextMatching(Integer.MAX_VALUE, 403, r -> true);
      ClusterException denied = assertThrows(ClusterException.class, () -> nodes.set("gpu-1", KEY, "{}"));
      // The Status message the server sent for the injected 403, verbatim.
      assertEquals("PATCH node gpu-1 (HTTP 403): fake API server: injected HTTP 403", denied.getMessage());
      assertEquals(1, server.requests("PATCH", "/api/v1/nodes/gpu-1").size());
      assertNull(annotation(server, "gpu-1", KEY), "a denied patch wrote nothing");
    }
  }

  @Test
  void noServerIsAClusterError() throws Exception {
    String url;
    try (FakeApiServer server = FakeApiServer.start()) {
      url = server.baseUrl();
    }
    KubeNodeAnnotator nodes = new KubeNodeAnnotator(new ApiClient().setBasePath(url));
    ClusterException e = assertThrows(ClusterException.class, () -> nodes.get("gpu-1", KEY));
    assertTrue(e.getMessage().startsWith("GET node gpu-1: "), e.getMessage());
  }
}
