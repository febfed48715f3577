package io.basalt.app;

import static io.basalt.app.LiveRun.bindingPosts;
import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static io.basalt.app.LiveRun.pod;
import static io.basalt.app.LiveRun.podGroup;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code basalt run} end to end against the in-repo fake API server: the happy paths and leader election. */
@Timeout(60)
class RunCommandTest {
  @Test
  void bindsOurPodsLeavesOthersAndGangsAllOrNothing(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 4));
      server.seed(pod("ours", "basalt-scheduler", 1, null));
      server.seed(pod("theirs", "default-scheduler", 1, null));
      server.seed(podGroup("big", 2));
      server.seed(pod("big-0", "basalt-scheduler", 3, "big"));
      server.seed(pod("big-1", "basalt-scheduler", 3, "big"));
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("ours bound", Duration.ofSeconds(20), () -> "gpu-1".equals(nodeOf(server, "ours")));
        Await.until("big-0 told why it waits", Duration.ofSeconds(20), () -> {
          JsonObject status = server.get(Resources.PODS, "ml", "big-0").getAsJsonObject("status");
          return status != null && status.has("conditions") && status.toString().contains("Unschedulable");
        });
        assertNull(nodeOf(server, "theirs"), "another scheduler's pod is left alone");
        assertNull(nodeOf(server, "big-0"), "3 + 3 GPUs never fit 4 - 1: the gang stays whole and pending");
        assertNull(nodeOf(server, "big-1"));
        String message = server.get(Resources.PODS, "ml", "big-0").getAsJsonObject("status").toString();
        assertTrue(message.contains("tasks in gang unschedulable"), message);
        assertEquals(200, run.get("/readyz").statusCode());
        HttpResponse<String> metrics = run.get("/metrics");
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("basalt_schedule_attempts_total{result=\"scheduled\"} 1"), metrics.body());
        assertTrue(metrics.body().contains("basalt_pending_pods{queue=\"default\"} 2"), metrics.body());
        assertTrue(metrics.body().contains("basalt_cycle_duration_seconds_count"), metrics.body());
        assertTrue(metrics.body().contains("basalt_binds_total 1"), metrics.body());
        assertTrue(metrics.body().contains("basalt_events_dropped_total 0"), metrics.body());
        Await.until("the bind's latency observed once it landed", Duration.ofSeconds(10),
            () -> run.metric("basalt_e2e_scheduling_duration_seconds_count") == 1);
        assertEquals(1, bindingPosts(server, "ours"), "bound once, not every cycle");
        Await.until("a Scheduled event", Duration.ofSeconds(10), () -> server.list(Resources.EVENTS, "ml").stream()
            .anyMatch(e -> e.get("reason").getAsString().equals("Scheduled")
                && e.get("message").getAsString().equals("Successfully assigned ml/ours to gpu-1")));
        Await.until("big's PodGroup status says why", Duration.ofSeconds(10), () -> String.valueOf(
            server.get(Resources.PODGROUPS, "ml", "big").get("status")).contains("NotEnoughResources"));
        assertEquals(0, run.stop());
      }
    }
  }

  /** A long lease: a standby that takes over quickly can only have been handed the Lease, not waited it out. */
  private static final String[] LEADER_ELECT = {"--leader-elect", "--lease-namespace", "kube-system",
      "--lease-name", "basalt", "--lease-duration", "60s", "--renew-deadline", "40s", "--retry-period", "200ms"};

  @Test
  void onlyTheLeaderBindsAndHandsTheLeaseOnOnlyAfterItsBindsLanded(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(pod("first", "basalt-scheduler", 1, null));
      try (LiveRun a = LiveRun.launch(server, dir, LEADER_ELECT)) {
        Await.until("a leads and binds", Duration.ofSeconds(20), () -> "gpu-1".equals(nodeOf(server, "first")));
        try (LiveRun b = LiveRun.start(server, dir, LEADER_ELECT)) {
          // a's binding of "second" takes two seconds; a is told to stop while it is in flight.
          server.faults().delayNextMatching(1, Duration.ofSeconds(2),
              r -> r.method().equals("POST") && r.path().endsWith("/pods/second/binding"));
          server.seed(pod("second", "basalt-scheduler", 1, null));
          Await.until("second's binding sent", Duration.ofSeconds(20), () -> bindingPosts(server, "second") == 1);
          Instant sent = server.requests("POST", ".*/pods/second/binding").get(0).receivedAt();
          assertEquals(0, a.stop(), "a SIGTERM'd leader exits 0");
          assertEquals("gpu-1", nodeOf(server, "second"), "the bind in flight landed before a exited");
          // A Lease is released by writing it without a holder (a second try when the first meets a 409).
          List<RecordedRequest> releases = leaseWrites(server).stream()
              .filter(r -> !r.json().getAsJsonObject().getAsJsonObject("spec").has("holderIdentity")).toList();
          assertTrue(!releases.isEmpty(), "a released the Lease");
          assertTrue(!releases.get(0).receivedAt().isBefore(sent.plusMillis(1900)),
              "the Lease was released only after the bind in flight finished");
          server.seed(pod("third", "basalt-scheduler", 1, null));
          Await.until("b took over at once, not after the 60s lease", Duration.ofSeconds(10),
              () -> "gpu-1".equals(nodeOf(server, "third")));
          for (String p : new String[] {"first", "second", "third"}) {
            assertEquals(1, bindingPosts(server, p), p + " bound exactly once");
          }
        }
      }
    }
  }

  @Test
  void aStandbyStopsPromptly(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(pod("first", "basalt-scheduler", 1, null));
      try (LiveRun a = LiveRun.launch(server, dir, LEADER_ELECT)) {
        Await.until("a leads and binds", Duration.ofSeconds(20), () -> "gpu-1".equals(nodeOf(server, "first")));
        try (LiveRun b = LiveRun.start(server, dir, LEADER_ELECT)) {
          long start = System.nanoTime();
          assertEquals(0, b.stop(), "a standby's SIGTERM is a clean exit");
          long millis = (System.nanoTime() - start) / 1_000_000;
          assertTrue(millis < 5000, "a standby holds nothing to finish: stopped in " + millis + " ms");
        }
      }
    }
  }

  private static List<RecordedRequest> leaseWrites(FakeApiServer server) {
    return server.requests("PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/basalt");
  }
}
