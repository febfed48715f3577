package io.basalt.kube.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.util.PatchUtils;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The other served kinds: nodes, namespaces, events (both groups), priority classes, and discovery. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KindsTest {
  private FakeApiServer server;
  private ApiClient client;
  private CoreV1Api core;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    client = server.apiClient();
    core = new CoreV1Api(client);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void seededNodeKeepsStatusAndTakesStatusPatches() throws Exception {
    V1Node node = server.seed(new V1Node().metadata(new V1ObjectMeta().name("n1").labels(Map.of("gpu", "a100")))
        .status(new V1NodeStatus().allocatable(Map.of("nvidia.com/gpu", Quantity.fromString("8")))
            .addConditionsItem(new V1NodeCondition().type("Ready").status("True"))));
    assertEquals("Node", node.getKind());
    assertNotNull(node.getMetadata().getResourceVersion());

    V1Node patched = PatchUtils.patch(V1Node.class, () -> core.patchNodeStatus("n1", new V1Patch(
        "{\"status\":{\"conditions\":[{\"type\":\"MemoryPressure\",\"status\":\"False\"}]}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);
    assertEquals(List.of("Ready", "MemoryPressure"),
        patched.getStatus().getConditions().stream().map(V1NodeCondition::getType).toList());
    assertEquals("8", patched.getStatus().getAllocatable().get("nvidia.com/gpu").toSuffixedString());
    assertEquals(List.of("n1"), core.listNode().labelSelector("gpu=a100").execute().getItems().stream()
        .map(n -> n.getMetadata().getName()).toList());
  }

  @Test
  void namespacesAreClusterScopedAndDeleteReturnsTheNamespace() throws Exception {
    V1Namespace ns = core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("ml"))).execute();
    assertEquals("Active", ns.getStatus().getPhase());
    assertEquals(List.of("kubernetes"), ns.getSpec().getFinalizers());
    assertNull(ns.getMetadata().getNamespace());
    try (Response r = client.getHttpClient().newCall(new Request.Builder().delete()
        .url(server.baseUrl() + "/api/v1/namespaces/ml").build()).execute()) {
      assertEquals(200, r.code());
      assertEquals("Namespace", Json.parseObject(r.body().string()).get("kind").getAsString());
    }
  }

  @Test
  void eventsInBothGroups() throws Exception {
    OffsetDateTime now = OffsetDateTime.parse("2025-01-01T00:00:00Z");
    core.createNamespacedEvent("ml", new CoreV1Event().metadata(new V1ObjectMeta().name("p1.1"))
        .involvedObject(new V1ObjectReference().kind("Pod").name("p1").namespace("ml"))
        .reason("FailedScheduling").type("Warning").message("0/3 nodes are available").firstTimestamp(now))
        .execute();
    EventsV1Api events = new EventsV1Api(client);
    events.createNamespacedEvent("ml", new EventsV1Event().metadata(new V1ObjectMeta().name("p1.2"))
        .eventTime(now).reportingController("basalt").reportingInstance("basalt-0").action("Binding")
        .reason("Scheduled").type("Normal").regarding(new V1ObjectReference().kind("Pod").name("p1"))).execute();

    assertEquals(1, core.listNamespacedEvent("ml").fieldSelector("involvedObject.name=p1,reason=FailedScheduling")
        .execute().getItems().size());
    assertEquals("Scheduled", events.listNamespacedEvent("ml").fieldSelector("regarding.name=p1").execute()
        .getItems().get(0).getReason());
    RecordedRequest sent = server.requests("POST", "/apis/events.k8s.io/v1/namespaces/ml/events").get(0);
    assertEquals("basalt", sent.json().getAsJsonObject().get("reportingController").getAsString());
  }

  @Test
  void priorityClassesAndDiscovery() throws Exception {
    new SchedulingV1Api(client).createPriorityClass(new V1PriorityClass().metadata(new V1ObjectMeta()
        .name("ml-high")).value(1000).globalDefault(false)).execute();
    assertEquals(1000, server.get(Resources.PRIORITY_CLASSES, null, "ml-high").get("value").getAsInt());

    JsonObject groups = getJson("/apis");
    assertEquals("APIGroupList", groups.get("kind").getAsString());
    assertTrue(groups.toString().contains("scheduling.volcano.sh/v1beta1"));
    JsonObject core = getJson("/api/v1");
    assertEquals("APIResourceList", core.get("kind").getAsString());
    assertTrue(core.toString().contains("pods/binding"));
    assertEquals("1", getJson("/version").get("major").getAsString());
  }

  private JsonObject getJson(String path) throws Exception {
    try (Response r = client.getHttpClient().newCall(new Request.Builder().url(server.baseUrl() + path).build())
        .execute()) {
      assertEquals(200, r.code());
      return Json.parseObject(r.body().string());
    }
  }
}
