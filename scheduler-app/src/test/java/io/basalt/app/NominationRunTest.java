package io.basalt.app;

import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt run} end to end for {@code status.nominatedNodeName}: written on a preemptor while its victims leave,
 * gone once it binds (the binding clears it), read back after a restart, cleared when the hold lapses; and room
 * another scheduler nominated to its pod is left to it.
 */
@Timeout(120)
class NominationRunTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  /** No priority plugin in the second config: jobs go by creation time, so a hold is all that keeps room. */
  private static final String PREEMPT = "actions: \"enqueue, allocate, preempt\"\ntiers:\n- plugins:\n"
      + "  - name: priority\n  - name: gang\n  - name: conformance\n- plugins:\n  - name: predicates\n";
  /** Overcommit admits jobs; a factor of 2 lets high in while n1 is full (8 of 16 admissible GPUs used). */
  private static final String OVERCOMMIT = "actions: \"enqueue, allocate, preempt\"\ntiers:\n- plugins:\n"
      + "  - name: priority\n  - name: gang\n  - name: conformance\n- plugins:\n  - name: overcommit\n"
      + "    arguments:\n      overcommit-factor: 2.0\n  - name: predicates\n";
  private static final String BY_AGE = "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gang\n"
      + "  - name: predicates\n";

  @Test
  void aPreemptorIsNominatedWhileItsVictimsLeaveAndItsRoomIsKeptUntilItBinds(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.builder().gracefulPodDeletion(true).start()) {
      server.seed(node("n1", 8));
      server.seed(pod("low-a", "basalt-scheduler", 4, 0, "n1", null, null));
      server.seed(pod("low-b", "basalt-scheduler", 4, 0, "n1", null, null));
      try (LiveRun run = LiveRun.start(server, dir, "--config", conf(dir, PREEMPT))) {
        server.seed(pod("high", "basalt-scheduler", 8, 1000, null, null, null));
        Await.until("high nominated to n1", WAIT, () -> "n1".equals(nominated(server, "high")));
        Await.until("both victims evicted", WAIT, () -> terminating(server, "low-a") && terminating(server, "low-b"));
        assertNull(nodeOf(server, "high"), "the victims are still there");

        server.delete(Resources.PODS, "ml", "low-a"); // half the node is free now
        server.seed(pod("filler", "basalt-scheduler", 4, 0, null, null, null));
        Await.until("filler told why it waits", WAIT, () -> unschedulable(server, "filler"));
        assertNull(nodeOf(server, "filler"), "the free half of n1 is held for high");
        assertEquals("n1", nominated(server, "high"));

        server.delete(Resources.PODS, "ml", "low-b");
        Await.until("high bound", WAIT, () -> "n1".equals(nodeOf(server, "high")));
        assertNull(nominated(server, "high"), "the binding clears it");
        assertNull(nodeOf(server, "filler"));
        assertEquals(0, run.stop());
      }
    }
  }

  /**
   * With overcommit admitting jobs, a preemptor is not sent back through enqueue while its victims terminate: their
   * GPUs still count as used (and a releasing victim's job as unplaced need), so it would be refused admission and
   * lose its place until they were gone. A job holding a nomination opens admitted.
   */
  @Test
  void aPreemptorStaysAdmittedWhileItsVictimsTerminate(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.builder().gracefulPodDeletion(true).start()) {
      server.seed(node("n1", 8));
      server.seed(pod("low-a", "basalt-scheduler", 4, 0, "n1", null, null));
      server.seed(pod("low-b", "basalt-scheduler", 4, 0, "n1", null, null));
      try (LiveRun run = LiveRun.start(server, dir, "--config", conf(dir, OVERCOMMIT))) {
        server.seed(pod("high", "basalt-scheduler", 8, 1000, null, null, null));
        Await.until("both victims evicted", WAIT, () -> terminating(server, "low-a") && terminating(server, "low-b"));
        // Cycles run every 100ms: several see high nominated with both victims still terminating.
        Await.until("high told it waits", WAIT, () -> unschedulable(server, "high"));
        Thread.sleep(1000);
        String status = server.get(Resources.PODS, "ml", "high").getAsJsonObject("status").toString();
        assertFalse(status.contains("overcommitted"), "high was sent back through enqueue: " + status);
        assertEquals("n1", nominated(server, "high"));

        server.delete(Resources.PODS, "ml", "low-a");
        server.delete(Resources.PODS, "ml", "low-b");
        Await.until("high bound", WAIT, () -> "n1".equals(nodeOf(server, "high")));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aNominationSurvivesARestartAndIsClearedWhenItsNodeCanNoLongerTakeThePod(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.builder().gracefulPodDeletion(true).start()) {
      server.seed(node("n1", 8));
      JsonObject victim = pod("victim", "basalt-scheduler", 4, 0, "n1", null, "2026-01-01T00:00:00Z");
      victim.getAsJsonObject("metadata").addProperty("deletionTimestamp", "2099-01-01T00:00:00Z");
      victim.getAsJsonObject("metadata").addProperty("deletionGracePeriodSeconds", 30);
      server.seed(victim);
      // As an earlier Basalt left them: high nominated to n1; filler, older, would fit the free half.
      server.seed(pod("filler", "basalt-scheduler", 4, 0, null, null, "2026-01-01T00:01:00Z"));
      server.seed(pod("high", "basalt-scheduler", 8, 1000, null, "n1", "2026-01-01T00:02:00Z"));
      try (LiveRun run = LiveRun.start(server, dir, "--config", conf(dir, BY_AGE))) {
        Await.until("filler told why it waits", WAIT, () -> unschedulable(server, "filler"));
        Await.until("high told it waits on n1", WAIT, () -> unschedulable(server, "high"));
        assertNull(nodeOf(server, "filler"), "the free half of n1 is still held for high");
        assertEquals("n1", nominated(server, "high"));

        server.mergePatch(Resources.NODES, null, "n1",
            "{\"spec\":{\"taints\":[{\"key\":\"maintenance\",\"effect\":\"NoSchedule\"}]}}");
        Await.until("the hold dropped and its nomination cleared", WAIT, () -> nominated(server, "high") == null);
        assertNull(nodeOf(server, "high"));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void roomAnotherSchedulerNominatedToItsPodIsLeftToIt(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("n1", 8));
      server.seed(pod("theirs", "default-scheduler", 8, 1000, null, "n1", null));
      server.seed(pod("ours", "basalt-scheduler", 8, 0, null, null, null));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("ours told why it waits", WAIT, () -> unschedulable(server, "ours"));
        assertNull(nodeOf(server, "ours"), "n1 is promised to ml/theirs");
        assertEquals("n1", nominated(server, "theirs"), "another scheduler's nomination is not ours to touch");

        server.mergePatch(Resources.PODS, "ml", "theirs", "{\"status\":{\"nominatedNodeName\":null}}");
        Await.until("ours bound once the promise is withdrawn", WAIT, () -> "n1".equals(nodeOf(server, "ours")));
        assertEquals(0, run.stop());
      }
    }
  }

  private static String conf(Path dir, String text) throws Exception {
    return Files.writeString(dir.resolve("basalt.conf"), text).toString();
  }

  /** A pod in ml with {@code gpus} GPUs and {@code priority}, on {@code node} (running) or pending. */
  private static JsonObject pod(String name, String scheduler, int gpus, int priority, String node, String nominated,
      String created) {
    JsonObject p = com.google.gson.JsonParser.parseString(LiveRun.pod(name, scheduler, gpus, null)).getAsJsonObject();
    JsonObject spec = p.getAsJsonObject("spec");
    spec.addProperty("priority", priority);
    JsonObject status = new JsonObject();
    if (node != null) {
      spec.addProperty("nodeName", node);
      status.addProperty("phase", "Running");
    } else {
      status.addProperty("phase", "Pending");
    }
    if (nominated != null) {
      status.addProperty("nominatedNodeName", nominated);
    }
    if (created != null) {
      p.getAsJsonObject("metadata").addProperty("creationTimestamp", created);
    }
    p.add("status", status);
    return p;
  }

  private static String nominated(FakeApiServer server, String pod) {
    JsonObject p = server.get(Resources.PODS, "ml", pod);
    JsonElement n = p == null || !p.has("status") ? null : p.getAsJsonObject("status").get("nominatedNodeName");
    return n == null || n.isJsonNull() ? null : n.getAsString();
  }

  private static boolean terminating(FakeApiServer server, String pod) {
    JsonObject p = server.get(Resources.PODS, "ml", pod);
    return p == null || p.getAsJsonObject("metadata").has("deletionTimestamp");
  }

  private static boolean unschedulable(FakeApiServer server, String pod) {
    JsonObject status = server.get(Resources.PODS, "ml", pod).getAsJsonObject("status");
    return status != null && status.has("conditions") && status.toString().contains("\"Unschedulable\"");
  }
}
