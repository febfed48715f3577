package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.cache.ClusterCache;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.model.Pod;
import io.basalt.testing.Await;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The informers' watches against a fake server that behaves as a real one does: pod and Job bookmarks whose objects
 * client-java's validation rejects, a history compacted under a broken watch (410), 429 while storage initialises,
 * paginated LISTs. A relist happens only for a reason, and each is counted.
 */
@Timeout(value = 40, unit = TimeUnit.SECONDS)
class InformerWatchTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private FakeApiServer server;
  private InformerSource source;
  private final ClusterCache cache = new ClusterCache(Set.of("basalt"), "default");

  @AfterEach
  void tearDown() {
    if (source != null) {
      source.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static V1Node node(String name) {
    return new V1Node().metadata(new V1ObjectMeta().name(name)).status(new V1NodeStatus()
        .allocatable(Map.of("cpu", Quantity.fromString("8"), "memory", Quantity.fromString("64Gi"),
            "pods", Quantity.fromString("110"))));
  }

  private static V1Pod pod(String name) {
    return new V1Pod().metadata(new V1ObjectMeta().name(name).namespace("ml"))
        .spec(new V1PodSpec().schedulerName("basalt").addContainersItem(new V1Container().name("main")
            .image("busybox:1.36").resources(new V1ResourceRequirements()
                .requests(Map.of("cpu", Quantity.fromString("1"))))));
  }

  private List<String> podNames() {
    return cache.pods().stream().map(Pod::name).sorted().toList();
  }

  /** LIST requests (not watches) on a collection path. */
  private List<RecordedRequest> lists(String path) {
    return server.requests("GET", path).stream().filter(r -> !r.isWatch()).toList();
  }

  private void start() throws Exception {
    source = new InformerSource(server.apiClient());
    source.start(cache, WAIT);
  }

  @Test
  void bookmarksOnPodAndJobWatchesCauseNoRelist() throws Exception {
    server = FakeApiServer.builder().bookmarkEvery(Duration.ofMillis(50)).start();
    server.seed(node("n1"));
    server.seed(pod("p1"));
    start();
    assertTrue(server.awaitOpenWatches(Resources.PODS, 1, WAIT));
    assertTrue(server.awaitOpenWatches(Resources.JOBS, 1, WAIT));
    Thread.sleep(1000); // about 20 bookmarks on every watch

    server.seed(pod("p2"));
    Await.until("p2 arrives on the watch", WAIT, this::podNames, n -> n.equals(List.of("p1", "p2")));
    assertEquals(1, lists("/api/v1/pods").size(), "pods listed once: " + lists("/api/v1/pods"));
    assertEquals(1, lists("/apis/batch/v1/jobs").size() - 1, "Jobs probed and listed once");
    assertEquals(List.of(), source.relists());
    assertTrue(server.requests("GET", "/api/v1/pods").stream().filter(RecordedRequest::isWatch)
        .allMatch(r -> "true".equals(r.queryParam("allowWatchBookmarks"))), "every watch asks for bookmarks");
  }

  @Test
  void aBrokenWatchResumesFromItsResourceVersionWithoutARelist() throws Exception {
    server = FakeApiServer.start();
    server.seed(node("n1"));
    start();
    assertTrue(server.awaitOpenWatches(Resources.PODS, 1, WAIT));
    server.dropWatches();
    server.seed(pod("p1"));
    Await.until("p1 after the re-watch", WAIT, this::podNames, n -> n.equals(List.of("p1")));
    assertEquals(1, lists("/api/v1/pods").size(), "no relist: " + lists("/api/v1/pods"));
    assertEquals(List.of(), source.relists());
  }

  @Test
  void aWatchFromCompactedHistoryRelistsOnceCountedAsExpired() throws Exception {
    server = FakeApiServer.start();
    server.seed(node("n1"));
    server.seed(pod("p1"));
    start();
    assertTrue(server.awaitOpenWatches(Resources.PODS, 1, WAIT));
    // The next pod watch reaches the server only after a write and a compaction: its resourceVersion is gone.
    server.faults().delayNextMatching(1, Duration.ofMillis(700),
        r -> r.isWatch() && r.path().equals("/api/v1/pods"));
    server.dropWatches();
    server.seed(pod("p2"));
    server.delete(Resources.PODS, "ml", "p1");
    server.compactHistory();

    Await.until("p2 in, p1 gone after the relist", WAIT, this::podNames, n -> n.equals(List.of("p2")));
    // Every watch was cut and every kind's history is gone: each relists once, for that reason.
    Await.until("the relist counted", WAIT, source::relists,
        r -> r.contains(new InformerSource.Relist("pods", Relists.EXPIRED, 1)));
    assertTrue(source.relists().stream().allMatch(r -> r.cause().equals(Relists.EXPIRED) && r.count() == 1),
        source.relists().toString());
    assertEquals(2, lists("/api/v1/pods").size());
  }

  @Test
  void a429WhileStorageInitialisesIsWaitedOut() throws Exception {
    server = FakeApiServer.start();
    server.seed(node("n1"));
    server.seed(pod("p1"));
    server.storageInitializing(true);
    source = new InformerSource(server.apiClient());
    CompletableFuture<Void> started = CompletableFuture.runAsync(() -> {
      try {
        source.start(cache, Duration.ofSeconds(20));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Await.until("lists refused", WAIT, () -> lists("/api/v1/pods").size(), n -> n >= 1);
    assertTrue(!source.hasSynced());
    server.storageInitializing(false);
    started.get(15, TimeUnit.SECONDS);
    assertEquals(List.of("p1"), podNames());
    assertEquals(List.of(), source.relists(), "a refused first list is no relist");
  }

  @Test
  void notSyncedWhileKindsAreStillBeingProbed() throws Exception {
    server = FakeApiServer.start();
    server.seed(node("n1"));
    // Probing the Volcano kinds takes a while: no informer is registered yet.
    server.faults().delayNextMatching(1, Duration.ofMillis(1500),
        r -> r.path().equals("/apis/scheduling.volcano.sh/v1beta1/podgroups") && "1".equals(r.queryParam("limit")));
    source = new InformerSource(server.apiClient());
    CompletableFuture<Void> started = CompletableFuture.runAsync(() -> {
      try {
        source.start(cache, WAIT);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Await.until("probing", WAIT, () -> server.requests("GET", "/apis/scheduling.volcano.sh/v1beta1/podgroups")
        .size(), n -> n >= 1);
    assertTrue(!source.hasSynced(), "not synced before any informer listed");
    started.get(15, TimeUnit.SECONDS);
    assertTrue(source.hasSynced());
  }

  @Test
  void listsComeInPagesAndAnExpiredContinueStartsOver() throws Exception {
    server = FakeApiServer.start();
    server.seed(node("n1"));
    for (int i = 0; i < 25; i++) {
      server.seed(pod(String.format("p%02d", i)));
    }
    // The third page's continue token is too old by the time it is used.
    server.faults().delayNextMatching(1, Duration.ofMillis(300),
        r -> r.path().equals("/api/v1/pods") && r.queryParam("continue") != null);
    CompletableFuture.runAsync(() -> {
      Await.until("first page served", WAIT, () -> lists("/api/v1/pods").size(), n -> n >= 2);
      server.seed(pod("late"));
      server.compactHistory();
    });
    source = new InformerSource(server.apiClient()).listPageSize(10);
    source.start(cache, WAIT);

    assertEquals(26, podNames().size(), podNames().toString());
    List<RecordedRequest> lists = lists("/api/v1/pods");
    assertTrue(lists.stream().allMatch(r -> "10".equals(r.queryParam("limit"))), lists.toString());
    assertTrue(lists.size() >= 5, "two pages, then three from the start: " + lists);
  }
}
