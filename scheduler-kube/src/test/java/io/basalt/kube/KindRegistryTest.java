package io.basalt.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.cache.ClusterCache;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.ResourceType;
import io.basalt.kube.fake.Resources;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.kube.kinds.core.NodeKind;
import io.basalt.kube.live.InformerSource;
import io.basalt.model.Queue;
import io.basalt.sim.FixtureSource;
import io.basalt.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The registry of kinds is where both sources learn what to read: it lists the kinds, the simulator and live mode
 * read exactly what it says (their differences are the adapters' own declarations), and a kind registered by a test
 * is read by both without touching either source.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KindRegistryTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** Every kind, in registry order, with what each source does with it. */
  @Test
  void listsEveryKindAndWhatEachSourceReads() {
    List<String> rows = Kinds.builtin().all().stream().map(k -> k.kind() + " " + k.apiVersion() + " ("
        + k.plural() + "): manifests " + (k.inManifests() ? (k.expand(minimal(k)) != null ? "expand" : "read")
        : "no") + ", live " + k.watch()).toList();
    assertEquals(List.of(
        "Node v1 (nodes): manifests read, live ALWAYS",
        "Pod v1 (pods): manifests read, live ALWAYS",
        "PodGroup scheduling.volcano.sh/v1beta1 (podgroups): manifests read, live IF_SERVED",
        "Queue scheduling.volcano.sh/v1beta1 (queues): manifests read, live IF_SERVED",
        "PriorityClass scheduling.k8s.io/v1 (priorityclasses): manifests read, live ALWAYS",
        "PodGroup scheduling.x-k8s.io/v1alpha1 (podgroups): manifests read, live IF_SERVED",
        "Namespace v1 (namespaces): manifests read, live NEVER",
        "HyperNode topology.volcano.sh/v1alpha1 (hypernodes): manifests read, live IF_SERVED",
        "Job batch/v1 (jobs): manifests expand, live IF_LISTABLE",
        "Job batch.volcano.sh/v1alpha1 (jobs): manifests expand, live NEVER",
        "JobSet jobset.x-k8s.io/v1alpha2 (jobsets): manifests expand, live IF_SERVED",
        "PyTorchJob kubeflow.org/v1 (pytorchjobs): manifests expand, live IF_SERVED",
        "MPIJob kubeflow.org/v1 (mpijobs): manifests expand, live IF_SERVED",
        "TFJob kubeflow.org/v1 (tfjobs): manifests no, live IF_SERVED",
        "PersistentVolumeClaim v1 (persistentvolumeclaims): manifests read, live IF_LISTABLE",
        "PersistentVolume v1 (persistentvolumes): manifests read, live IF_LISTABLE",
        "StorageClass storage.k8s.io/v1 (storageclasses): manifests read, live IF_LISTABLE",
        "CSINode storage.k8s.io/v1 (csinodes): manifests read, live IF_LISTABLE",
        "CSIStorageCapacity storage.k8s.io/v1 (csistoragecapacities): manifests read, live IF_LISTABLE",
        "ResourceFlavor kueue.x-k8s.io/v1beta1 (resourceflavors): manifests read, live IF_SERVED",
        "ClusterQueue kueue.x-k8s.io/v1beta1 (clusterqueues): manifests read, live IF_SERVED",
        "LocalQueue kueue.x-k8s.io/v1beta1 (localqueues): manifests read, live IF_SERVED",
        "Cohort kueue.x-k8s.io/v1beta1 (cohorts): manifests read, live IF_SERVED",
        "WorkloadPriorityClass kueue.x-k8s.io/v1beta1 (workloadpriorityclasses): manifests read, live IF_SERVED",
        "Topology kueue.x-k8s.io/v1beta1 (topologies): manifests read, live IF_SERVED",
        "AdmissionCheck kueue.x-k8s.io/v1beta1 (admissionchecks): manifests read, live IF_SERVED",
        "ProvisioningRequestConfig kueue.x-k8s.io/v1beta1 (provisioningrequestconfigs): manifests read, live IF_SERVED",
        "ProvisioningRequest autoscaling.x-k8s.io/v1beta1 (provisioningrequests): manifests read, live IF_SERVED",
        "DeviceClass resource.k8s.io/v1 (deviceclasses): manifests read, live IF_LISTABLE",
        "ResourceSlice resource.k8s.io/v1 (resourceslices): manifests read, live IF_LISTABLE",
        "ResourceClaim resource.k8s.io/v1 (resourceclaims): manifests read, live IF_LISTABLE",
        "ResourceClaimTemplate resource.k8s.io/v1 (resourceclaimtemplates): manifests read, live IF_LISTABLE",
        "ResourceQuota v1 (resourcequotas): manifests read, live IF_LISTABLE",
        "VolumeAttachment storage.k8s.io/v1 (volumeattachments): manifests read, live IF_LISTABLE"), rows);

    // The two sources differ only where an adapter says so.
    List<String> manifestsOnly = new ArrayList<>();
    List<String> liveOnly = new ArrayList<>();
    for (KindAdapter<?> k : Kinds.builtin().all()) {
      boolean live = k.watch() != KindAdapter.Watch.NEVER;
      if (k.inManifests() && !live) {
        manifestsOnly.add(k.toString());
      } else if (!k.inManifests() && live) {
        liveOnly.add(k.toString());
      }
    }
    assertEquals(List.of("Namespace v1", "Job batch.volcano.sh/v1alpha1"), manifestsOnly,
        "namespaces are only checked; Volcano's controller makes the PodGroup live mode reads");
    assertEquals(List.of("TFJob kubeflow.org/v1"), liveOnly, "no TFJob expansion is written");
  }

  /** The simulator reads a document when, and only when, a kind of its registry reads it. */
  @Test
  void theSimulatorReadsOnlyTheRegistrysKinds() {
    StringBuilder yaml = new StringBuilder();
    int readable = 0;
    for (KindAdapter<?> k : Kinds.builtin().all()) {
      if (k.inManifests()) {
        yaml.append("---\n").append(minimal(k)).append('\n');
        readable++;
      }
    }
    Manifests all = new ManifestReader().readString("all.yaml", yaml.toString());
    assertEquals(List.of(), all.skipped(), "every kind of the registry is read");

    Manifests nodesOnly = new ManifestReader(Kinds.of(List.of(new NodeKind())), ManifestReader.DEFAULT_CREATION_BASE)
        .readString("all.yaml", yaml.toString());
    assertEquals(readable - 1, nodesOnly.skipped().size(), nodesOnly.skipped().toString());
    assertEquals(1, nodesOnly.size());
    assertEquals(List.of(), nodesOnly.errors(), "a skipped workload is not expanded either");
  }

  /** Live mode opens a watch on exactly the registry's watched kinds the server serves, and on nothing else. */
  @Test
  void liveModeWatchesOnlyTheRegistrysKinds() throws Exception {
    try (FakeApiServer server = FakeApiServer.start();
        InformerSource source = new InformerSource(server.apiClient())) {
      ClusterCache cache = new ClusterCache(Set.of("basalt"), "default");
      source.start(cache, WAIT);
      List<ResourceType> expected = new ArrayList<>();
      for (ResourceType t : Resources.all()) {
        if (Kinds.builtin().all().stream().anyMatch(k -> k.watch() != KindAdapter.Watch.NEVER
            && k.group().equals(t.group()) && k.version().equals(t.version()) && k.plural().equals(t.plural()))) {
          expected.add(t);
        }
      }
      assertEquals(32, expected.size(), "every watched kind is served by the fake server: " + expected);
      for (ResourceType t : expected) {
        Await.until(t + " watched", WAIT, () -> !watches(server, t).isEmpty());
      }
      for (ResourceType t : Resources.all()) {
        if (!expected.contains(t)) {
          assertEquals(List.of(), watches(server, t), t + " is not a kind live mode reads");
        }
      }
    }
  }

  /** A kind the registry does not hold is skipped; registered, the simulator reads it into engine records. */
  @Test
  void aKindRegisteredInATestIsReadByTheSimulator() {
    String yaml = """
        apiVersion: example.basalt.io/v1
        kind: TeamQueue
        metadata: {name: team-a}
        spec: {weight: 3}
        ---
        apiVersion: example.basalt.io/v1
        kind: TeamQueue
        metadata: {name: team-b}
        spec: {weight: -1}
        """;
    ClusterCache without = new ClusterCache(Set.of("basalt"), "default");
    FixtureSource builtin = FixtureSource.fromText("teams.yaml", yaml);
    builtin.start(without);
    assertFalse(without.hasQueue("team-a"));
    assertTrue(builtin.warnings().get(0).startsWith("teams.yaml doc 1: skipped kind TeamQueue"),
        builtin.warnings().toString());

    Kinds kinds = Kinds.builtin().with(new TeamQueueKind());
    Manifests m = new ManifestReader(kinds, ManifestReader.DEFAULT_CREATION_BASE).readString("teams.yaml", yaml);
    assertEquals(List.of(), m.skipped());
    assertEquals(2, m.objects(TeamQueue.class).size());
    FixtureSource source = FixtureSource.of(m);
    ClusterCache cache = new ClusterCache(Set.of("basalt"), "default");
    source.start(cache);
    assertEquals(3, cache.snapshot().queues().get("team-a").weight());
    assertFalse(cache.hasQueue("team-b"));
    assertEquals(List.of("teams.yaml doc 2: TeamQueue team-b: spec.weight: negative value -1"), source.warnings(),
        "a conversion error names the document, as for a built-in kind");
  }

  /** Registered in live mode, the same adapter's kind is watched: adds, updates and deletes reach the cache. */
  @Test
  void aKindRegisteredInATestIsWatchedLive() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(teamQueue("team-a", 3));
      ClusterCache without = new ClusterCache(Set.of("basalt"), "default");
      try (InformerSource builtin = new InformerSource(server.apiClient())) {
        builtin.start(without, WAIT);
        assertFalse(without.hasQueue("team-a"));
      }

      ClusterCache cache = new ClusterCache(Set.of("basalt"), "default");
      try (InformerSource source = new InformerSource(server.apiClient(), Duration.ZERO,
          Kinds.builtin().with(new TeamQueueKind()))) {
        source.start(cache, WAIT);
        assertEquals(3, cache.snapshot().queues().get("team-a").weight());

        server.mergePatch(Resources.TEAM_QUEUES, null, "team-a", "{\"spec\":{\"weight\":5}}");
        Await.until("team-a's new weight", WAIT, () -> cache.snapshot().queues().get("team-a").weight() == 5);
        server.seed(teamQueue("team-b", -1));
        Await.until("team-b's conversion error", WAIT, () -> source.warnings().stream()
            .anyMatch(w -> w.contains("TeamQueue team-b: spec.weight: negative value -1")));
        server.delete(Resources.TEAM_QUEUES, null, "team-a");
        Await.until("team-a gone", WAIT, () -> !cache.hasQueue("team-a"));
        assertNull(cache.snapshot().queues().get("team-b"));
      }
    }
  }

  private static List<RecordedRequest> watches(FakeApiServer server, ResourceType type) {
    return server.requests("GET", Pattern.quote(type.collectionPath(null))).stream()
        .filter(RecordedRequest::isWatch).toList();
  }

  private static JsonObject teamQueue(String name, int weight) {
    JsonObject o = new JsonObject();
    o.addProperty("apiVersion", "example.basalt.io/v1");
    o.addProperty("kind", "TeamQueue");
    JsonObject meta = new JsonObject();
    meta.addProperty("name", name);
    o.add("metadata", meta);
    JsonObject spec = new JsonObject();
    spec.addProperty("weight", weight);
    o.add("spec", spec);
    return o;
  }

  /** The least document of a kind: apiVersion, kind and a name (and namespace). */
  private static JsonObject minimal(KindAdapter<?> k) {
    JsonObject o = new JsonObject();
    o.addProperty("apiVersion", k.apiVersion());
    o.addProperty("kind", k.kind());
    JsonObject meta = new JsonObject();
    meta.addProperty("name", "x");
    if (k.namespaced()) {
      meta.addProperty("namespace", "ml");
    }
    o.add("metadata", meta);
    return o;
  }

  /** A made-up team queue: a queue stated by an object no built-in kind reads, as Kueue's ClusterQueue will be. */
  public static final class TeamQueue extends CustomObject<TeamQueue, TeamQueue.Spec, Map<String, Object>> {
    public record Spec(Integer weight) {}
  }

  public static final class TeamQueueList extends CustomObjectList<TeamQueue> {}

  /** The whole of a new kind: where it is served and what its objects mean to the engine. */
  static final class TeamQueueKind extends KindAdapter<TeamQueue> {
    TeamQueueKind() {
      super("example.basalt.io", "v1", "TeamQueue", "teamqueues", false, TeamQueue.class, TeamQueueList.class);
    }

    @Override
    public void put(TeamQueue q, Records out) {
      Ctx ctx = Ctx.clusterScoped(kind(), q.getMetadata());
      int weight = q.getSpec() == null || q.getSpec().weight() == null ? 1 : q.getSpec().weight();
      if (weight < 0) {
        throw ctx.fail("spec.weight", "negative value " + weight);
      }
      out.queue(new Queue(q.getMetadata().getName(), weight, null, null, null, true, 0, null, "Open", Map.of()));
    }

    @Override
    public void remove(TeamQueue q, String key, Records.Removals out) {
      out.queueGone(key);
    }
  }
}
