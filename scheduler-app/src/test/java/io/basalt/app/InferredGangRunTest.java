package io.basalt.app;

import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt run} end to end for gangs nobody wrote a Volcano PodGroup for: a batch Job's pods arriving one by one,
 * a scheduler-plugins coscheduling PodGroup, a Kueue-labelled pod held to its team's queue, a PyTorchJob's annotation
 * sizing its gang, and {@code --create-podgroups} writing a Volcano PodGroup owned by the Job.
 */
@Timeout(90)
class InferredGangRunTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void aJobsPodsCreatedOneAtATimeWaitForEachOtherAndBindTogether(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      for (int i = 1; i <= 3; i++) {
        server.seed(node("gpu-" + i, 8));
      }
      server.seed("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\",\"namespace\":\"ml\","
          + "\"uid\":\"job-uid\",\"annotations\":{\"scheduling.volcano.sh/group-min-member\":\"3\"}},\"spec\":{"
          + "\"parallelism\":3,\"completions\":3,\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\","
          + "\"image\":\"x\"}],\"restartPolicy\":\"Never\"}}}}");
      try (LiveRun run = LiveRun.start(server, dir)) {
        server.seed(jobPod("train-0", 8));
        Await.until("train-0 told it waits for its gang", WAIT, () -> unschedulable(server, "train-0"));
        String reason = server.get(Resources.PODS, "ml", "train-0").getAsJsonObject("status").toString();
        assertTrue(reason.contains("1 valid pods, fewer than minMember 3"), reason);
        server.seed(jobPod("train-1", 8));
        Await.until("train-1 told it waits too", WAIT, () -> unschedulable(server, "train-1"));
        assertNull(nodeOf(server, "train-0"), "two of three must not start: the deadlock gangs exist to prevent");
        assertNull(nodeOf(server, "train-1"));
        server.seed(jobPod("train-2", 8));
        Await.until("all three bound", WAIT, () -> nodeOf(server, "train-0") != null
            && nodeOf(server, "train-1") != null && nodeOf(server, "train-2") != null);
        Set<String> nodes = new HashSet<>(List.of(nodeOf(server, "train-0"), nodeOf(server, "train-1"),
            nodeOf(server, "train-2")));
        assertEquals(3, nodes.size(), "8 GPUs each: one node apiece");
        assertTrue(server.list(Resources.PODGROUPS, "ml").isEmpty(), "no PodGroup object written unasked");
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aCoschedulingPodGroupBindsAllOrNothing(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 4));
      server.seed("{\"apiVersion\":\"scheduling.x-k8s.io/v1alpha1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":"
          + "\"pair\",\"namespace\":\"ml\"},\"spec\":{\"minMember\":2}}");
      server.seed("{\"apiVersion\":\"scheduling.x-k8s.io/v1alpha1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":"
          + "\"big\",\"namespace\":\"ml\"},\"spec\":{\"minMember\":2}}");
      server.seed(labelledPod("pair-0", 1, "scheduling.x-k8s.io/pod-group", "pair"));
      server.seed(labelledPod("pair-1", 1, "scheduling.x-k8s.io/pod-group", "pair"));
      server.seed(labelledPod("big-0", 3, "scheduling.x-k8s.io/pod-group", "big"));
      server.seed(labelledPod("big-1", 3, "scheduling.x-k8s.io/pod-group", "big"));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("the pair bound", WAIT, () -> nodeOf(server, "pair-0") != null && nodeOf(server, "pair-1") != null);
        Await.until("big told why it waits", WAIT, () -> unschedulable(server, "big-0"));
        assertNull(nodeOf(server, "big-0"), "3 + 3 GPUs never fit 4: neither starts, though one would fit");
        assertNull(nodeOf(server, "big-1"));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aKueueLabelledPodCountsAgainstItsQueue(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":{\"name\":"
          + "\"team-a\"},\"spec\":{\"weight\":1,\"capability\":{\"nvidia.com/gpu\":\"2\"}}}");
      server.seed(labelledPod("a-1", 2, "kueue.x-k8s.io/queue-name", "team-a"));
      server.seed(labelledPod("a-2", 2, "kueue.x-k8s.io/queue-name", "team-a"));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("one of team-a's pods bound", WAIT,
            () -> nodeOf(server, "a-1") != null || nodeOf(server, "a-2") != null);
        String waiting = nodeOf(server, "a-1") == null ? "a-1" : "a-2";
        Await.until(waiting + " told why it waits", WAIT, () -> unschedulable(server, waiting));
        assertNull(nodeOf(server, waiting), "team-a's capability is 2 GPUs: the second pod waits with 6 free");
        String reason = server.get(Resources.PODS, "ml", waiting).getAsJsonObject("status").toString();
        assertTrue(reason.contains("team-a"), reason);
        Await.until("counted in team-a, not default", WAIT,
            () -> run.metrics().contains("basalt_pending_pods{queue=\"team-a\"} 1"));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void withCreatePodGroupsAJobsGangGetsAVolcanoPodGroupOwnedByTheJob(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(node("gpu-2", 8));
      server.seed(job(2));
      server.seed(jobPod("train-0", 8));
      server.seed(jobPod("train-1", 8));
      try (LiveRun run = LiveRun.start(server, dir, "--create-podgroups")) {
        Await.until("both bound", WAIT, () -> nodeOf(server, "train-0") != null && nodeOf(server, "train-1") != null);
        Await.until("the PodGroup created", WAIT, () -> server.list(Resources.PODGROUPS, "ml").size() == 1);
        JsonObject pg = server.get(Resources.PODGROUPS, "ml", "podgroup-job-uid");
        assertNotNull(pg, "named as Volcano's podgroup controller names it: " + server.list(Resources.PODGROUPS, "ml"));
        JsonObject spec = pg.getAsJsonObject("spec");
        assertEquals(2, spec.get("minMember").getAsInt());
        assertEquals("default", spec.get("queue").getAsString());
        assertEquals("16", spec.getAsJsonObject("minResources").get("nvidia.com/gpu").getAsString());
        JsonObject owner = pg.getAsJsonObject("metadata").getAsJsonArray("ownerReferences").get(0).getAsJsonObject();
        assertEquals("batch/v1", owner.get("apiVersion").getAsString());
        assertEquals("Job", owner.get("kind").getAsString());
        assertEquals("train", owner.get("name").getAsString());
        assertEquals("job-uid", owner.get("uid").getAsString());
        assertTrue(owner.get("controller").getAsBoolean(), "garbage-collected with the Job");
        Await.until("its status written as for any PodGroup", WAIT, () -> String.valueOf(
            server.get(Resources.PODGROUPS, "ml", "podgroup-job-uid").get("status")).contains("Running"));
        assertEquals(1, server.requests("POST", ".*/podgroups").size(), "created once");
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aPodGroupSomeoneElseCreatedFirstIsFineAndNotRetried(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(job(1));
      server.seed(jobPod("train-0", 8));
      server.faults().failNext(1, 409, "POST", ".*/podgroups");
      try (LiveRun run = LiveRun.start(server, dir, "--create-podgroups")) {
        Await.until("bound", WAIT, () -> nodeOf(server, "train-0") != null);
        Await.until("creation tried", WAIT, () -> !server.requests("POST", ".*/podgroups").isEmpty());
        Thread.sleep(500);
        assertEquals(1, server.requests("POST", ".*/podgroups").size(), "409: someone made it, not tried again");
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aPyTorchJobsAnnotationSizesItsGangWhenItsCrdIsServed(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(node("gpu-2", 8));
      server.seed("{\"apiVersion\":\"kubeflow.org/v1\",\"kind\":\"PyTorchJob\",\"metadata\":{\"name\":\"pt\","
          + "\"namespace\":\"ml\",\"uid\":\"pt-uid\",\"annotations\":{\"scheduling.volcano.sh/group-min-member\":"
          + "\"2\"}},\"spec\":{\"pytorchReplicaSpecs\":{}}}");
      try (LiveRun run = LiveRun.start(server, dir)) {
        server.seed(ownedPod("pt-master-0", "kubeflow.org/v1", "PyTorchJob", "pt", "pt-uid"));
        Await.until("the master told it waits for its worker", WAIT, () -> unschedulable(server, "pt-master-0"));
        String reason = server.get(Resources.PODS, "ml", "pt-master-0").getAsJsonObject("status").toString();
        assertTrue(reason.contains("fewer than minMember 2"), reason);
        assertNull(nodeOf(server, "pt-master-0"));
        server.seed(ownedPod("pt-worker-0", "kubeflow.org/v1", "PyTorchJob", "pt", "pt-uid"));
        Await.until("both bound", WAIT,
            () -> nodeOf(server, "pt-master-0") != null && nodeOf(server, "pt-worker-0") != null);
        assertEquals(0, run.stop());
      }
    }
  }

  private static String job(int minMember) {
    return "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\",\"namespace\":\"ml\","
        + "\"uid\":\"job-uid\",\"annotations\":{\"scheduling.volcano.sh/group-min-member\":\"" + minMember + "\"}},"
        + "\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}],"
        + "\"restartPolicy\":\"Never\"}}}}";
  }

  private static boolean unschedulable(FakeApiServer server, String pod) {
    JsonObject status = server.get(Resources.PODS, "ml", pod).getAsJsonObject("status");
    return status != null && status.toString().contains("Unschedulable");
  }

  /** A pod the Job controller made for Job ml/train: owner reference, no group annotation. */
  private static String jobPod(String name, int gpus) {
    return ownedPod(name, "batch/v1", "Job", "train", "job-uid").replace("\"8\"", "\"" + gpus + "\"");
  }

  /** An 8-GPU pod in ml controlled by the given owner, no group annotation. */
  private static String ownedPod(String name, String apiVersion, String kind, String owner, String uid) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"ownerReferences\":[{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"name\":\"" + owner
        + "\",\"uid\":\"" + uid + "\",\"controller\":true}]},\"spec\":{\"schedulerName\":\"basalt-scheduler\","
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"8\"}}}]}}";
  }

  private static String labelledPod(String name, int gpus, String label, String value) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"labels\":{\"" + label + "\":\"" + value + "\"}},\"spec\":{\"schedulerName\":\"basalt-scheduler\","
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\""
        + gpus + "\"}}}]}}";
  }
}
