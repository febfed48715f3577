package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.Watch;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Watch semantics on the wire: event lines, resume, selector transitions, bookmarks, timeouts, 410, drops. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WatchTest {
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

  private Watch<V1Pod> watch(Call call) throws Exception {
    return Watch.createWatch(client, call, new TypeToken<Watch.Response<V1Pod>>() { }.getType());
  }

  @Test
  void eventLinesHaveTheRealShape() throws Exception {
    server.seed(pod("ml", "p1"));
    Request request = new Request.Builder().url(server.baseUrl() + "/api/v1/namespaces/ml/pods?watch=true").build();
    try (Response response = client.getHttpClient().newCall(request).execute()) {
      assertEquals(200, response.code());
      BufferedReader lines = new BufferedReader(new InputStreamReader(response.body().byteStream(),
          StandardCharsets.UTF_8));
      JsonObject event = Json.parseObject(lines.readLine());
      assertEquals("ADDED", event.get("type").getAsString());
      JsonObject object = event.getAsJsonObject("object");
      assertEquals("Pod", object.get("kind").getAsString(), "watch objects carry kind and apiVersion");
      assertEquals("v1", object.get("apiVersion").getAsString());
      assertEquals("p1", object.getAsJsonObject("metadata").get("name").getAsString());
      server.mergePatch(Resources.PODS, "ml", "p1", "{\"status\":{\"phase\":\"Running\"}}");
      JsonObject modified = Json.parseObject(lines.readLine());
      assertEquals("MODIFIED", modified.get("type").getAsString());
      assertEquals(Long.toString(server.resourceVersion()),
          modified.getAsJsonObject("object").getAsJsonObject("metadata").get("resourceVersion").getAsString());
    }
  }

  @Test
  void resumesFromAResourceVersion() throws Exception {
    V1Pod p1 = server.seed(pod("ml", "p1"));
    server.seed(pod("ml", "p2"));
    server.delete(Resources.PODS, "ml", "p1");
    try (Watch<V1Pod> w = watch(core.listNamespacedPod("ml").watch(true)
        .resourceVersion(p1.getMetadata().getResourceVersion()).buildCall(null))) {
      Watch.Response<V1Pod> first = w.next();
      assertEquals("ADDED", first.type);
      assertEquals("p2", first.object.getMetadata().getName());
      Watch.Response<V1Pod> second = w.next();
      assertEquals("DELETED", second.type);
      assertEquals("p1", second.object.getMetadata().getName());
      assertEquals(Long.toString(server.resourceVersion()), second.object.getMetadata().getResourceVersion());
    }
  }

  @Test
  void fieldSelectedWatchSeesDeletedWhenThePodStopsMatching() throws Exception {
    server.seed(pod("ml", "p1"));
    try (Watch<V1Pod> w = watch(core.listPodForAllNamespaces().fieldSelector("spec.nodeName=").watch(true)
        .buildCall(null))) {
      assertEquals("ADDED", w.next().type);
      server.mergePatch(Resources.PODS, "ml", "p1", "{\"spec\":{\"nodeName\":\"n1\"}}");
      Watch.Response<V1Pod> gone = w.next();
      assertEquals("DELETED", gone.type);
      assertNull(gone.object.getSpec().getNodeName(), "DELETED carries the last matching state");
      assertEquals(Long.toString(server.resourceVersion()), gone.object.getMetadata().getResourceVersion());
      server.mergePatch(Resources.PODS, "ml", "p1", "{\"spec\":{\"nodeName\":null}}");
      assertEquals("ADDED", w.next().type, "matching again is an ADDED");
    }
  }

  @Test
  void tooOldResourceVersionIsAnErrorEventWith410() throws Exception {
    V1Pod p1 = server.seed(pod("ml", "p1"));
    server.seed(pod("ml", "p2"));
    server.compactHistory();
    String old = p1.getMetadata().getResourceVersion();
    try (Watch<V1Pod> w = watch(core.listNamespacedPod("ml").watch(true).resourceVersion(old).buildCall(null))) {
      Watch.Response<V1Pod> error = w.next();
      assertEquals("ERROR", error.type);
      assertEquals(410, error.status.getCode());
      assertEquals("Expired", error.status.getReason());
      assertEquals("Failure", error.status.getStatus());
      assertEquals("too old resource version: " + old + " (" + server.resourceVersion() + ")",
          error.status.getMessage());
      assertFalse(w.hasNext(), "the stream ends after the error");
    }
  }

  /** A raw watch's lines (client-java's reader cannot read a real pod bookmark). */
  private BufferedReader rawWatch(Response response) {
    assertEquals(200, response.code());
    return new BufferedReader(new InputStreamReader(response.body().byteStream(), StandardCharsets.UTF_8));
  }

  private Response rawWatch(String pathAndQuery) throws Exception {
    return client.getHttpClient().newCall(new Request.Builder().url(server.baseUrl() + pathAndQuery).build())
        .execute();
  }

  @Test
  void bookmarksOnlyWhenAllowed() throws Exception {
    try (Response response = rawWatch("/api/v1/namespaces/ml/pods?watch=true&allowWatchBookmarks=true")) {
      BufferedReader lines = rawWatch(response);
      assertTrue(server.awaitOpenWatches(Resources.PODS, 1, Duration.ofSeconds(5)));
      server.seed(pod("ml", "p1"));
      server.sendBookmarks();
      assertEquals("ADDED", Json.parseObject(lines.readLine()).get("type").getAsString());
      // Exactly what kube-apiserver 1.32 sends for pods: Go's zero values of an empty Pod.
      assertEquals("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
          + "{\"resourceVersion\":\"" + server.resourceVersion() + "\"},\"spec\":{\"containers\":null},"
          + "\"status\":{}}}", lines.readLine());
    }
    try (Watch<V1Pod> plain = watch(core.listNamespacedPod("ml").watch(true).resourceVersion(
        Long.toString(server.resourceVersion())).buildCall(null))) {
      assertTrue(server.awaitOpenWatches(Resources.PODS, 1, Duration.ofSeconds(5)));
      server.sendBookmarks();
      server.seed(pod("ml", "p2"));
      assertEquals("ADDED", plain.next().type, "no bookmark without allowWatchBookmarks");
    }
  }

  /** The client-java bug the informers work around (client-java #3439, #4160): its watch rejects that bookmark. */
  @Test
  void clientJavasWatchRejectsARealPodBookmark() throws Exception {
    try (Watch<V1Pod> w = watch(core.listNamespacedPod("ml").watch(true).allowWatchBookmarks(true)
        .buildCall(null))) {
      assertTrue(server.awaitOpenWatches(Resources.PODS, 1, Duration.ofSeconds(5)));
      server.sendBookmarks();
      RuntimeException e = assertThrows(RuntimeException.class, w::next);
      assertTrue(String.valueOf(e.getMessage()).contains("containers"), e.toString());
    }
  }

  @Test
  void sendInitialEventsEndsWithAnnotatedBookmark() throws Exception {
    server.seed(pod("ml", "p1"));
    try (Response response = rawWatch("/api/v1/namespaces/ml/pods?watch=true&allowWatchBookmarks=true"
        + "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan")) {
      BufferedReader lines = rawWatch(response);
      assertEquals("ADDED", Json.parseObject(lines.readLine()).get("type").getAsString());
      JsonObject end = Json.parseObject(lines.readLine());
      assertEquals("BOOKMARK", end.get("type").getAsString());
      assertEquals("true", end.getAsJsonObject("object").getAsJsonObject("metadata").getAsJsonObject("annotations")
          .get("k8s.io/initial-events-end").getAsString());
    }
  }

  @Test
  void timeoutSecondsEndsTheStreamCleanly() throws Exception {
    long start = System.nanoTime();
    try (Watch<V1Pod> w = watch(core.listNamespacedPod("ml").watch(true).timeoutSeconds(1).buildCall(null))) {
      assertFalse(w.hasNext());
    }
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
  }

  @Test
  void droppedWatchIsAnIoErrorForTheClient() throws Exception {
    try (Watch<V1Pod> w = watch(core.listNamespacedPod("ml").watch(true).buildCall(null))) {
      assertTrue(server.awaitOpenWatches(Resources.PODS, 1, Duration.ofSeconds(5)));
      assertEquals(1, server.dropWatches());
      RuntimeException broken = assertThrows(RuntimeException.class, w::hasNext);
      assertTrue(broken.getMessage().contains("IO Exception during hasNext"), broken.getMessage());
    }
    assertEquals(0, server.openWatches());
  }
}
