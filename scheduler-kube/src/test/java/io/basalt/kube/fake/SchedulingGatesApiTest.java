package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.util.PatchUtils;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Scheduling gates as the real API server treats them: a gated pod is created {@code PodScheduled=False} with reason
 * {@code SchedulingGated}; its binding is a 409 (pkg/registry/core/pod/storage {@code setPodNodeAndMetadata}); an
 * update may remove gates but never add one.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SchedulingGatesApiTest {
  private FakeApiServer server;
  private ApiClient client;
  private CoreV1Api core;

  @BeforeEach
  void start() throws ApiException {
    server = FakeApiServer.start();
    client = server.apiClient();
    core = new CoreV1Api(client);
    V1Pod gated = pod("ml", "g");
    gated.getSpec().schedulingGates(List.of(new V1PodSchedulingGate().name("example.com/quota")));
    core.createNamespacedPod("ml", gated).execute();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static V1Binding binding(String pod, String node) {
    return new V1Binding().apiVersion("v1").kind("Binding").metadata(new V1ObjectMeta().name(pod).namespace("ml"))
        .target(new V1ObjectReference().apiVersion("v1").kind("Node").name(node));
  }

  private Object[] bind(String pod, String node) throws Exception {
    Call call = core.createNamespacedPodBinding(pod, "ml", binding(pod, node)).buildCall(null);
    try (Response response = call.execute()) {
      return new Object[] {response.code(), Json.parseObject(response.body().string())};
    }
  }

  private V1Pod jsonPatch(String name, String patch) throws ApiException {
    return PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPod(name, "ml", new V1Patch(patch))
        .buildCall(null), V1Patch.PATCH_FORMAT_JSON_PATCH, client);
  }

  @Test
  void aGatedPodIsCreatedSchedulingGated() throws ApiException {
    V1PodCondition c = core.readNamespacedPod("g", "ml").execute().getStatus().getConditions().get(0);
    assertEquals("PodScheduled", c.getType());
    assertEquals("False", c.getStatus());
    assertEquals("SchedulingGated", c.getReason());
    assertEquals("Scheduling is blocked due to non-empty scheduling gates", c.getMessage());
    core.createNamespacedPod("ml", pod("ml", "plain")).execute();
    List<V1PodCondition> plain = core.readNamespacedPod("plain", "ml").execute().getStatus().getConditions();
    assertTrue(plain == null || plain.isEmpty(), "no gates, no condition: " + plain);
  }

  @Test
  void bindingAGatedPodIsAConflictAndLeavesItUnbound() throws Exception {
    Object[] reply = bind("g", "n1");
    assertEquals(409, reply[0]);
    JsonObject status = (JsonObject) reply[1];
    assertEquals("Conflict", status.get("reason").getAsString());
    assertEquals("Operation cannot be fulfilled on pods/binding \"g\": pod g has non-empty .spec.schedulingGates",
        status.get("message").getAsString());
    assertNull(core.readNamespacedPod("g", "ml").execute().getSpec().getNodeName());
    assertEquals(1, server.bindLedger().gatedRefusals().size());
    assertTrue(server.bindLedger().applied().isEmpty());
  }

  @Test
  void gatesMayBeRemovedNeverAddedAndAnUngatedPodBinds() throws Exception {
    ApiException added = assertThrows(ApiException.class, () -> jsonPatch("g",
        "[{\"op\":\"add\",\"path\":\"/spec/schedulingGates/-\",\"value\":{\"name\":\"x\"}}]"));
    assertEquals(422, added.getCode());
    assertTrue(Fixtures.status(added).get("message").getAsString().contains(
        "spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'x'"),
        added.getResponseBody());
    jsonPatch("g", "[{\"op\":\"remove\",\"path\":\"/spec/schedulingGates\"}]");
    Object[] reply = bind("g", "n1");
    assertEquals(201, reply[0]);
    V1Pod bound = core.readNamespacedPod("g", "ml").execute();
    assertEquals("n1", bound.getSpec().getNodeName());
    assertEquals("True", bound.getStatus().getConditions().get(0).getStatus(), "PodScheduled=True once bound");
  }
}
