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
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HAMi's protocol at bind against the fake API server: the node lock HAMi's device plugin finds the pod by is taken
 * before the binding (a merge patch guarded by resourceVersion), stays for the plugin after a successful bind, is
 * released after a failed one, is waited for while another live pod holds it, and is taken over when stale. A failed
 * bind marks no {@code bind-phase: failed}: the annotations ride on the binding, so a refused one leaves none, and one
 * that landed while its answers were lost is read back as bound.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HamiLockContractTest {
  private static final String LOCK = "hami.io/mutex.lock";
  private static final Map<String, String> HAMI = Map.of("basalt.io/gpu-devices", "1",
      "hami.io/vgpu-devices-to-allocate", "GPU-1,NVIDIA,81920,0:;",
      "hami.io/vgpu-devices-allocated", "GPU-1,NVIDIA,81920,0:;", "hami.io/vgpu-node", "n1");

  private FakeApiServer server;
  private ClusterCache cache;
  private KubeBinder binder;
  private final Pod pod = TestPods.pod("ml/p1").gpu(1).build();

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
        + "\"status\":{\"allocatable\":{\"nvidia.com/gpu\":\"4\"}}}");
    server.seed(podJson("p1", pod.uid()));
    cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
    cache.putPod(pod);
    binder = binder(Duration.ofSeconds(10));
  }

  private KubeBinder binder(Duration lockWait) {
    return new KubeBinder(server.apiClient(), KubeBinder.Options.defaults()
        .withRetries(3, Duration.ofMillis(10), Duration.ofMillis(40)).withLockWait(lockWait));
  }

  private static String podJson(String name, String uid) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"uid\":\"" + uid + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}";
  }

  @AfterEach
  void stop() throws InterruptedException {
    binder.close();
    server.close();
  }

  private void bind() throws InterruptedException {
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", HAMI)));
    assertTrue(binder.awaitIdle(Duration.ofSeconds(20)), "binder idle");
  }

  private String lock() {
    JsonObject a = server.get(Resources.NODES, null, "n1").getAsJsonObject("metadata").getAsJsonObject("annotations");
    return a == null || !a.has(LOCK) ? null : a.get(LOCK).getAsString();
  }

  private void setLock(String value) {
    server.mergePatch(Resources.NODES, null, "n1", "{\"metadata\":{\"annotations\":{\"" + LOCK + "\":"
        + (value == null ? "null" : "\"" + value + "\"") + "}}}");
  }

  private Map<String, String> podAnnotations() {
    JsonObject a = server.get(Resources.PODS, "ml", "p1").getAsJsonObject("metadata").getAsJsonObject("annotations");
    Map<String, String> out = new java.util.TreeMap<>();
    if (a == null) {
      return out;
    }
    a.entrySet().forEach(e -> out.put(e.getKey(), e.getValue().getAsString()));
    return out;
  }

  @Test
  void locksTheNodeThenBindsWithHamisAnnotationsAndLeavesTheLockForTheDevicePlugin() throws Exception {
    bind();

    assertEquals(1, binder.counters().bindsOk());
    Map<String, String> a = podAnnotations();
    assertEquals("GPU-1,NVIDIA,81920,0:;", a.get("hami.io/vgpu-devices-to-allocate"));
    assertEquals("GPU-1,NVIDIA,81920,0:;", a.get("hami.io/vgpu-devices-allocated"));
    assertEquals("n1", a.get("hami.io/vgpu-node"));
    assertEquals("allocating", a.get("hami.io/bind-phase"));
    long bindTime = Long.parseLong(a.get("hami.io/bind-time"));
    assertTrue(Math.abs(bindTime - Instant.now().getEpochSecond()) < 60, "Unix seconds");
    assertEquals(a.get("hami.io/bind-time"), a.get("hami.io/vgpu-time"));
    String lock = lock();
    assertTrue(lock.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ,ml,p1"), lock);
    List<RecordedRequest> calls = server.requests(null, "/api/v1/(nodes/n1|namespaces/ml/pods/p1/binding)");
    assertEquals(List.of("GET", "PATCH", "POST"), calls.stream().map(RecordedRequest::method).toList(),
        "read the node, lock it, then bind");
    assertTrue(calls.get(1).body().contains("\"resourceVersion\""), "the lock patch is guarded by resourceVersion");
  }

  @Test
  void aFailedBindReleasesTheLock() throws Exception {
    server.delete(Resources.PODS, "ml", "p1");

    bind();

    assertEquals(1, binder.counters().bindFailures());
    assertNull(lock(), "never a node left locked after a failed bind");
    assertNull(cache.pod(pod.uid()).nodeName(), "pending again");
  }

  @Test
  void aRefusedBindLeavesNothingOfHamisOnThePodSoNoBindPhaseIsMarkedFailed() throws Exception {
    server.faults().failNext(1, 403, "POST", "/api/v1/namespaces/ml/pods/p1/binding");

    bind();

    assertEquals(1, binder.counters().bindFailures());
    assertEquals(Map.of(), podAnnotations(), "the annotations ride on the refused binding: none reached the pod");
    assertEquals(List.of(), server.requests(null, "/api/v1/namespaces/ml/pods/p1").stream()
        .filter(r -> !r.method().equals("GET")).toList(), "no pod write besides the binding");
    assertNull(lock(), "the lock released");
    assertEquals(pod, cache.pod(pod.uid()), "pending again in the cache, without the assumed annotations");
  }

  @Test
  void aBindThatLandedWhileItsAnswersWereLostIsReadBackAsBoundAndKeepsTheLockForTheDevicePlugin() throws Exception {
    binder.close();
    binder = new KubeBinder(server.apiClient(), KubeBinder.Options.defaults()
        .withRetries(2, Duration.ofSeconds(1), Duration.ofSeconds(1))
        .withTimeouts(Duration.ofMillis(150), Duration.ofSeconds(10)));
    // Both attempts time out on the client; the first lands on the server 250 ms after its client gave up.
    server.faults().delayNextMatching(2, Duration.ofMillis(400),
        r -> r.method().equals("POST") && r.path().equals("/api/v1/namespaces/ml/pods/p1/binding"));

    bind();

    assertEquals(2, server.requests("POST", "/api/v1/namespaces/ml/pods/p1/binding").size());
    assertEquals(1, binder.counters().bindsOk(), "read back: bound to our node");
    assertEquals(0, binder.counters().bindFailures());
    assertEquals("n1", server.get(Resources.PODS, "ml", "p1").getAsJsonObject("spec").get("nodeName").getAsString());
    assertEquals("allocating", podAnnotations().get("hami.io/bind-phase"), "the device plugin sets the outcome");
    assertTrue(lock().endsWith(",ml,p1"), "not released under the device plugin about to allocate");
  }

  @Test
  void waitsWhileAnotherLivePodHoldsTheLockAndBindsOnceThePluginReleasesIt() throws Exception {
    server.seed(podJson("other", "other-uid"));
    setLock(Instant.now().toString().replaceAll("\\.\\d+", "") + ",ml,other");
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", HAMI)));
    Thread.sleep(500);
    assertTrue(lock().endsWith(",ml,other"), "not taken from a live holder");
    assertEquals(0, binder.counters().bindsOk());
    setLock(null); // the device plugin allocated for ml/other and released it

    assertTrue(binder.awaitIdle(Duration.ofSeconds(20)));
    assertEquals(1, binder.counters().bindsOk());
    assertTrue(lock().endsWith(",ml,p1"));
  }

  @Test
  void aWaitingBindIsToldOnceWhoHoldsTheLockAndItsGiveUpSaysHowLongItWaited() throws Exception {
    binder.close();
    binder = binder(Duration.ofMillis(1500));
    List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
    binder.onWaiting((p, node, why) -> told.add(p.key() + " " + node + " " + why));
    server.seed(podJson("other", "other-uid"));
    setLock("2026-11-27T10:00:00Z,ml,other".replace("2026-11-27T10:00:00Z",
        Instant.now().toString().replaceAll("\\.\\d+", "")));
    try (io.basalt.testing.LogCapture log = io.basalt.testing.LogCapture.warnings(KubeBinder.class.getName())) {
      bind();
      assertEquals(1, told.size(), "once per bind, not per retry: " + told);
      assertTrue(told.get(0).startsWith("ml/p1 n1 node n1's hami.io/mutex.lock is held by pod ml/other (taken "),
          told.get(0));
      String line = log.messages().stream().filter(m -> m.contains("not bound")).findFirst().orElseThrow();
      assertTrue(line.contains("gave up after waiting 1.5s: node n1's hami.io/mutex.lock is held by pod ml/other"),
          line);
      assertFalse(line.contains("PT1.5S"), "the wait, said as the wait: " + line);
    }
  }

  @Test
  void givesUpAfterTheLockWaitAndLeavesTheHoldersLockAlone() throws Exception {
    binder.close();
    binder = binder(Duration.ofMillis(400));
    server.seed(podJson("other", "other-uid"));
    String held = Instant.now().toString().replaceAll("\\.\\d+", "") + ",ml,other";
    setLock(held);

    bind();

    assertEquals(1, binder.counters().bindFailures());
    assertEquals(held, lock());
    assertFalse(server.requests("POST", "/api/v1/namespaces/ml/pods/p1/binding").size() > 0, "never bound unlocked");
  }

  @Test
  void takesOverAnExpiredLockAndOneWhosePodIsGone() throws Exception {
    setLock(Instant.now().minus(Duration.ofMinutes(10)).toString().replaceAll("\\.\\d+", "") + ",ml,other");
    bind();
    assertEquals(1, binder.counters().bindsOk());
    assertTrue(lock().endsWith(",ml,p1"));
  }

  @Test
  void takesOverTheLockOfAPodThatNoLongerExists() throws Exception {
    setLock(Instant.now().toString().replaceAll("\\.\\d+", "") + ",ml,gone");
    bind();
    assertEquals(1, binder.counters().bindsOk());
    assertTrue(lock().endsWith(",ml,p1"));
  }

  @Test
  void theBasaltProtocolTakesNoLock() throws Exception {
    new Assumptions(cache).bind(binder, List.of(new Binding(pod, "n1", Map.of("basalt.io/gpu-devices", "1"))));
    assertTrue(binder.awaitIdle(Duration.ofSeconds(20)));
    assertEquals(1, binder.counters().bindsOk());
    assertNull(lock());
    assertEquals(0, server.requests("PATCH", "/api/v1/nodes/n1").size());
  }
}
