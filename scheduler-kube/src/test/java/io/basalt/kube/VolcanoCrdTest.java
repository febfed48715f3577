package io.basalt.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpServer;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1PodGroupList;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.kube.kinds.volcano.V1beta1QueueList;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CRD classes work with client-java's own Gson and generic API, as live informers will use them. */
class VolcanoCrdTest {
  private static final String PODGROUP_LIST = """
      {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroupList",
       "metadata": {"resourceVersion": "42"},
       "items": [{
         "apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
         "metadata": {"name": "pytorch-demo", "namespace": "ml", "uid": "9f1e", "resourceVersion": "41",
                      "creationTimestamp": "2024-03-01T08:00:00Z",
                      "ownerReferences": [{"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
                                           "name": "pytorch-demo", "uid": "77aa", "controller": true}]},
         "spec": {"minMember": 8, "minTaskMember": {"master": 1, "worker": 7}, "queue": "research",
                  "priorityClassName": "ml-high",
                  "minResources": {"metax-tech.com/gpu": "64", "cpu": "8", "memory": "32Gi"},
                  "networkTopology": {"mode": "hard", "highestTierAllowed": 1}},
         "status": {"phase": "Inqueue", "running": 0,
                    "conditions": [{"type": "Unschedulable", "status": "True", "transitionID": "a1",
                                    "lastTransitionTime": "2024-03-01T08:00:05Z",
                                    "reason": "NotEnoughResources", "message": "0/8 tasks in gang unschedulable"}]}
       }]}
      """;

  private static final String QUEUE_LIST = """
      {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "QueueList", "metadata": {"resourceVersion": "7"},
       "items": [
         {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": "default"},
          "spec": {"weight": 1, "reclaimable": true},
          "status": {"state": "Open", "allocated": {"cpu": "0", "memory": "0"}}},
         {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": "research"},
          "spec": {"weight": 4, "reclaimable": false, "capability": {"metax-tech.com/gpu": "16"},
                   "guarantee": {"resource": {"metax-tech.com/gpu": "8"}}, "deserved": {"metax-tech.com/gpu": "12"},
                   "priority": 5, "parent": "root", "dequeueStrategy": "traverse",
                   "extendClusters": [{"name": "c1", "weight": 1}]},
          "status": {"state": "Closing", "pending": 1, "inqueue": 2, "reservation": {}}}
       ]}
      """;

  @Test
  void serializesWithVolcanoFieldNames() {
    V1beta1PodGroup pg = new V1beta1PodGroup().apiVersion(V1beta1PodGroup.API_VERSION).kind(V1beta1PodGroup.KIND)
        .metadata(new V1ObjectMeta().name("g").namespace("ml"))
        .spec(new V1beta1PodGroup.Spec().minMember(2).minTaskMember(Map.of("worker", 2)).queue("q")
            .priorityClassName("high").minResources(Map.of("cpu", new Quantity("500m"))))
        .status(new V1beta1PodGroup.Status().phase("Pending").conditions(List.of(
            new V1beta1PodGroup.Condition().type("Scheduled").status("True").transitionID("t1")
                .lastTransitionTime(OffsetDateTime.parse("2024-01-01T00:00:00Z")))));

    JsonObject json = JsonParser.parseString(JSON.serialize(pg)).getAsJsonObject();

    assertEquals("scheduling.volcano.sh/v1beta1", json.get("apiVersion").getAsString());
    JsonObject spec = json.getAsJsonObject("spec");
    assertEquals(2, spec.get("minMember").getAsInt());
    assertEquals(2, spec.getAsJsonObject("minTaskMember").get("worker").getAsInt());
    assertEquals("high", spec.get("priorityClassName").getAsString());
    assertEquals("500m", spec.getAsJsonObject("minResources").get("cpu").getAsString());
    JsonObject condition = json.getAsJsonObject("status").getAsJsonArray("conditions").get(0).getAsJsonObject();
    assertEquals("t1", condition.get("transitionID").getAsString());
    assertTrue(condition.has("lastTransitionTime"));
  }

  @Test
  void clientJavaGsonReadsVolcanoPayloadsIgnoringFieldsNotModelled() {
    V1beta1PodGroupList groups = JSON.deserialize(PODGROUP_LIST, V1beta1PodGroupList.class);
    V1beta1QueueList queues = JSON.deserialize(QUEUE_LIST, V1beta1QueueList.class);

    assertEquals("42", groups.getMetadata().getResourceVersion());
    V1beta1PodGroup pg = groups.getItems().get(0);
    assertEquals("9f1e", pg.getMetadata().getUid());
    assertEquals(Map.of("master", 1, "worker", 7), pg.getSpec().minTaskMember());
    assertEquals(new Quantity("32Gi"), pg.getSpec().minResources().get("memory"));
    assertEquals("NotEnoughResources", pg.getStatus().conditions().get(0).reason());
    assertEquals(2, queues.getItems().size());
    assertEquals(Boolean.FALSE, queues.getItems().get(1).getSpec().reclaimable());
    assertEquals(2, queues.getItems().get(1).getStatus().inqueue());
  }

  @Test
  void genericKubernetesApiListsPodGroupsAndQueues() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    List<String> paths = new ArrayList<>();
    serve(server, "/apis/scheduling.volcano.sh/v1beta1/namespaces/ml/podgroups", PODGROUP_LIST, paths);
    serve(server, "/apis/scheduling.volcano.sh/v1beta1/queues", QUEUE_LIST, paths);
    server.start();
    try {
      ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
      GenericKubernetesApi<V1beta1PodGroup, V1beta1PodGroupList> pgApi = new GenericKubernetesApi<>(
          V1beta1PodGroup.class, V1beta1PodGroupList.class, V1beta1PodGroup.GROUP, V1beta1PodGroup.VERSION,
          V1beta1PodGroup.PLURAL, client);
      GenericKubernetesApi<V1beta1Queue, V1beta1QueueList> queueApi = new GenericKubernetesApi<>(
          V1beta1Queue.class, V1beta1QueueList.class, V1beta1Queue.GROUP, V1beta1Queue.VERSION,
          V1beta1Queue.PLURAL, client);

      KubernetesApiResponse<V1beta1PodGroupList> pgs = pgApi.list("ml");
      KubernetesApiResponse<V1beta1QueueList> qs = queueApi.list();

      assertTrue(pgs.isSuccess(), () -> "status " + pgs.getHttpStatusCode() + " " + pgs.getStatus());
      assertTrue(qs.isSuccess(), () -> "status " + qs.getHttpStatusCode() + " " + qs.getStatus());
      assertEquals(List.of("/apis/scheduling.volcano.sh/v1beta1/namespaces/ml/podgroups",
          "/apis/scheduling.volcano.sh/v1beta1/queues"), paths);

      PodGroup g = KubeConverter.toPodGroup(pgs.getObject().getItems().get(0));
      assertEquals("ml/pytorch-demo", g.key());
      assertEquals(8, g.minMember());
      assertEquals(64, g.minResources().get("metax-tech.com/gpu"));
      assertEquals(32L << 30, g.minResources().get("memory"));
      assertEquals("Inqueue", g.phase());

      List<Queue> queues = qs.getObject().getItems().stream().map(KubeConverter::toQueue).toList();
      assertEquals(Queue.implicitDefault("default"), queues.get(0));
      Queue research = queues.get(1);
      assertEquals(4, research.weight());
      assertFalse(research.reclaimable());
      assertEquals(16, research.capability().get("metax-tech.com/gpu"));
      assertEquals(8, research.guarantee().get("metax-tech.com/gpu"));
      assertEquals(12, research.deserved().get("metax-tech.com/gpu"));
      assertEquals(5, research.priority());
      assertEquals("root", research.parent());
      assertEquals("Closing", research.state());
      assertNull(research.capability().toMap().get("cpu"), "capability names only the GPU");
    } finally {
      server.stop(0);
    }
  }

  private static void serve(HttpServer server, String path, String body, List<String> seen) {
    server.createContext(path, exchange -> {
      synchronized (seen) {
        seen.add(exchange.getRequestURI().getPath());
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
  }
}
