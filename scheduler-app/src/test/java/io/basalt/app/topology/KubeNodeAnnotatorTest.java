package io.basalt.app.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.app.topology.FakeApiServer.Request;
import io.basalt.gpu.GpuAnnotations;
import java.util.List;
import org.junit.jupiter.api.Test;

/** client-java against a local HTTP server: the GET, the merge PATCH, and API errors. */
class KubeNodeAnnotatorTest {
  private static final String KEY = GpuAnnotations.TOPOLOGY;

  @Test
  void getsThenMergePatchesOnlyTheOneAnnotation() throws Exception {
    try (FakeApiServer server = new FakeApiServer("gpu-1")) {
      server.annotate("node.alpha.kubernetes.io/ttl", "0");
      KubeNodeAnnotator nodes = new KubeNodeAnnotator(server.client());

      assertNull(nodes.get("gpu-1", KEY));
      nodes.set("gpu-1", KEY, "{\"devices\":[],\"links\":[]}");
      assertEquals("{\"devices\":[],\"links\":[]}", nodes.get("gpu-1", KEY));

      List<Request> r = server.requests();
      assertEquals(3, r.size());
      assertEquals("GET", r.get(0).method());
      assertEquals("/api/v1/nodes/gpu-1", r.get(0).path());
      Request patch = r.get(1);
      assertEquals("PATCH", patch.method());
      assertEquals("/api/v1/nodes/gpu-1", patch.path());
      assertTrue(patch.contentType().startsWith("application/merge-patch+json"), patch.contentType());
      JsonObject expected = JsonParser.parseString(
          "{\"metadata\":{\"annotations\":{\"basalt.io/gpu-topology\":\"{\\\"devices\\\":[],\\\"links\\\":[]}\"}}}")
          .getAsJsonObject();
      assertEquals(expected, JsonParser.parseString(patch.body()));
      assertEquals("0", server.annotation("node.alpha.kubernetes.io/ttl"), "other annotations untouched");
    }
  }

  @Test
  void apiErrorsCarryTheServersMessage() throws Exception {
    try (FakeApiServer server = new FakeApiServer("gpu-1")) {
      KubeNodeAnnotator nodes = new KubeNodeAnnotator(server.client());
      ClusterException missing = assertThrows(ClusterException.class, () -> nodes.get("gpu-9", KEY));
      assertEquals("GET node gpu-9 (HTTP 404): nodes \"gpu-9\" not found", missing.getMessage());
      server.fail(403);
      ClusterException denied = assertThrows(ClusterException.class, () -> nodes.set("gpu-1", KEY, "{}"));
      assertTrue(denied.getMessage().startsWith("PATCH node gpu-1 (HTTP 403): nodes \"gpu-1\" is forbidden"),
          denied.getMessage());
    }
  }

  @Test
  void noServerIsAClusterError() throws Exception {
    String url;
    try (FakeApiServer server = new FakeApiServer("gpu-1")) {
      url = server.url();
    }
    KubeNodeAnnotator nodes = new KubeNodeAnnotator(new io.kubernetes.client.openapi.ApiClient().setBasePath(url));
    ClusterException e = assertThrows(ClusterException.class, () -> nodes.get("gpu-1", KEY));
    assertTrue(e.getMessage().startsWith("GET node gpu-1: "), e.getMessage());
  }
}
