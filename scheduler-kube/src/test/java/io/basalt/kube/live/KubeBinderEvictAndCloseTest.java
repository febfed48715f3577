package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.cache.ClusterCache;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.model.Pod;
import io.basalt.scheduler.Assumptions;
import io.basalt.session.SessionResult.Binding;
import io.basalt.session.SessionResult.Eviction;
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

/** Evictions (404 fine, 429 retried, refusals rolled back) and close() waiting for in-flight work. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubeBinderEvictAndCloseTest {
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

  private Pod running(String name) {
    Pod pending = KubeBinderTest.seedPod(server, cache, name, null, "n1");
    Pod pod = pending.withNodeName("n1");
    cache.putPod(pod);
    return pod;
  }

  @Test
  void evictionDeletesThePodAndA404IsFine() throws Exception {
    Pod victim = running("v1");
    Pod ghost = TestPods.pod("ml/ghost").onNode("n1").build();
    cache.putPod(ghost);
    new Assumptions(cache).evict(binder,
        List.of(new Eviction(victim, "preempted"), new Eviction(ghost, "preempted")));
    assertTrue(cache.pod(victim.uid()).terminating(), "assumed terminating at once");
    assertTrue(binder.awaitIdle(KubeBinderTest.WAIT));

    assertNull(server.get(Resources.PODS, "ml", "v1"));
    assertEquals(1, server.requests("POST", "/api/v1/namespaces/ml/pods/v1/eviction").size());
    assertEquals("policy/v1", server.requests("POST", ".*/v1/eviction").get(0).json().getAsJsonObject()
        .get("apiVersion").getAsString());
    assertEquals(2, binder.counters().evictionsOk());
    assertEquals(0, binder.counters().evictionsFailed());
  }

  @Test
  void evictionBlockedByABudgetIsRetried() throws Exception {
    Pod victim = running("v1");
    server.faults().failNext(1, 429, "POST", ".*/pods/v1/eviction");
    new Assumptions(cache).evict(binder, List.of(new Eviction(victim, "reclaimed")));
    assertTrue(binder.awaitIdle(KubeBinderTest.WAIT));
    assertEquals(2, server.requests("POST", ".*/pods/v1/eviction").size());
    assertNull(server.get(Resources.PODS, "ml", "v1"));
    assertEquals(1, binder.counters().evictionsOk());
  }

  @Test
  void evictionThatNeverGoesThroughRollsBack() throws Exception {
    Pod victim = running("v1");
    server.faults().failNext(10, 429, "POST", ".*/pods/v1/eviction");
    new Assumptions(cache).evict(binder, List.of(new Eviction(victim, "reclaimed")));
    assertTrue(binder.awaitIdle(KubeBinderTest.WAIT));
    assertEquals(3, server.requests("POST", ".*/pods/v1/eviction").size());
    assertFalse(cache.pod(victim.uid()).terminating(), "the victim runs on as far as the cache knows");
    assertEquals(1, binder.counters().evictionsFailed());
  }

  @Test
  void closeWaitsForInFlightWorkAndThenRefusesMore() throws Exception {
    Pod pod = KubeBinderTest.seedPod(server, cache, "p1", null, null);
    Pod other = KubeBinderTest.seedPod(server, cache, "p2", null, null);
    server.faults().delayNextMatching(1, Duration.ofMillis(500), r -> r.path().endsWith("/p1/binding"));
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of())));
    binder.close();

    assertEquals("n1", server.get(Resources.PODS, "ml", "p1").getAsJsonObject("spec").get("nodeName").getAsString());
    assertEquals(1, binder.counters().bindsOk());
    new Assumptions(cache).bind(binder, List.of(new Binding(other, "n1", Map.of())));
    assertNull(cache.pod(other.uid()).nodeName(), "no assumption after close");
    assertEquals(0, server.requests("POST", ".*/pods/p2/binding").size());
  }

  @Test
  void abortDropsWaitingRetriesAtOnce() throws Exception {
    binder = new KubeBinder(server.apiClient(), KubeBinder.Options.defaults()
        .withRetries(5, Duration.ofMillis(500), Duration.ofMillis(500)));
    Pod pod = KubeBinderTest.seedPod(server, cache, "p1", null, null);
    server.faults().failNext(5, 500, "POST", ".*/p1/binding");
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of())));
    Await.until("the first attempt", Duration.ofSeconds(5),
        () -> server.requests("POST", ".*/pods/p1/binding").size() == 1);
    binder.abort();
    Thread.sleep(1200);
    assertEquals(1, server.requests("POST", ".*/pods/p1/binding").size(), "the retry waiting was dropped");
    binder.close(); // returns at once after an abort
  }
}
