package io.basalt.app;

import static io.basalt.app.LiveRun.bindingPosts;
import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static io.basalt.app.LiveRun.pod;
import static io.basalt.app.LiveRun.podGroup;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt run} end to end when the API server misbehaves: watches cut, a racing scheduler, binds failing
 * mid-gang. What must hold every time: no pod lost, none bound twice, no gang left half-bound once the API answers.
 */
@Timeout(90)
class RunCommandFailureTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static Predicate<RecordedRequest> podWatch() {
    return r -> r.isWatch() && r.path().equals("/api/v1/pods");
  }

  @Test
  void aDroppedWatchReListsWithoutLosingPods(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 2));
      server.seed(pod("a", "basalt-scheduler", 1, null));
      server.seed(pod("b", "basalt-scheduler", 1, null));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("a and b bound", WAIT, () -> nodeOf(server, "a") != null && nodeOf(server, "b") != null);
        int listsBefore = podLists(server);
        // The cut: every watch breaks, the history is compacted so the re-watch gets 410 Gone, and the re-watch is
        // held back while the cluster changes: a finishes (deleted) and c arrives. Only a re-list shows both.
        server.faults().delayNextMatching(1, Duration.ofSeconds(1), podWatch());
        server.dropWatches();
        server.delete(Resources.PODS, "ml", "a");
        server.seed(pod("c", "basalt-scheduler", 1, null));
        server.compactHistory();
        Await.until("c bound into the GPU a freed", WAIT, () -> "gpu-1".equals(nodeOf(server, "c")));
        assertTrue(podLists(server) > listsBefore, "the informer re-listed pods");
        server.seed(pod("d", "basalt-scheduler", 1, null));
        Thread.sleep(1000);
        assertEquals(null, nodeOf(server, "d"), "b and c hold both GPUs: the cache did not lose b across the cut");
        assertEquals(1, bindingPosts(server, "b"), "b not bound again after the re-list");
        assertEquals(1, bindingPosts(server, "c"));
        server.delete(Resources.PODS, "ml", "b");
        Await.until("d bound once b is gone: the watch works again", WAIT, () -> nodeOf(server, "d") != null);
      }
    }
  }

  private static int podLists(FakeApiServer server) {
    return (int) server.requests("GET", "/api/v1/pods").stream().filter(r -> !r.isWatch()).count();
  }

  @Test
  void aRacingSchedulerWinsOneGangMemberWhichIsNeverBoundTwice(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 4));
      server.seed(node("gpu-2", 4));
      // Where the other scheduler puts its pod: tainted, so Basalt never picks it.
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"other\"},\"spec\":{"
          + "\"taints\":[{\"key\":\"team\",\"value\":\"other\",\"effect\":\"NoSchedule\"}]},\"status\":{"
          + "\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"4\"}}}");
      server.seed(podGroup("g", 3));
      for (int i = 0; i < 3; i++) {
        server.seed(pod("g-" + i, "basalt-scheduler", 2, "g"));
      }
      // Hold Basalt's binding of g-1; meanwhile another scheduler binds it elsewhere, so ours meets a 409.
      server.faults().delayNextMatching(1, Duration.ofSeconds(2),
          r -> r.method().equals("POST") && r.path().endsWith("/pods/g-1/binding"));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("Basalt's binding of g-1 sent", WAIT, () -> bindingPosts(server, "g-1") == 1);
        server.mergePatch(Resources.PODS, "ml", "g-1", "{\"spec\":{\"nodeName\":\"other\"}}");
        Await.until("g-0 and g-2 bound", WAIT, () -> nodeOf(server, "g-0") != null && nodeOf(server, "g-2") != null);
        Await.until("the lost race counted", WAIT, () -> run.metric("basalt_bind_failures_total") == 1);
        Thread.sleep(500);
        assertEquals("other", nodeOf(server, "g-1"), "the racing scheduler's binding stands");
        assertEquals(1, bindingPosts(server, "g-1"), "a 409 is checked, never retried blindly");
        assertEquals(1, bindingPosts(server, "g-0"));
        assertEquals(1, bindingPosts(server, "g-2"));
        assertNotEquals("other", nodeOf(server, "g-0"));
        // The GPUs Basalt had meant for g-1 are free again in its cache: 8 - 2 x 2 = 4 left, two 2-GPU pods fit;
        // had the cache kept g-1 where Basalt meant it, only one would.
        server.seed(pod("late-a", "basalt-scheduler", 2, null));
        server.seed(pod("late-b", "basalt-scheduler", 2, null));
        Await.until("both late pods bound into the room g-1 left", WAIT,
            () -> nodeOf(server, "late-a") != null && nodeOf(server, "late-b") != null);
      }
    }
  }

  @Test
  void aGangMemberWhoseBindFailsForGoodKeepsItsPlaceAndIsBoundOnce(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed("{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":"
          + "\"urgent\"},\"value\":1000}");
      server.seed(podGroup("g", 4));
      for (int i = 0; i < 4; i++) {
        server.seed(pod("g-" + i, "basalt-scheduler", 2, "g"));
      }
      // g-1: one 500, retried. g-3: 500 on every attempt the binder makes (5), so it goes back to pending and the
      // next cycle must place it again, with its three bound mates counted towards minMember.
      server.faults().failNext(1, 500, "POST", ".*/pods/g-1/binding");
      server.faults().failNext(5, 500, "POST", ".*/pods/g-3/binding");
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("g-3's first attempt", WAIT, () -> bindingPosts(server, "g-3") >= 1);
        // While g-3 is failing, a higher-priority pod wants exactly the room g-3 was placed in. It must not get it:
        // g-3's mates are bound and waiting for it.
        server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"intruder\",\"namespace\":"
            + "\"ml\"},\"spec\":{\"schedulerName\":\"basalt-scheduler\",\"priorityClassName\":\"urgent\","
            + "\"priority\":1000,\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":{"
            + "\"nvidia.com/gpu\":\"2\"}}}]}}");
        Await.until("the whole gang bound", WAIT, () -> List.of("g-0", "g-1", "g-2", "g-3").stream()
            .allMatch(p -> nodeOf(server, p) != null));
        assertEquals(0, server.faults().pending(), "every injected failure was met");
        assertEquals(1, bindingPosts(server, "g-0"));
        assertEquals(2, bindingPosts(server, "g-1"), "a 500 is retried");
        assertEquals(1, bindingPosts(server, "g-2"));
        assertEquals(6, bindingPosts(server, "g-3"), "five failed attempts, then placed again and bound once");
        assertEquals(0, bindingPosts(server, "intruder"), "the room held for g-3 was never offered to another pod");
        Await.until("four binds counted", WAIT, () -> run.metric("basalt_binds_total") == 4);
        assertNotNull(server.get(Resources.PODGROUPS, "ml", "g").getAsJsonObject("status"));
      }
    }
  }
}
