package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.ClusterSnapshot;
import io.basalt.api.NodeInfo;
import io.basalt.cache.ClusterCache;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.basalt.testing.Await;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** InformerSource against the fake API server: initial sync, live events, re-lists, missing CRDs, bad objects. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InformerSourceTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String NS = "ml";

  private FakeApiServer server;
  private ApiClient client;
  private CoreV1Api core;
  private ClusterCache cache;
  private InformerSource source;

  @BeforeEach
  void setUp() {
    server = FakeApiServer.start();
    client = server.apiClient();
    core = new CoreV1Api(client);
    cache = new ClusterCache(Set.of("basalt"), "default");
  }

  @AfterEach
  void tearDown() {
    if (source != null) {
      source.close();
    }
    server.close();
  }

  private void startSource() throws Exception {
    source = new InformerSource(client);
    source.start(cache, WAIT);
  }

  // ---- fixtures ----------------------------------------------------------------------------------------------------

  private static V1Node node(String name, String cpu) {
    return new V1Node().metadata(new V1ObjectMeta().name(name)).status(new V1NodeStatus()
        .allocatable(Map.of("cpu", Quantity.fromString(cpu), "memory", Quantity.fromString("64Gi"),
            "pods", Quantity.fromString("110"))));
  }

  private static V1Pod pod(String name, String scheduler, String cpu) {
    return new V1Pod().metadata(new V1ObjectMeta().name(name).namespace(NS))
        .spec(new V1PodSpec().schedulerName(scheduler).addContainersItem(new V1Container().name("main")
            .image("busybox:1.36").resources(new V1ResourceRequirements()
                .requests(Map.of("cpu", Quantity.fromString(cpu))))));
  }

  private static V1Pod running(V1Pod pod, String node) {
    pod.getSpec().setNodeName(node);
    return pod.status(new V1PodStatus().phase("Running"));
  }

  private static V1beta1PodGroup podGroup(String name) {
    V1beta1PodGroup pg = new V1beta1PodGroup();
    pg.setMetadata(new V1ObjectMeta().name(name).namespace(NS));
    pg.setSpec(new V1beta1PodGroup.Spec().minMember(2).queue("research"));
    pg.setStatus(new V1beta1PodGroup.Status().phase("Pending"));
    return pg;
  }

  private static V1beta1Queue queue(String name) {
    V1beta1Queue q = new V1beta1Queue();
    q.setMetadata(new V1ObjectMeta().name(name));
    q.setSpec(new V1beta1Queue.Spec().weight(3));
    return q;
  }

  // ---- reading the cache -------------------------------------------------------------------------------------------

  /** Milli-CPU used on {@code node}, or -1 when the node is not in the snapshot. */
  private long cpuUsed(String node) {
    ClusterSnapshot s = cache.snapshot();
    return s.nodes().stream().filter(n -> n.name().equals(node)).mapToLong(n -> n.used(ResourceNames.CPU))
        .findFirst().orElse(-1);
  }

  private Pod cached(String name) {
    return cache.pods().stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
  }

  private List<String> podNames() {
    return cache.pods().stream().map(Pod::name).sorted().toList();
  }

  // ---- tests -------------------------------------------------------------------------------------------------------

  @Test
  void seededObjectsAreInTheCacheWhenStartReturns() throws Exception {
    server.seed(node("n1", "8"));
    server.seed(node("n2", "8"));
    server.seed(running(pod("foreign", "default-scheduler", "2"), "n1"));
    server.seed(pod("pending", "basalt", "1"));
    V1Pod done = running(pod("done", "basalt", "4"), "n1");
    done.getStatus().setPhase("Succeeded");
    server.seed(done);
    server.seed(podGroup("pg1"));
    server.seed(queue("research"));
    server.seed(new V1PriorityClass().metadata(new V1ObjectMeta().name("high")).value(1000));

    startSource();

    assertTrue(source.hasSynced());
    ClusterSnapshot s = cache.snapshot();
    assertEquals(List.of("n1", "n2"), s.nodes().stream().map(NodeInfo::name).toList());
    assertEquals(2000, cpuUsed("n1"), "the other scheduler's pod counts; the Succeeded pod does not");
    assertEquals(0, cpuUsed("n2"));
    assertEquals(List.of("foreign", "pending"), podNames(), "Succeeded pods are filtered out by the server");
    assertEquals(List.of("pending"), s.pods().stream().map(Pod::name).toList(), "own pods only");
    assertEquals(2, s.podGroups().get("ml/pg1").minMember());
    assertEquals(3, s.queues().get("research").weight());
    assertEquals(1000, s.priorityClasses().get("high").value());
    assertEquals(List.of(), source.warnings());

    Await.until("the pod watch", WAIT, () -> server.requests("GET", "/api/v1/pods").stream()
        .anyMatch(RecordedRequest::isWatch));
    RecordedRequest podWatch = server.requests("GET", "/api/v1/pods").stream().filter(RecordedRequest::isWatch)
        .findFirst().orElseThrow();
    assertEquals(InformerSource.NON_TERMINAL_PODS, podWatch.queryParam("fieldSelector"));
  }

  @Test
  void podLifecycleCreateBindDeleteMovesNodeUsage() throws Exception {
    server.seed(node("n1", "8"));
    startSource();

    core.createNamespacedPod(NS, pod("p1", "basalt", "3")).execute();
    Await.until("p1 pending in the cache", WAIT, () -> cached("p1"), p -> p != null && !p.isAssigned());
    assertEquals(0, cpuUsed("n1"));

    V1Binding binding = new V1Binding().metadata(new V1ObjectMeta().name("p1").namespace(NS))
        .target(new V1ObjectReference().kind("Node").name("n1"));
    try (okhttp3.Response r = core.createNamespacedPodBinding("p1", NS, binding).buildCall(null).execute()) {
      assertEquals(201, r.code()); // the server answers a Status, which the typed call cannot read as a V1Binding
    }
    Await.until("p1 assigned to n1", WAIT, () -> cached("p1"), p -> p != null && "n1".equals(p.nodeName()));
    Await.until("n1 usage includes p1", WAIT, () -> cpuUsed("n1"), used -> used == 3000);

    core.deleteNamespacedPod("p1", NS).execute();
    Await.until("p1 gone", WAIT, () -> cached("p1"), p -> p == null);
    assertEquals(0, cpuUsed("n1"), "deleting the pod frees its node");
  }

  @Test
  void serverSidePatchBindsAndSucceedingReleases() throws Exception {
    server.seed(node("n1", "8"));
    server.seed(pod("p1", "basalt", "2"));
    startSource();

    server.mergePatch(Resources.PODS, NS, "p1", "{\"spec\":{\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\"}}");
    Await.until("n1 usage includes p1", WAIT, () -> cpuUsed("n1"), used -> used == 2000);

    server.mergePatch(Resources.PODS, NS, "p1", "{\"status\":{\"phase\":\"Succeeded\"}}");
    Await.until("the Succeeded pod leaves the cache", WAIT, () -> cached("p1"), p -> p == null);
    assertEquals(0, cpuUsed("n1"));
  }

  @Test
  void podGroupPhaseChangeAndQueueDeleteAreSeen() throws Exception {
    server.seed(podGroup("pg1"));
    server.seed(queue("research"));
    startSource();
    assertEquals("Pending", cache.podGroup("ml/pg1").phase());

    server.mergePatch(Resources.PODGROUPS, NS, "pg1", "{\"status\":{\"phase\":\"Running\"}}");
    Await.until("pg1 Running", WAIT, () -> cache.podGroup("ml/pg1").phase(), "Running"::equals);

    server.delete(Resources.QUEUES, null, "research");
    Await.until("queue removed", WAIT, () -> cache.snapshot().queues().containsKey("research"), in -> !in);
    server.delete(Resources.PODGROUPS, NS, "pg1");
    Await.until("pg1 removed", WAIT, () -> cache.podGroup("ml/pg1") == null);
  }

  @Test
  void missingVolcanoCrdsAreTreatedAsEmpty() throws Exception {
    server.seed(node("n1", "8"));
    server.seed(pod("p1", "basalt", "1"));
    server.seed(podGroup("pg1"));
    server.faults().failNext(2, 404, "GET", "/apis/scheduling\\.volcano\\.sh/.*");

    startSource();

    assertTrue(source.hasSynced());
    assertEquals(1, cache.nodeCount());
    assertEquals(List.of("p1"), podNames());
    assertNull(cache.podGroup("ml/pg1"), "podgroups not watched when the CRD is missing");
    List<String> warnings = source.warnings();
    assertEquals(2, warnings.size(), warnings.toString());
    assertTrue(warnings.stream().anyMatch(w -> w.contains("podgroups")), warnings.toString());
    assertTrue(warnings.stream().anyMatch(w -> w.contains("queues")), warnings.toString());
    assertEquals(2, server.requests("GET", "/apis/scheduling\\.volcano\\.sh/.*").size(), "one probe each, no retries");

    core.createNamespacedPod(NS, pod("p2", "basalt", "1")).execute();
    Await.until("p2 still arrives", WAIT, this::podNames, n -> n.equals(List.of("p1", "p2")));
  }

  @Test
  void jobsTheRoleCannotListAreSkippedAndLoggedOnce() throws Exception {
    server.seed(node("n1", "8"));
    server.faults().failNext(1, 403, "GET", "/apis/batch/v1/jobs");

    startSource();

    assertTrue(source.hasSynced());
    assertEquals(1, cache.nodeCount(), "the other kinds still load");
    List<String> warnings = source.warnings();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("cannot list jobs (HTTP 403): gangs are inferred without reading jobs"),
        warnings.get(0));
    assertEquals(1, server.requests("GET", "/apis/batch/v1/jobs").size(), "probed once, no informer list or watch");
  }

  @Test
  void droppedWatchDoesNotLoseAPodCreatedMeanwhile() throws Exception {
    server.seed(node("n1", "8"));
    startSource();
    assertTrue(server.awaitOpenWatches(Resources.PODS, 1, WAIT), "pod watch open");

    server.dropWatches();
    server.seed(running(pod("p2", "other", "1"), "n1"));

    Await.until("p2 after the re-watch", WAIT, this::podNames, n -> n.equals(List.of("p2")));
    Await.until("n1 usage includes p2", WAIT, () -> cpuUsed("n1"), used -> used == 1000);
    assertTrue(server.awaitOpenWatches(Resources.PODS, 1, WAIT), "watch re-established");
  }

  @Test
  void invalidObjectIsSkippedAndLoggedWhileOthersLoad() throws Exception {
    server.seed(node("n1", "8"));
    server.seed(pod("good", "basalt", "1"));
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"bad\",\"namespace\":\"ml\"},"
        + "\"spec\":{\"schedulerName\":\"basalt\",\"containers\":[{\"name\":\"main\",\"image\":\"busybox\","
        + "\"resources\":{\"requests\":{\"cpu\":\"-1\"}}}]}}");

    startSource();

    assertTrue(source.hasSynced(), "a skipped object does not hold up the sync");
    assertEquals(List.of("good"), podNames());
    List<String> warnings = source.warnings();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("Pod ml/bad") && warnings.get(0).contains("cpu"), warnings.get(0));

    server.mergePatch(Resources.PODS, NS, "bad",
        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"busybox\",\"resources\":{\"requests\":"
            + "{\"cpu\":\"2\"}}}]}}");
    Await.until("the fixed pod loads", WAIT, this::podNames, n -> n.equals(List.of("bad", "good")));
    // The pod reaches the cache a moment before its warning is dropped: wait for both.
    Await.until("its warning dropped", WAIT, source::warnings, List::isEmpty);
  }

  /**
   * Listed pods are built straight from the stream; a page holding one that does not read as a V1Pod (a string where
   * a number belongs) is read again object by object, so only that pod is skipped and named, and the pages before
   * and after it load as streamed.
   */
  @Test
  void aPodThatDoesNotReadIsSkippedAloneFromAStreamedPage() throws Exception {
    server.seed(node("n1", "8"));
    for (String name : List.of("a", "b", "d", "e", "f")) {
      server.seed(pod(name, "basalt", "1"));
    }
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"c\",\"namespace\":\"ml\"},"
        + "\"spec\":{\"schedulerName\":\"basalt\",\"activeDeadlineSeconds\":\"soon\",\"containers\":[{\"name\":"
        + "\"main\",\"image\":\"busybox\"}]}}");

    source = new InformerSource(client).listPageSize(2);
    source.start(cache, WAIT);

    assertEquals(List.of("a", "b", "d", "e", "f"), podNames());
    List<String> warnings = source.warnings();
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("Pod ml/c does not decode"), warnings.get(0));
    List<RecordedRequest> lists = server.requests("GET", "/api/v1/pods").stream()
        .filter(r -> !r.query().contains("watch=true") && r.query().contains("limit=2")).toList();
    assertEquals(4, lists.size(), "three pages, the one holding c asked twice: " + lists);
  }

  @Test
  void stopClosesTheWatchesAndUnsyncsTheProbe() throws Exception {
    startSource();
    assertTrue(server.awaitOpenWatches(Resources.NODES, 1, WAIT));
    source.stop();
    assertFalse(source.hasSynced());
    // The fake notices a closed watch only when it next writes to it, so keep writing node events.
    int[] n = {0};
    Await.until("the node watch closed", WAIT, () -> {
      server.seed(node("late-" + n[0]++, "1"));
      return server.openWatches(Resources.NODES) == 0;
    });
    assertEquals(0, cache.nodeCount(), "no events after stop");
    source.stop();
  }

  @Test
  void startTimesOutNamingTheInformerThatDidNotSync() throws Exception {
    server.faults().failNext(1000, 500, "GET", "/api/v1/nodes.*");
    source = new InformerSource(client);
    TimeoutException e = org.junit.jupiter.api.Assertions.assertThrows(TimeoutException.class,
        () -> source.start(cache, Duration.ofMillis(1500)));
    assertTrue(e.getMessage().contains("[nodes]"), e.getMessage());
    assertFalse(source.hasSynced());
  }
}
