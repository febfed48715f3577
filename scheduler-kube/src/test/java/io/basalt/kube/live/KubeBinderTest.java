package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.cache.ClusterCache;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.model.Pod;
import io.basalt.scheduler.Assumptions;
import io.basalt.session.SessionResult.Binding;
import io.basalt.testing.Await;
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Binding against the fake API server: assumption, patch-then-bind, retries, 409s, rollback, no double binds. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubeBinderTest {
  static final Duration WAIT = Duration.ofSeconds(10);
  static final String GPU = "basalt.io/gpu-devices";

  private FakeApiServer server;
  private ClusterCache cache;
  private KubeBinder binder;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
    binder = new KubeBinder(server.apiClient(), KubeBinder.Options.defaults()
        .withRetries(3, Duration.ofMillis(10), Duration.ofMillis(40)));
  }

  @AfterEach
  void stop() throws InterruptedException {
    binder.close();
    server.close();
  }

  /** A pending pod on the server and in the cache, with the same uid; {@code node} pre-binds it on the server only. */
  static Pod seedPod(FakeApiServer server, ClusterCache cache, String name, String group, String node) {
    TestPods b = TestPods.pod("ml/" + name).gpu(1).annotation("keep", "me");
    if (group != null) {
      b.group(group);
    }
    Pod pod = b.build();
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"uid\":\"" + pod.uid() + "\",\"annotations\":{\"keep\":\"me\"}},\"spec\":{\"schedulerName\":"
        + "\"basalt-scheduler\"," + (node == null ? "" : "\"nodeName\":\"" + node + "\",")
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
    cache.putPod(pod);
    return pod;
  }

  private Pod seed(String name) {
    return seedPod(server, cache, name, null, null);
  }

  private String serverNode(String name) {
    JsonObject spec = server.get(Resources.PODS, "ml", name).getAsJsonObject("spec");
    return spec.has("nodeName") ? spec.get("nodeName").getAsString() : null;
  }

  private List<RecordedRequest> bindPosts(String name) {
    return server.requests("POST", "/api/v1/namespaces/ml/pods/" + name + "/binding");
  }

  @Test
  void bindsWithTheAnnotationsInOneRequestAndAssumesAtOnce() throws Exception {
    Pod pod = seed("p1");
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of(GPU, "0,1"))));

    Pod assumed = cache.pod(pod.uid());
    assertEquals("n1", assumed.nodeName(), "assumed in the cache before the API answers");
    assertEquals("0,1", assumed.annotations().get(GPU));
    assertEquals("me", assumed.annotations().get("keep"));

    assertTrue(binder.awaitIdle(WAIT));
    assertEquals("n1", serverNode("p1"));
    JsonObject annotations = server.get(Resources.PODS, "ml", "p1").getAsJsonObject("metadata")
        .getAsJsonObject("annotations");
    assertEquals("0,1", annotations.get(GPU).getAsString(), "the binding carried the annotation");
    assertEquals("me", annotations.get("keep").getAsString(), "other annotations stay");

    List<RecordedRequest> sent = server.requests(null, "/api/v1/namespaces/ml/pods/p1(/binding)?");
    assertEquals(List.of("POST"), sent.stream().map(RecordedRequest::method).toList(),
        "no separate patch: the pod is never seen annotated but unbound");
    assertEquals("0,1", sent.get(0).json().getAsJsonObject().getAsJsonObject("metadata")
        .getAsJsonObject("annotations").get(GPU).getAsString());

    KubeBinder.Counters c = binder.counters();
    assertEquals(1, c.bindsOk(), "the Status reply is success");
    assertEquals(0, c.bindFailures());
    assertEquals(0, c.retries());
    assertEquals("n1", cache.pod(pod.uid()).nodeName());
  }

  @Test
  void serverErrorIsRetriedAndBindsOnce() throws Exception {
    Pod pod = seed("p1");
    server.faults().failNext(1, 500, "POST", ".*/pods/p1/binding");
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of(GPU, "3"))));
    assertTrue(binder.awaitIdle(WAIT));

    assertEquals("n1", serverNode("p1"));
    assertEquals(2, bindPosts("p1").size());
    assertEquals(0, server.requests("PATCH", ".*").size());
    assertEquals(1, binder.counters().bindsOk());
    assertEquals(1, binder.counters().retries());
  }

  @Test
  void conflictWithThePodOnOurNodeIsSuccess() throws Exception {
    Pod pod = seedPod(server, cache, "p1", null, "n1");
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of())));
    assertTrue(binder.awaitIdle(WAIT));

    assertEquals(1, bindPosts("p1").size());
    assertEquals(1, binder.counters().bindsOk());
    assertEquals(0, binder.counters().bindFailures());
    assertEquals("n1", cache.pod(pod.uid()).nodeName(), "the assumption stays");
  }

  @Test
  void conflictWithThePodElsewhereIsALostRaceAndRollsBack() throws Exception {
    Pod pod = seedPod(server, cache, "p1", null, "n2");
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of(GPU, "0"))));
    assertTrue(binder.awaitIdle(WAIT));

    assertEquals(1, bindPosts("p1").size(), "a lost race is not retried");
    assertEquals("n2", serverNode("p1"));
    assertEquals(pod, cache.pod(pod.uid()), "back to the original pending pod");
    assertEquals(1, binder.counters().lostRaces());
    assertEquals(1, binder.counters().bindFailures());
  }

  @Test
  void finalFailureRollsTheAssumptionBack() throws Exception {
    Pod pod = seed("p1");
    server.faults().failNext(10, 503, "POST", ".*/pods/p1/binding");
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of(GPU, "0"))));
    assertTrue(binder.awaitIdle(WAIT));

    assertEquals(3, bindPosts("p1").size(), "maxAttempts");
    Pod now = cache.pod(pod.uid());
    assertNull(now.nodeName());
    assertFalse(now.annotations().containsKey(GPU));
    assertEquals(1, binder.counters().bindFailures());
    assertNull(serverNode("p1"));
  }

  @Test
  void notRetryableFailureGivesUpAtOnce() throws Exception {
    Pod pod = seed("p1");
    server.faults().failNext(1, 403, "POST", ".*/pods/p1/binding");
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of())));
    assertTrue(binder.awaitIdle(WAIT));
    assertEquals(1, bindPosts("p1").size());
    assertNull(cache.pod(pod.uid()).nodeName());
  }

  @Test
  void rollbackLeavesWhatTheInformerReported() throws Exception {
    Pod pod = seed("p1");
    server.faults().failNext(10, 503, "POST", ".*/pods/p1/binding");
    try (KubeBinder slow = new KubeBinder(server.apiClient(), KubeBinder.Options.defaults()
        .withRetries(2, Duration.ofMillis(400), Duration.ofMillis(400)))) {
      new Assumptions(cache).bind(slow, List.of(new Binding(pod, "n1", Map.of())));
      Await.until("the first attempt", WAIT, () -> bindPosts("p1").size() == 1);
      cache.putPod(pod.withNodeName("n7")); // the informer reports it elsewhere while the retry waits
      assertTrue(slow.awaitIdle(WAIT));
      assertEquals(1, slow.counters().bindFailures());
    }
    assertEquals("n7", cache.pod(pod.uid()).nodeName(), "the informer's word wins over the rollback");
  }

  @Test
  void samePodRequestedTwiceIsBoundOnce() throws Exception {
    Pod pod = seed("p1");
    server.faults().delayNextMatching(1, Duration.ofMillis(300), r -> r.path().endsWith("/p1/binding"));
    Binding b = new Binding(pod, "n1", Map.of());
    new Assumptions(cache).bind(binder, List.of(b, b));
    assertTrue(binder.bindInFlight(pod.uid()));
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n2", Map.of())));
    assertTrue(binder.awaitIdle(WAIT));
    new Assumptions(cache).bind(binder, List.of(b));
    assertTrue(binder.awaitIdle(WAIT));

    assertEquals(1, bindPosts("p1").size());
    assertEquals("n1", serverNode("p1"));
    assertFalse(binder.bindInFlight(pod.uid()));
  }

  @Test
  void gangMembersBindConcurrentlyAndAFailedOneReturnsToPending() throws Exception {
    Pod a = seedPod(server, cache, "a", "g", null);
    Pod b = seedPod(server, cache, "b", "g", null);
    Pod c = seedPod(server, cache, "c", "g", null);
    server.faults().delayNextMatching(1, Duration.ofMillis(1_000), r -> r.path().endsWith("/pods/a/binding"));
    server.faults().failNext(10, 500, "POST", ".*/pods/b/binding");
    new Assumptions(cache).bind(binder, List.of(new Binding(a, "n1", Map.of()), new Binding(b, "n1", Map.of()),
        new Binding(c, "n2", Map.of())));
    Await.until("c bound and b given up while a is still held", Duration.ofMillis(800),
        () -> "n2".equals(serverNode("c")) && binder.counters().bindFailures() == 1);
    assertNull(serverNode("a"), "members are bound concurrently, not one after another");
    assertTrue(binder.awaitIdle(WAIT));

    assertEquals("n1", serverNode("a"));
    assertEquals("n2", serverNode("c"));
    assertNull(serverNode("b"));
    assertEquals("n1", cache.pod(a.uid()).nodeName(), "bound members stay bound");
    assertEquals("n2", cache.pod(c.uid()).nodeName());
    assertNull(cache.pod(b.uid()).nodeName(), "the failed member is pending for the next cycle");
    assertEquals(2, binder.counters().bindsOk());
    assertEquals(1, binder.counters().bindFailures());
  }
}
