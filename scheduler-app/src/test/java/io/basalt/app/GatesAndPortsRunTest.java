package io.basalt.app;

import static io.basalt.app.LiveRun.bindingPosts;
import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt run} end to end with scheduling gates and host ports, on the fake API server (which refuses a gated
 * pod's binding as a real one does): a gated pod is never tried and keeps the API server's SchedulingGated condition;
 * removing its gates schedules it; a gang with a gated member waits whole; a pod whose host port is taken waits until
 * the pod holding it is gone.
 */
@Timeout(90)
class GatesAndPortsRunTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  /** An ml pod for basalt-scheduler asking for {@code gpus} GPUs; {@code extraSpec} is spliced into its spec. */
  private static String pod(String name, int gpus, String group, String extraSpec) {
    return pod(name, gpus, group, extraSpec, 0);
  }

  /** As above, its container binding {@code hostPort} on the node unless 0. */
  private static String pod(String name, int gpus, String group, String extraSpec, int hostPort) {
    String annotations = group == null ? "{}" : "{\"scheduling.k8s.io/group-name\":\"" + group + "\"}";
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"annotations\":" + annotations + "},\"spec\":{\"schedulerName\":\"basalt-scheduler\"," + extraSpec
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"ports\":[{\"containerPort\":80"
        + (hostPort == 0 ? "" : ",\"hostPort\":" + hostPort) + "}],\"resources\":"
        + "{\"limits\":{\"nvidia.com/gpu\":\"" + gpus + "\"}}}]}}";
  }

  private static String gates(String... names) {
    StringBuilder sb = new StringBuilder("\"schedulingGates\":[");
    for (int i = 0; i < names.length; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"name\":\"").append(names[i]).append("\"}");
    }
    return sb.append("],").toString();
  }

  /** The pod's PodScheduled condition, or null. */
  private static JsonObject scheduledCondition(FakeApiServer server, String pod) {
    JsonObject status = server.get(Resources.PODS, "ml", pod).getAsJsonObject("status");
    if (status == null || !status.has("conditions")) {
      return null;
    }
    for (var c : status.getAsJsonArray("conditions")) {
      if (c.getAsJsonObject().get("type").getAsString().equals("PodScheduled")) {
        return c.getAsJsonObject();
      }
    }
    return null;
  }

  private static String reason(FakeApiServer server, String pod) {
    JsonObject c = scheduledCondition(server, pod);
    return c == null || !c.has("reason") ? null : c.get("reason").getAsString();
  }

  private static String message(FakeApiServer server, String pod) {
    JsonObject c = scheduledCondition(server, pod);
    return c == null || !c.has("message") ? "" : c.get("message").getAsString();
  }

  @Test
  void aGatedPodIsNeverTriedAndUngatingSchedulesIt(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(pod("gated", 1, null, gates("example.com/quota", "example.com/topology")));
      server.seed(pod("plain", 1, null, ""));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("plain bound", WAIT, () -> nodeOf(server, "plain") != null);
        Thread.sleep(1000); // ten cycles
        assertNull(nodeOf(server, "gated"));
        assertEquals(0, bindingPosts(server, "gated"), "never tried: the API server would refuse it");
        assertEquals("SchedulingGated", reason(server, "gated"), "the API server's condition, left as it is");
        assertEquals("Scheduling is blocked due to non-empty scheduling gates", message(server, "gated"));
        server.mergePatch(Resources.PODS, "ml", "gated",
            "{\"spec\":{\"schedulingGates\":[{\"name\":\"example.com/topology\"}]}}");
        Thread.sleep(1000);
        assertNull(nodeOf(server, "gated"), "one gate left: still held back");
        server.mergePatch(Resources.PODS, "ml", "gated", "{\"spec\":{\"schedulingGates\":null}}");
        Await.until("ungated, then bound", WAIT, () -> nodeOf(server, "gated") != null);
        assertEquals(1, bindingPosts(server, "gated"));
        assertTrue(server.bindLedger().gatedRefusals().isEmpty(), "no binding of a gated pod was ever posted");
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aGangWithAGatedMemberWaitsWholeHoldingNothingUntilUngated(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(LiveRun.podGroup("train", 2));
      server.seed(pod("train-0", 4, "train", ""));
      server.seed(pod("train-1", 4, "train", gates("example.com/quota")));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("train-0 told why it waits", WAIT, () -> "Unschedulable".equals(reason(server, "train-0")));
        assertTrue(message(server, "train-0").contains("1 more waiting for their scheduling gates"),
            message(server, "train-0"));
        assertNull(nodeOf(server, "train-0"), "half a gang must not start");
        assertEquals(0, bindingPosts(server, "train-0"));
        assertEquals("SchedulingGated", reason(server, "train-1"));
        server.mergePatch(Resources.PODS, "ml", "train-1", "{\"spec\":{\"schedulingGates\":null}}");
        Await.until("both bound", WAIT, () -> nodeOf(server, "train-0") != null && nodeOf(server, "train-1") != null);
        assertTrue(server.bindLedger().gatedRefusals().isEmpty());
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aPodWhoseHostPortIsTakenWaitsUntilTheHolderIsGone(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      // Another scheduler's pod holds 8080 on the only node.
      server.seed(pod("holder", 1, null, "\"nodeName\":\"gpu-1\",", 8080).replace(
          "\"schedulerName\":\"basalt-scheduler\"", "\"schedulerName\":\"default-scheduler\""));
      server.mergePatch(Resources.PODS, "ml", "holder", "{\"status\":{\"phase\":\"Running\"}}");
      server.seed(pod("web", 1, null, "", 8080));
      server.seed(pod("other-port", 1, null, "", 8081));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("web told why it waits", WAIT, () -> "Unschedulable".equals(reason(server, "web")));
        assertTrue(message(server, "web").contains("node(s) didn't have free ports for the requested pod ports"),
            message(server, "web"));
        Await.until("8081 is free", WAIT, () -> nodeOf(server, "other-port") != null);
        assertNull(nodeOf(server, "web"));
        server.delete(Resources.PODS, "ml", "holder");
        Await.until("8080 freed: web bound", WAIT, () -> nodeOf(server, "web") != null);
        assertEquals(0, run.stop());
      }
    }
  }
}
