package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.pod;
import static io.basalt.kube.fake.Fixtures.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Injected failures look like a real server's, are counted down, and are logged like any request. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultInjectionTest {
  private FakeApiServer server;
  private ApiClient client;
  private CoreV1Api core;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    client = server.apiClient();
    core = new CoreV1Api(client);
    server.seed(pod("ml", "p1"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void internalErrorThenSuccess() throws ApiException {
    server.faults().failNext(1, 500, "GET", "/api/v1/namespaces/ml/pods/p1");

    ApiException first = assertThrows(ApiException.class, () -> core.readNamespacedPod("p1", "ml").execute());
    assertEquals(500, first.getCode());
    JsonObject s = status(first);
    assertEquals("InternalError", s.get("reason").getAsString());
    assertTrue(s.get("message").getAsString().startsWith("Internal error occurred: "));
    assertEquals(1, s.getAsJsonObject("details").getAsJsonArray("causes").size());

    V1Pod second = core.readNamespacedPod("p1", "ml").execute();
    assertEquals("p1", second.getMetadata().getName());
    assertEquals(0, server.faults().pending());
    assertEquals(2, server.requests("GET", "/api/v1/namespaces/ml/pods/p1").size(), "both attempts logged");
  }

  @Test
  void throttlingCarriesRetryAfter() throws Exception {
    server.faults().throttleNext(2, "/api/v1/.*", 3);
    for (int i = 0; i < 2; i++) {
      try (Response r = core.readNamespacedPod("p1", "ml").buildCall(null).execute()) {
        assertEquals(429, r.code());
        assertEquals("3", r.header("Retry-After"));
        JsonObject s = Json.parseObject(r.body().string());
        assertEquals("TooManyRequests", s.get("reason").getAsString());
        assertEquals(3, s.getAsJsonObject("details").get("retryAfterSeconds").getAsInt());
      }
    }
    assertEquals("p1", core.readNamespacedPod("p1", "ml").execute().getMetadata().getName());
  }

  @Test
  void injectedConflictOnBindingLeavesThePodUnbound() throws Exception {
    server.faults().failNext(1, 409, "POST", ".*/pods/p1/binding");
    V1Binding binding = new V1Binding().metadata(new V1ObjectMeta().name("p1").namespace("ml"))
        .target(new V1ObjectReference().kind("Node").name("n1"));
    try (Response r = core.createNamespacedPodBinding("p1", "ml", binding).buildCall(null).execute()) {
      assertEquals(409, r.code());
      assertEquals("Conflict", Json.parseObject(r.body().string()).get("reason").getAsString());
    }
    assertTrue(!server.get(Resources.PODS, "ml", "p1").getAsJsonObject("spec").has("nodeName"));
    try (Response r = core.createNamespacedPodBinding("p1", "ml", binding).buildCall(null).execute()) {
      assertEquals(201, r.code());
    }
  }

  @Test
  void latencyAndPredicateRules() throws ApiException {
    server.faults().latency(Duration.ofMillis(150));
    long start = System.nanoTime();
    core.readNamespacedPod("p1", "ml").execute();
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(150));
    server.faults().clear();

    server.faults().failNextMatching(1, 503, r -> r.method().equals("POST") && r.body().contains("\"p2\""));
    ApiException unavailable = assertThrows(ApiException.class,
        () -> core.createNamespacedPod("ml", pod("ml", "p2")).execute());
    assertEquals(503, unavailable.getCode());
    assertEquals("ServiceUnavailable", status(unavailable).get("reason").getAsString());
    core.createNamespacedPod("ml", pod("ml", "p2")).execute();
    assertEquals(List.of("p1", "p2"), server.list(Resources.PODS, "ml").stream().map(Json::name).toList());
  }
}
