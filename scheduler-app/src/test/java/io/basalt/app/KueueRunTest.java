package io.basalt.app;

import static io.basalt.app.LiveRun.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code basalt run --kueue instead|alongside} end to end on the fake API server, seeded with seed 000's Kueue objects
 * ({@code test-fixtures/kueue/}) and its Job, suspended as Kueue's webhook would leave it. A stand-in for the Job
 * controller creates an unsuspended Job's pods from its (patched) template.
 */
@Timeout(120)
class KueueRunTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Gson GSON = new Gson();

  private static List<JsonObject> documents(String fixture) throws Exception {
    List<JsonObject> out = new ArrayList<>();
    for (Object doc : new Yaml().loadAll(Files.readString(Scenarios.fixture("kueue/" + fixture)))) {
      if (doc != null) {
        out.add(GSON.toJsonTree(doc).getAsJsonObject());
      }
    }
    return out;
  }

  /** Seed 000's flavors, ClusterQueue gpu-cluster and LocalQueues, and seven A100 plus three H100 nodes. */
  private static void seedCluster(FakeApiServer server) throws Exception {
    documents("10-nodes.yaml").forEach(server::seed);
    documents("00-kueue-objects.yaml").forEach(server::seed);
  }

  /** Seed 000's distributed-training Job (4 x 8 GPUs) under {@code name}, suspended, in {@code localQueue}. */
  private static JsonObject suspendedJob(String name, String localQueue) throws Exception {
    JsonObject job = documents("20-distributed-training.yaml").get(0);
    job.getAsJsonObject("metadata").addProperty("name", name);
    job.getAsJsonObject("metadata").addProperty("uid", name + "-uid");
    JsonObject labels = job.getAsJsonObject("metadata").getAsJsonObject("labels");
    if (localQueue == null) {
      labels.remove("kueue.x-k8s.io/queue-name");
    } else {
      labels.addProperty("kueue.x-k8s.io/queue-name", localQueue);
    }
    job.getAsJsonObject("spec").addProperty("suspend", true);
    return job;
  }

  private static JsonObject job(FakeApiServer server, String name) {
    return server.get(Resources.JOBS, "ml-research", name);
  }

  private static boolean suspended(FakeApiServer server, String name) {
    JsonObject spec = job(server, name).getAsJsonObject("spec");
    return spec.has("suspend") && spec.get("suspend").getAsBoolean();
  }

  /** The Job controller's part: the Job's pods, from its template, owned by it. */
  private static List<String> createPods(FakeApiServer server, String name) {
    JsonObject job = job(server, name);
    JsonObject template = job.getAsJsonObject("spec").getAsJsonObject("template");
    int parallelism = job.getAsJsonObject("spec").get("parallelism").getAsInt();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      JsonObject meta = template.has("metadata") ? template.getAsJsonObject("metadata").deepCopy() : new JsonObject();
      meta.addProperty("name", name + "-" + i);
      meta.addProperty("namespace", "ml-research");
      JsonObject owner = new JsonObject();
      owner.addProperty("apiVersion", "batch/v1");
      owner.addProperty("kind", "Job");
      owner.addProperty("name", name);
      owner.addProperty("uid", job.getAsJsonObject("metadata").get("uid").getAsString());
      owner.addProperty("controller", true);
      JsonArray owners = new JsonArray();
      owners.add(owner);
      meta.add("ownerReferences", owners);
      JsonObject pod = new JsonObject();
      pod.addProperty("apiVersion", "v1");
      pod.addProperty("kind", "Pod");
      pod.add("metadata", meta);
      pod.add("spec", template.getAsJsonObject("spec").deepCopy());
      server.seed(pod);
      names.add(name + "-" + i);
    }
    return names;
  }

  private static int jobPatches(FakeApiServer server) {
    return server.requests("PATCH", "/apis/batch/v1/namespaces/.*/jobs/.*").size();
  }

  @Test
  void insteadOfKueueAJobItsClusterQueueAdmitsIsUnsuspendedOnItsFlavorAndStartsWhole(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seedCluster(server);
      server.seed(suspendedJob("distributed-training", "ml-research-queue"));
      server.seed(suspendedJob("second", "ml-research-queue"));
      server.seed(suspendedJob("no-such-queue", "nowhere"));
      server.seed(suspendedJob("not-kueues", null));
      try (LiveRun run = LiveRun.start(server, dir, "--kueue", "instead")) {
        Await.until("distributed-training unsuspended", WAIT, () -> !suspended(server, "distributed-training"));
        JsonObject template = job(server, "distributed-training").getAsJsonObject("spec").getAsJsonObject("template");
        assertEquals("NVIDIA-A100-SXM4-80GB", template.getAsJsonObject("spec").getAsJsonObject("nodeSelector")
            .get("nvidia.com/gpu.product").getAsString(), "held to the first flavor that fits: " + template);
        assertEquals("gpu-cluster", template.getAsJsonObject("metadata").getAsJsonObject("annotations")
            .get("scheduling.volcano.sh/queue-name").getAsString());
        Thread.sleep(1000); // ten admission passes
        assertTrue(suspended(server, "second"), "32 more GPUs exceed A100's 32 + 16 and H100's 16");
        assertTrue(suspended(server, "no-such-queue"), "its LocalQueue maps to no ClusterQueue: never touched");
        assertTrue(suspended(server, "not-kueues"), "no queue-name label: never touched");
        assertEquals(1, jobPatches(server), server.requests("PATCH", ".*").toString());
        // Seed 000's monitoring: kubectl get clusterqueue gpu-cluster -o yaml, kubectl describe localqueue.
        Await.until("ClusterQueue status written", WAIT, () -> server.get(Resources.KUEUE_CLUSTER_QUEUES, "",
            "gpu-cluster").has("status"));
        JsonObject cq = server.get(Resources.KUEUE_CLUSTER_QUEUES, "", "gpu-cluster").getAsJsonObject("status");
        assertEquals(1, cq.get("admittedWorkloads").getAsInt(), cq.toString());
        assertEquals(1, cq.get("reservingWorkloads").getAsInt(), cq.toString());
        assertEquals(1, cq.get("pendingWorkloads").getAsInt(), "second waits; Jobs of no ClusterQueue are not "
            + "counted: " + cq);
        JsonObject a100 = cq.getAsJsonArray("flavorsUsage").get(0).getAsJsonObject();
        assertEquals("nvidia-a100", a100.get("name").getAsString(), cq.toString());
        JsonObject gpus = null;
        for (var r : a100.getAsJsonArray("resources")) {
          if (r.getAsJsonObject().get("name").getAsString().equals("nvidia.com/gpu")) {
            gpus = r.getAsJsonObject();
          }
        }
        assertNotNull(gpus, a100.toString());
        assertEquals("32", gpus.get("total").getAsString(), "4 pods x 8 GPUs on A100: " + a100);
        assertEquals("0", gpus.get("borrowed").getAsString(), "within the nominal 32: " + a100);
        assertEquals("True", cq.getAsJsonArray("conditions").get(0).getAsJsonObject().get("status").getAsString());
        Await.until("LocalQueue status written", WAIT, () -> server.get(Resources.KUEUE_LOCAL_QUEUES, "ml-research",
            "ml-research-queue").has("status"));
        JsonObject lq = server.get(Resources.KUEUE_LOCAL_QUEUES, "ml-research", "ml-research-queue")
            .getAsJsonObject("status");
        assertEquals(1, lq.get("admittedWorkloads").getAsInt(), lq.toString());
        assertEquals(1, lq.get("pendingWorkloads").getAsInt(), lq.toString());
        assertTrue(lq.getAsJsonArray("flavorUsage").toString().contains("\"total\":\"32\""), lq.toString());
        assertTrue(server.requests("PATCH", "/apis/kueue\\.x-k8s\\.io/v1beta1/clusterqueues/gpu-cluster/status")
            .size() >= 1, "through the status subresource");
        assertEquals(List.of(), server.requests("PATCH", "/apis/kueue\\.x-k8s\\.io/v1beta1/clusterqueues/[^/]*"),
            "the spec is never written");
        int writes = server.requests("PATCH", "/apis/kueue\\.x-k8s\\.io/.*").size();
        Thread.sleep(500);
        assertEquals(writes, server.requests("PATCH", "/apis/kueue\\.x-k8s\\.io/.*").size(),
            "an unchanged status is not written again");

        List<String> pods = createPods(server, "distributed-training");
        Await.until("all four bound", WAIT, () -> pods.stream().allMatch(p -> nodeOfIn(server, p) != null));
        for (String p : pods) {
          assertTrue(nodeOfIn(server, p).startsWith("a100-"), p + " on " + nodeOfIn(server, p));
        }
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void alongsideKueueNoJobIsTouched(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seedCluster(server);
      server.seed(suspendedJob("distributed-training", "ml-research-queue"));
      try (LiveRun run = LiveRun.start(server, dir, "--kueue", "alongside")) {
        Await.until("ClusterQueues watched", WAIT, () -> server.openWatches(Resources.KUEUE_CLUSTER_QUEUES) > 0);
        Thread.sleep(1500);
        assertTrue(suspended(server, "distributed-training"), "Kueue admits and unsuspends, not Basalt");
        assertEquals(0, jobPatches(server));
        assertEquals(0, run.stop());
      }
    }
  }

  /** Kueue not installed: its kinds answer 404, are probed once and read as empty; the scheduler runs on. */
  @Test
  void withoutKueuesCrdsNothingIsAdmittedNothingCrashesAndNothingIsRelisted(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.faults().failNext(100_000, 404, "GET", "/apis/kueue\\.x-k8s\\.io/.*");
      documents("10-nodes.yaml").forEach(server::seed);
      server.seed(suspendedJob("distributed-training", "ml-research-queue"));
      server.seed(LiveRun.pod("plain", "basalt-scheduler", 1, null));
      try (LiveRun run = LiveRun.start(server, dir, "--kueue", "instead")) {
        Await.until("the plain pod bound", WAIT, () -> nodeOf(server, "plain") != null);
        int probes = server.requests("GET", "/apis/kueue\\.x-k8s\\.io/.*").size();
        assertEquals(8, probes, "one probe per Kueue kind");
        Thread.sleep(1500);
        assertEquals(probes, server.requests("GET", "/apis/kueue\\.x-k8s\\.io/.*").size(), "no relist loop");
        assertTrue(suspended(server, "distributed-training"));
        assertEquals(0, jobPatches(server));
        assertEquals(200, run.get("/readyz").statusCode());
        assertEquals(0, run.stop());
      }
    }
  }

  private static String nodeOfIn(FakeApiServer server, String pod) {
    JsonObject p = server.get(Resources.PODS, "ml-research", pod);
    assertNotNull(p, pod);
    JsonObject spec = p.getAsJsonObject("spec");
    return spec.has("nodeName") ? spec.get("nodeName").getAsString() : null;
  }
}
