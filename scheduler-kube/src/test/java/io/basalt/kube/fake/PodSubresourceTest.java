package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Eviction;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** pods/binding and pods/eviction answer a v1 Status, as the real registry does. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PodSubresourceTest {
  private FakeApiServer server;
  private ApiClient client;
  private CoreV1Api core;

  @BeforeEach
  void start() throws ApiException {
    server = FakeApiServer.start();
    client = server.apiClient();
    core = new CoreV1Api(client);
    core.createNamespacedPod("ml", pod("ml", "p1")).execute();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static V1Binding binding(String pod, String node) {
    return new V1Binding().apiVersion("v1").kind("Binding")
        .metadata(new V1ObjectMeta().name(pod).namespace("ml").annotations(Map.of("basalt.io/cycle", "7")))
        .target(new V1ObjectReference().apiVersion("v1").kind("Node").name(node));
  }

  /** Sends the call and returns (code, body) without letting client-java read the body as its declared type. */
  private static Object[] raw(Call call) throws Exception {
    try (Response response = call.execute()) {
      return new Object[] {response.code(), Json.parseObject(response.body().string())};
    }
  }

  @Test
  void bindingAnswersCreatedStatusAndSetsNodeName() throws Exception {
    Object[] reply = raw(core.createNamespacedPodBinding("p1", "ml", binding("p1", "n1")).buildCall(null));

    assertEquals(201, reply[0]);
    JsonObject status = (JsonObject) reply[1];
    assertEquals("Status", status.get("kind").getAsString());
    assertEquals("v1", status.get("apiVersion").getAsString());
    assertEquals("Success", status.get("status").getAsString());
    assertEquals(201, status.get("code").getAsInt());
    assertTrue(status.getAsJsonObject("metadata").isEmpty());

    V1Pod bound = core.readNamespacedPod("p1", "ml").execute();
    assertEquals("n1", bound.getSpec().getNodeName());
    assertEquals("7", bound.getMetadata().getAnnotations().get("basalt.io/cycle"));
    assertEquals("PodScheduled", bound.getStatus().getConditions().get(0).getType());
    assertEquals("True", bound.getStatus().getConditions().get(0).getStatus());

    RecordedRequest sent = server.requests("POST", "/api/v1/namespaces/ml/pods/p1/binding").get(0);
    assertEquals("n1", sent.json().getAsJsonObject().getAsJsonObject("target").get("name").getAsString());
  }

  @Test
  void secondBindingIsConflict() throws Exception {
    raw(core.createNamespacedPodBinding("p1", "ml", binding("p1", "n1")).buildCall(null));
    Object[] reply = raw(core.createNamespacedPodBinding("p1", "ml", binding("p1", "n2")).buildCall(null));

    assertEquals(409, reply[0]);
    JsonObject status = (JsonObject) reply[1];
    assertEquals("Failure", status.get("status").getAsString());
    assertEquals("Conflict", status.get("reason").getAsString());
    assertEquals("Operation cannot be fulfilled on pods/binding \"p1\": pod p1 is already assigned to node \"n1\"",
        status.get("message").getAsString());
    assertEquals("pods/binding", status.getAsJsonObject("details").get("kind").getAsString());
    assertEquals("n1", core.readNamespacedPod("p1", "ml").execute().getSpec().getNodeName());
  }

  @Test
  void typedBindingCallFailsToReadTheStatusReplyButThePodIsBound() {
    // kubernetes/kubernetes#80663: the reply is a Status, while createNamespacedPodBinding returns V1Binding.
    assertThrows(RuntimeException.class,
        () -> core.createNamespacedPodBinding("p1", "ml", binding("p1", "n1")).execute());
    assertEquals("n1", server.get(Resources.PODS, "ml", "p1").getAsJsonObject("spec").get("nodeName").getAsString());
  }

  @Test
  void legacyBindingsCollectionAndMissingPod() throws Exception {
    Object[] reply = raw(core.createNamespacedBinding("ml", binding("p1", "n3")).buildCall(null));
    assertEquals(201, reply[0]);
    assertEquals("n3", core.readNamespacedPod("p1", "ml").execute().getSpec().getNodeName());

    Object[] missing = raw(core.createNamespacedPodBinding("ghost", "ml", binding("ghost", "n1")).buildCall(null));
    assertEquals(404, missing[0]);
    assertEquals("pods \"ghost\" not found", ((JsonObject) missing[1]).get("message").getAsString());
  }

  @Test
  void evictionDeletesThePodAndAnswersCreatedStatus() throws Exception {
    V1Eviction eviction = new V1Eviction().apiVersion("policy/v1").kind("Eviction")
        .metadata(new V1ObjectMeta().name("p1").namespace("ml")).deleteOptions(new V1DeleteOptions());
    Object[] reply = raw(core.createNamespacedPodEviction("p1", "ml", eviction).buildCall(null));

    assertEquals(201, reply[0]);
    assertEquals("Success", ((JsonObject) reply[1]).get("status").getAsString());
    assertNull(server.get(Resources.PODS, "ml", "p1"));

    Object[] again = raw(core.createNamespacedPodEviction("p1", "ml", eviction).buildCall(null));
    assertEquals(404, again[0]);
    assertEquals("NotFound", ((JsonObject) again[1]).get("reason").getAsString());
  }

  @Test
  void gracefulServerKeepsEvictedBoundPodTerminatingAndRefusesToBindIt() throws Exception {
    try (FakeApiServer graceful = FakeApiServer.builder().gracefulPodDeletion(true).start()) {
      CoreV1Api api = new CoreV1Api(graceful.apiClient());
      api.createNamespacedPod("ml", pod("ml", "p1")).execute();
      api.createNamespacedPod("ml", pod("ml", "p2")).execute();
      raw(api.createNamespacedPodBinding("p1", "ml", binding("p1", "n1")).buildCall(null));

      V1Eviction eviction = new V1Eviction().metadata(new V1ObjectMeta().name("p1").namespace("ml"));
      assertEquals(201, raw(api.createNamespacedPodEviction("p1", "ml", eviction).buildCall(null))[0]);
      V1Pod terminating = api.readNamespacedPod("p1", "ml").execute();
      assertNotNull(terminating.getMetadata().getDeletionTimestamp());
      assertEquals(30L, terminating.getMetadata().getDeletionGracePeriodSeconds());

      api.deleteNamespacedPod("p1", "ml").gracePeriodSeconds(0).execute();
      assertNull(graceful.get(Resources.PODS, "ml", "p1"));

      graceful.mergePatch(Resources.PODS, "ml", "p2", "{\"metadata\":{\"finalizers\":[\"x/hold\"]}}");
      api.deleteNamespacedPod("p2", "ml").execute();
      Object[] reply = raw(api.createNamespacedPodBinding("p2", "ml", binding("p2", "n1")).buildCall(null));
      assertEquals(409, reply[0]);
      assertTrue(((JsonObject) reply[1]).get("message").getAsString().endsWith(
          "pod p2 is being deleted, cannot be assigned to a host"));
    }
  }
}
