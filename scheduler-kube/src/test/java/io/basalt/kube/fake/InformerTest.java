package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.testing.Await;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.CallGenerator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * client-java's SharedInformerFactory against the fake server: a field-selected informer (kube-scheduler's
 * unassigned-pod informer) and the re-list paths after a broken watch and after a 410 Expired.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InformerTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private FakeApiServer server;
  private ApiClient client;
  private CoreV1Api core;
  private SharedInformerFactory factory;
  private final List<String> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    client = server.apiClient();
    core = new CoreV1Api(client);
    factory = new SharedInformerFactory(client);
  }

  @AfterEach
  void stop() {
    factory.stopAllRegisteredInformers();
    server.close();
  }

  /** A pod informer over all namespaces, optionally field-selected, that records ADD/UPDATE/DELETE by name. */
  private SharedIndexInformer<V1Pod> podInformer(String fieldSelector) {
    CallGenerator calls = params -> core.listPodForAllNamespaces().fieldSelector(fieldSelector)
        .resourceVersion(params.resourceVersion).watch(params.watch).timeoutSeconds(params.timeoutSeconds)
        .allowWatchBookmarks(params.watch).buildCall(null);
    SharedIndexInformer<V1Pod> informer = factory.sharedIndexInformerFor(calls, V1Pod.class, V1PodList.class);
    informer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(V1Pod pod) {
        events.add("ADD " + pod.getMetadata().getName());
      }

      @Override
      public void onUpdate(V1Pod before, V1Pod after) {
        events.add("UPDATE " + after.getMetadata().getName());
      }

      @Override
      public void onDelete(V1Pod pod, boolean finalStateUnknown) {
        events.add("DELETE " + pod.getMetadata().getName());
      }
    });
    factory.startAllRegisteredInformers();
    Await.until("informer synced", WAIT, informer::hasSynced);
    assertTrue(server.awaitOpenWatches(Resources.PODS, 1, WAIT), "informer watch open");
    return informer;
  }

  private void bind(String name, String node) throws Exception {
    V1Binding binding = new V1Binding().metadata(new V1ObjectMeta().name(name).namespace("ml"))
        .target(new V1ObjectReference().kind("Node").name(node));
    try (okhttp3.Response r = core.createNamespacedPodBinding(name, "ml", binding).buildCall(null).execute()) {
      assertEquals(201, r.code());
    }
  }

  private static List<String> keys(SharedIndexInformer<V1Pod> informer) {
    return informer.getIndexer().list().stream().map(p -> p.getMetadata().getName()).sorted().toList();
  }

  @Test
  void unassignedPodInformerSeesAddThenDeleteWhenBound() throws Exception {
    server.seed(pod("ml", "already-bound").spec(pod("ml", "x").getSpec().nodeName("n0")));
    SharedIndexInformer<V1Pod> unassigned = podInformer("spec.nodeName=");

    core.createNamespacedPod("ml", pod("ml", "p1")).execute();
    Await.until("ADD p1", WAIT, () -> events.contains("ADD p1"));
    assertEquals(List.of("p1"), keys(unassigned));

    bind("p1", "n1");
    Await.until("DELETE p1", WAIT, () -> events.contains("DELETE p1"));
    assertEquals(List.of(), keys(unassigned));
    assertEquals(List.of("ADD p1", "DELETE p1"), events);

    RecordedRequest watch = server.requests("GET", "/api/v1/pods").stream().filter(RecordedRequest::isWatch)
        .findFirst().orElseThrow();
    assertEquals("spec.nodeName=", watch.queryParam("fieldSelector"));
    assertEquals("true", watch.queryParam("allowWatchBookmarks"));
  }

  @Test
  void droppedWatchMakesTheInformerRelistWithoutLosingAPod() throws Exception {
    SharedIndexInformer<V1Pod> informer = podInformer(null);
    core.createNamespacedPod("ml", pod("ml", "p1")).execute();
    Await.until("ADD p1", WAIT, () -> events.contains("ADD p1"));
    long listsBefore = lists();

    assertEquals(1, server.dropWatches());
    server.seed(pod("ml", "p2"));

    Await.until("p2 in the informer cache", WAIT, () -> keys(informer), k -> k.equals(List.of("p1", "p2")));
    Await.until("a re-list after the broken watch", WAIT, () -> lists() > listsBefore);
    Await.until("the handler told of p2", WAIT, () -> events.contains("ADD p2"));
    assertTrue(server.awaitOpenWatches(Resources.PODS, 1, WAIT), "watch re-established");
  }

  @Test
  void expiredResourceVersionOnReWatchMakesTheInformerRelist() throws Exception {
    SharedIndexInformer<V1Pod> informer = podInformer(null);
    long listsBefore = lists();

    // Hold the informer's next watch so the history is compacted before it asks to resume.
    server.faults().delayNextMatching(1, Duration.ofMillis(500), RecordedRequest::isWatch);
    server.closeWatches();
    server.seed(pod("ml", "missed"));
    server.compactHistory();

    Await.until("the missed pod after a re-list", WAIT, () -> keys(informer), k -> k.equals(List.of("missed")));
    assertTrue(lists() > listsBefore, "410 on the watch led to a new list");
    assertTrue(server.requests("GET", "/api/v1/pods").stream()
        .anyMatch(r -> !r.isWatch() && "".equals(r.queryParam("resourceVersion"))),
        "after 410 Expired the reflector re-lists with resourceVersion unset");
  }

  @Test
  void informerFollowsUpdatesAndDeletes() throws ApiException {
    SharedIndexInformer<V1Pod> informer = podInformer(null);
    core.createNamespacedPod("ml", pod("ml", "p1")).execute();
    server.mergePatch(Resources.PODS, "ml", "p1", "{\"status\":{\"phase\":\"Running\"}}");
    Await.until("Running in cache", WAIT, () -> {
      V1Pod p = informer.getIndexer().getByKey("ml/p1");
      return p != null && "Running".equals(p.getStatus().getPhase());
    });
    core.deleteNamespacedPod("p1", "ml").execute();
    Await.until("DELETE p1", WAIT, () -> events.contains("DELETE p1"));
    assertEquals(List.of("ADD p1", "UPDATE p1", "DELETE p1"), events);
  }

  private long lists() {
    return server.requests("GET", "/api/v1/pods").stream().filter(r -> !r.isWatch()).count();
  }
}
