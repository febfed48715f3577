package io.basalt.kube.live;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.basalt.cache.ClusterCache;
import io.basalt.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The list and watch requests {@link InformerSource} makes: paths, the non-terminal field selector on pods, the
 * watch follow-ups from the listed resourceVersion (Volcano HyperNodes, Kubeflow jobs and JobSets too), and a custom
 * kind whose CRD is missing (404) treated as empty.
 * WireMock cannot stream a watch, so each watch is answered with an empty 200 after a short delay (a watch that
 * timed out with no events); the informer then simply watches again.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InformerContractTest {
  @RegisterExtension
  static WireMockExtension wm = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final String PODS = "/api/v1/pods";
  private static final String NODES = "/api/v1/nodes";
  private static final String PRIORITY_CLASSES = "/apis/scheduling.k8s.io/v1/priorityclasses";
  private static final String PODGROUPS = "/apis/scheduling.volcano.sh/v1beta1/podgroups";
  private static final String QUEUES = "/apis/scheduling.volcano.sh/v1beta1/queues";
  private static final String JOBS = "/apis/batch/v1/jobs";
  private static final String COSCHEDULING = "/apis/scheduling.x-k8s.io/v1alpha1/podgroups";
  private static final String HYPERNODES = "/apis/topology.volcano.sh/v1alpha1/hypernodes";
  private static final String PYTORCHJOBS = "/apis/kubeflow.org/v1/pytorchjobs";
  private static final String MPIJOBS = "/apis/kubeflow.org/v1/mpijobs";
  private static final String TFJOBS = "/apis/kubeflow.org/v1/tfjobs";
  private static final String JOBSETS = "/apis/jobset.x-k8s.io/v1alpha2/jobsets";
  /** DRA (resource.k8s.io/v1): built-in kinds, listed through the generic API. */
  private static final List<String> DRA_KINDS = List.of("/apis/resource.k8s.io/v1/deviceclasses",
      "/apis/resource.k8s.io/v1/resourceslices", "/apis/resource.k8s.io/v1/resourceclaims",
      "/apis/resource.k8s.io/v1/resourceclaimtemplates");
  private static final List<String> OWNER_CRDS = List.of(PYTORCHJOBS, MPIJOBS, TFJOBS, JOBSETS);
  private static final String NON_TERMINAL = "status.phase!=Succeeded,status.phase!=Failed";

  private ClusterCache cache;
  private InformerSource source;
  private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord r) {
      logged.add(r);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeEach
  void setUp() {
    cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
    Logger.getLogger(InformerSource.class.getName()).addHandler(capture);
    // a watch that ends without events, as one does at its timeoutSeconds; the delay keeps re-watches slow
    wm.stubFor(get(urlPathMatching("/api.*")).withQueryParam("watch", equalTo("true")).atPriority(1)
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", KubeReplies.JSON).withFixedDelay(300)));
    list(PODS, "PodList", "v1", "{\"metadata\":{\"name\":\"p1\",\"namespace\":\"ml\",\"uid\":\"u-p1\","
        + "\"resourceVersion\":\"11\"},\"spec\":{\"schedulerName\":\"basalt-scheduler\",\"containers\":[{\"name\":"
        + "\"c\",\"image\":\"busybox\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{\"phase\":"
        + "\"Pending\"}}");
    list(NODES, "NodeList", "v1", "{\"metadata\":{\"name\":\"n1\",\"uid\":\"u-n1\",\"resourceVersion\":\"12\"},"
        + "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"64Gi\",\"pods\":\"110\"}}}");
    list(PRIORITY_CLASSES, "PriorityClassList", "scheduling.k8s.io/v1", "{\"metadata\":{\"name\":\"high\","
        + "\"uid\":\"u-high\",\"resourceVersion\":\"13\"},\"value\":1000}");
    list(JOBS, "JobList", "batch/v1", "{\"metadata\":{\"name\":\"train\",\"namespace\":\"ml\",\"uid\":"
        + "\"u-job\",\"resourceVersion\":\"16\",\"annotations\":{\"scheduling.volcano.sh/group-min-member\":\"2\"}}}");
    list(COSCHEDULING, "PodGroupList", "scheduling.x-k8s.io/v1alpha1", null);
    list(HYPERNODES, "HyperNodeList", "topology.volcano.sh/v1alpha1", null);
    list(PYTORCHJOBS, "PyTorchJobList", "kubeflow.org/v1", "{\"apiVersion\":\"kubeflow.org/v1\",\"kind\":"
        + "\"PyTorchJob\",\"metadata\":{\"name\":\"pt\",\"namespace\":\"ml\",\"uid\":\"u-pt\","
        + "\"resourceVersion\":\"17\"},\"spec\":{\"pytorchReplicaSpecs\":{}}}");
    list(MPIJOBS, "MPIJobList", "kubeflow.org/v1", null);
    list(TFJOBS, "TFJobList", "kubeflow.org/v1", null);
    list(JOBSETS, "JobSetList", "jobset.x-k8s.io/v1alpha2", null);
    list("/api/v1/persistentvolumeclaims", "PersistentVolumeClaimList", "v1", null);
    list("/api/v1/persistentvolumes", "PersistentVolumeList", "v1", null);
    list("/apis/storage.k8s.io/v1/storageclasses", "StorageClassList", "storage.k8s.io/v1", null);
    list("/apis/storage.k8s.io/v1/csinodes", "CSINodeList", "storage.k8s.io/v1", null);
    list("/apis/storage.k8s.io/v1/csistoragecapacities", "CSIStorageCapacityList", "storage.k8s.io/v1", null);
    for (String dra : DRA_KINDS) {
      String kind = dra.substring(dra.lastIndexOf('/') + 1);
      list(dra, kind + "List", "resource.k8s.io/v1", null);
    }
    list("/api/v1/resourcequotas", "ResourceQuotaList", "v1", null);
    list("/apis/storage.k8s.io/v1/volumeattachments", "VolumeAttachmentList", "storage.k8s.io/v1", null);
    for (String kueue : List.of("resourceflavors", "clusterqueues", "localqueues", "cohorts",
        "workloadpriorityclasses", "topologies", "admissionchecks", "provisioningrequestconfigs")) {
      list("/apis/kueue.x-k8s.io/v1beta1/" + kueue, "List", "kueue.x-k8s.io/v1beta1", null);
    }
    list("/apis/autoscaling.x-k8s.io/v1beta1/provisioningrequests", "ProvisioningRequestList",
        "autoscaling.x-k8s.io/v1beta1", null);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    if (source != null) {
      source.close();
      // A reflector stopping may send one last list or watch; let it land in this test's journal, not the next's.
      awaitQuiet();
    }
    Logger.getLogger(InformerSource.class.getName()).removeHandler(capture);
  }

  /** A list reply at resourceVersion 100 (typed lists carry no kind/apiVersion on their items). */
  private static void list(String path, String kind, String apiVersion, String item) {
    wm.stubFor(get(urlPathEqualTo(path)).atPriority(5)
        .willReturn(KubeReplies.json(200, "{\"kind\":\"" + kind + "\",\"apiVersion\":\"" + apiVersion + "\","
            + "\"metadata\":{\"resourceVersion\":\"100\"},\"items\":[" + (item == null ? "" : item) + "]}")));
  }

  private static void volcanoLists() {
    // custom resource lists do carry apiVersion and kind on their items
    list(PODGROUPS, "PodGroupList", "scheduling.volcano.sh/v1beta1", "{\"apiVersion\":"
        + "\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"g\",\"namespace\":"
        + "\"ml\",\"uid\":\"u-g\",\"resourceVersion\":\"14\"},\"spec\":{\"minMember\":2,\"queue\":\"team-a\"}}");
    list(QUEUES, "QueueList", "scheduling.volcano.sh/v1beta1", "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\","
        + "\"kind\":\"Queue\",\"metadata\":{\"name\":\"team-a\",\"uid\":\"u-q\",\"resourceVersion\":\"15\"},"
        + "\"spec\":{\"weight\":2}}");
  }

  private void start() throws Exception {
    source = new InformerSource(KubeReplies.client(wm));
    source.start(cache, WAIT);
  }

  /** Until no request reached the server for 300 ms (at most 5 s). */
  private static void awaitQuiet() throws InterruptedException {
    long end = System.nanoTime() + 5_000_000_000L;
    int seen = -1;
    while (System.nanoTime() < end) {
      int now = wm.getAllServeEvents().size();
      if (now == seen) {
        return;
      }
      seen = now;
      Thread.sleep(300);
    }
  }

  private static List<LoggedRequest> requests(String path) {
    return wm.findAll(getRequestedFor(urlPathEqualTo(path)));
  }

  private static List<LoggedRequest> lists(String path) {
    return requests(path).stream().filter(r -> !r.queryParameter("watch").isPresent()
        || !"true".equals(r.queryParameter("watch").firstValue())).toList();
  }

  private static List<LoggedRequest> watches(String path) {
    return requests(path).stream().filter(r -> r.queryParameter("watch").isPresent()
        && "true".equals(r.queryParameter("watch").firstValue())).toList();
  }

  private static String param(LoggedRequest r, String name) {
    return r.queryParameter(name).isPresent() ? r.queryParameter(name).firstValue() : null;
  }

  /** The first watch of {@code path}; {@code bookmarks} null when the request may go either way. */
  private static void assertWatchedFrom(String path, String resourceVersion, String fieldSelector,
      String bookmarks) {
    Await.until("a watch of " + path, WAIT, () -> !watches(path).isEmpty());
    LoggedRequest w = watches(path).get(0);
    assertEquals(resourceVersion, param(w, "resourceVersion"), path + ": watch from the listed resourceVersion");
    assertEquals(fieldSelector, param(w, "fieldSelector"), path + ": the list's selector on the watch too");
    assertNotNull(param(w, "timeoutSeconds"), path + ": a server-side watch timeout");
    if (bookmarks != null) {
      assertEquals(bookmarks, param(w, "allowWatchBookmarks"), path);
    }
  }

  @Test
  void listsEveryKindThenWatchesFromTheListedVersionWithTheNonTerminalPodSelector() throws Exception {
    volcanoLists();

    start();

    for (String kind : List.of(PODS, NODES, PRIORITY_CLASSES, JOBS)) {
      List<LoggedRequest> l = lists(kind).stream().filter(r -> !"1".equals(param(r, "limit"))).toList();
      assertEquals(1, l.size(), kind + ": listed once (besides a probe)");
      assertEquals("500", param(l.get(0), "limit"), kind + ": in pages");
      assertEquals("0", param(l.get(0), "resourceVersion"), kind + ": initial list from the watch cache");
      assertEquals(kind.equals(PODS) ? NON_TERMINAL : null, param(l.get(0), "fieldSelector"),
          kind + ": pods without the terminal ones (they hold nothing), everything else whole");
      assertEquals(null, param(l.get(0), "labelSelector"), kind);
    }
    List<String> probed = new ArrayList<>(List.of(PODGROUPS, QUEUES, COSCHEDULING, JOBS, HYPERNODES, PYTORCHJOBS,
        MPIJOBS, TFJOBS, JOBSETS));
    probed.addAll(DRA_KINDS);
    for (String crd : probed) {
      List<LoggedRequest> l = lists(crd);
      assertEquals(2, l.size(), crd + ": the probe, then the informer's list");
      assertEquals("1", param(l.get(0), "limit"), crd + ": probed with one item first");
      assertEquals("500", param(l.get(1), "limit"), crd + ": in pages");
      assertEquals("0", param(l.get(1), "resourceVersion"), crd);
    }
    assertWatchedFrom(PODS, "100", NON_TERMINAL, "true");
    assertWatchedFrom(NODES, "100", null, "true");
    assertWatchedFrom(PRIORITY_CLASSES, "100", null, "true");
    assertWatchedFrom(PODGROUPS, "100", null, "true");
    assertWatchedFrom(QUEUES, "100", null, "true");
    assertWatchedFrom(JOBS, "100", null, "true");
    assertWatchedFrom(COSCHEDULING, "100", null, "true");
    assertWatchedFrom(HYPERNODES, "100", null, "true");
    for (String owner : OWNER_CRDS) {
      assertWatchedFrom(owner, "100", null, "true");
    }

    assertEquals(1, cache.nodeCount());
    assertNotNull(cache.pod("u-p1"));
    assertNotNull(cache.podGroup("ml/g"));
    assertEquals(List.of(), source.warnings());
  }

  @Test
  void aVolcanoCrdAnswering404IsTreatedAsEmptyAndLoggedOnce() throws Exception {
    wm.stubFor(get(urlPathMatching("/apis/scheduling\\.volcano\\.sh/.*")).atPriority(2)
        .willReturn(KubeReplies.unservedPath()));

    start();

    assertTrue(source.hasSynced(), "started without Volcano");
    assertEquals(1, requests(PODGROUPS).size(), "probed once, no informer list or watch");
    assertEquals(1, requests(QUEUES).size());
    assertWatchedFrom(PODS, "100", NON_TERMINAL, "true");
    List<String> warnings = source.warnings();
    assertEquals(2, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("404") || warnings.get(1).contains("404"), warnings.toString());
    for (String kind : List.of("podgroups", "queues")) {
      long lines = logged.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue()
          && r.getMessage().contains("Volcano " + kind)).count();
      assertEquals(1, lines, kind + " logged once: " + logged.stream().map(LogRecord::getMessage).toList());
    }
    assertFalse(cache.snapshot().nodes().isEmpty(), "the core kinds still load");
  }

  @Test
  void ownerCrdsAnswering404AreSkippedAndLoggedOnceEach() throws Exception {
    volcanoLists();
    wm.stubFor(get(urlPathMatching("/apis/(kubeflow\\.org|jobset\\.x-k8s\\.io)/.*")).atPriority(2)
        .willReturn(KubeReplies.unservedPath()));

    start();

    assertTrue(source.hasSynced(), "started without Kubeflow and JobSet");
    for (String owner : OWNER_CRDS) {
      assertEquals(1, requests(owner).size(), owner + ": probed once, no informer list or watch");
    }
    List<String> warnings = source.warnings();
    assertEquals(4, warnings.size(), warnings.toString());
    assertTrue(warnings.stream().anyMatch(w -> w.contains("Kubeflow training operator's pytorchjobs not served "
        + "(404)")), warnings.toString());
    assertTrue(warnings.stream().anyMatch(w -> w.contains("JobSet's jobsets not served (404)")), warnings.toString());
    assertWatchedFrom(JOBS, "100", null, "true");
  }
}
