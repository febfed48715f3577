package io.basalt.app;

import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Status writes as a real API server showed them going wrong (issue 31): a deleted Job's gang written to a PodGroup
 * that does not exist while its pods terminate, and {@code status.running} counting bound pods that were not running.
 */
@Timeout(90)
class RealServerStatusRunTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void aDeletedJobsGangIsNotWrittenToAPodGroupThatDoesNotExistWhileItsPodsTerminate(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.builder().gracefulPodDeletion(true).start()) {
      server.seed(node("gpu-1", 8));
      server.seed(node("gpu-2", 8));
      server.seed(job());
      server.seed(jobPod("train-0"));
      server.seed(jobPod("train-1"));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("both bound", WAIT, () -> nodeOf(server, "train-0") != null && nodeOf(server, "train-1") != null);
        assertTrue(server.delete(Resources.JOBS, "ml", "train"));
        // The garbage collector deletes the pods gracefully: they stay, terminating, for their grace period.
        CoreV1Api core = new CoreV1Api(server.apiClient());
        core.deleteNamespacedPod("train-0", "ml").execute();
        core.deleteNamespacedPod("train-1", "ml").execute();
        Await.until("terminating", WAIT, () -> server.get(Resources.PODS, "ml", "train-0")
            .getAsJsonObject("metadata").has("deletionTimestamp"));
        server.clearRequests();
        Thread.sleep(1_500); // about fifteen cycles while the pods terminate
        assertEquals(0, server.requests("PATCH", ".*/podgroups/.*").size(),
            "no status for a PodGroup that does not exist: " + server.requests("PATCH", ".*/podgroups/.*"));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void statusRunningCountsPodsInPhaseRunningNotBoundOnes(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(node("gpu-2", 8));
      server.seed(LiveRun.podGroup("g", 2));
      server.seed(LiveRun.pod("g-0", "basalt-scheduler", 8, "g"));
      server.seed(LiveRun.pod("g-1", "basalt-scheduler", 8, "g"));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("both bound", WAIT, () -> nodeOf(server, "g-0") != null && nodeOf(server, "g-1") != null);
        Await.until("PodGroup Running", WAIT, () -> "Running".equals(statusField(server, "g", "phase")));
        Thread.sleep(300);
        assertEquals(0, status(server, "g").get("running").getAsInt(),
            "bound, but the kubelet has not started them: " + status(server, "g"));
        // The kubelet starts one of them.
        server.mergePatch(Resources.PODS, "ml", "g-0", "{\"status\":{\"phase\":\"Running\"}}");
        Await.until("one running", WAIT, () -> "1".equals(statusField(server, "g", "running")));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aPodGroupConditionCarriesItsLastTransitionTime(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(LiveRun.podGroup("big", 2));
      server.seed(LiveRun.pod("big-0", "basalt-scheduler", 8, "big"));
      server.seed(LiveRun.pod("big-1", "basalt-scheduler", 8, "big"));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("a condition written", WAIT, () -> status(server, "big") != null
            && status(server, "big").has("conditions"));
        JsonObject condition = status(server, "big").getAsJsonArray("conditions").get(0).getAsJsonObject();
        assertTrue(condition.has("lastTransitionTime")
            && condition.get("lastTransitionTime").getAsString().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"),
            condition.toString());
        assertEquals(0, run.stop());
      }
    }
  }

  /** A field of the group's status as text; null until the status and the field are written. */
  private static String statusField(FakeApiServer server, String group, String field) {
    JsonObject status = status(server, group);
    return status == null || !status.has(field) ? null : status.get(field).getAsString();
  }

  private static JsonObject status(FakeApiServer server, String group) {
    JsonObject pg = server.get(Resources.PODGROUPS, "ml", group);
    return pg == null ? null : pg.getAsJsonObject("status");
  }

  private static String job() {
    return "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\",\"namespace\":\"ml\","
        + "\"uid\":\"job-uid\",\"annotations\":{\"scheduling.volcano.sh/group-min-member\":\"2\"}},"
        + "\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}],"
        + "\"restartPolicy\":\"Never\"}}}}";
  }

  /** An 8-GPU pod the Job controller made for Job ml/train: owner reference, no group annotation. */
  private static String jobPod(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"ownerReferences\":[{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"name\":\"train\","
        + "\"uid\":\"job-uid\",\"controller\":true}]},\"spec\":{\"schedulerName\":\"basalt-scheduler\","
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"8\"}}}]}}";
  }
}
