package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.model.Pod;
import io.basalt.session.SessionResult;
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link StatusWriter} writes a pending pod's nominated node when it differs from what the API shows, once. */
class StatusWriterNominationTest {
  private static final String REASON = "pipelined to node n1: waiting for resources being released";

  private static SessionResult pending(Pod pod, String reason, String nominated) {
    return new SessionResult(List.of(), List.of(), List.of(new SessionResult.PendingPod(pod, reason, nominated,
        "default")), List.of(), List.of());
  }

  private static String nominated(FakeApiServer server) {
    JsonObject status = server.get(Resources.PODS, "ml", "p").getAsJsonObject("status");
    return status == null || !status.has("nominatedNodeName") ? null : status.get("nominatedNodeName").getAsString();
  }

  @Test
  void writtenWithTheConditionOnceThenClearedWhenTheHoldGoes() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ml\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
      StatusWriter writer = new StatusWriter(server.apiClient());
      Pod pod = TestPods.pod("ml/p").build();
      writer.update(pending(pod, REASON, "n1"));
      assertTrue(writer.awaitWrites(Duration.ofSeconds(5)));
      assertEquals("n1", nominated(server));
      assertEquals(1, server.requests("PATCH", ".*/pods/p/status").size(), "condition and node in one patch");
      JsonObject sent = com.google.gson.JsonParser.parseString(
          server.requests("PATCH", ".*/pods/p/status").get(0).body()).getAsJsonObject().getAsJsonObject("status");
      assertTrue(sent.has("conditions") && sent.has("nominatedNodeName"), sent.toString());

      writer.update(pending(pod, REASON, "n1")); // the informer has not shown the write yet
      writer.update(pending(pod.withNominatedNodeName("n1"), REASON, "n1")); // now it has
      assertTrue(writer.awaitWrites(Duration.ofSeconds(5)));
      assertEquals(1, server.requests("PATCH", ".*/pods/p/status").size(), "written once");

      String later = "0/1 nodes are available: 1 Insufficient cpu.";
      writer.update(pending(pod.withNominatedNodeName("n1"), later, null)); // the hold lapsed
      writer.close();
      assertEquals(null, nominated(server));
      assertEquals(2, server.requests("PATCH", ".*/pods/p/status").size());
    }
  }

  @Test
  void aQueuedClearIsDroppedWhenTheCycleWantsWhatTheApiShowsAgain() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ml\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]},\"status\":{\"nominatedNodeName\":\"n1\"}}");
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"q\",\"namespace\":\"ml\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
      // q's write holds the writer thread, so p's writes wait in the queue while the next cycles come.
      server.faults().delayNextMatching(1, Duration.ofSeconds(1),
          r -> r.method().equals("PATCH") && r.path().endsWith("/pods/q/status"));
      StatusWriter writer = new StatusWriter(server.apiClient());
      Pod p = TestPods.pod("ml/p").build().withNominatedNodeName("n1");
      writer.update(pending(TestPods.pod("ml/q").build(), REASON, null));
      Thread.sleep(200);
      writer.update(pending(p, REASON, null)); // the hold went: a clear is queued
      writer.update(pending(p, REASON, "n1")); // held again before it went out
      writer.close();
      assertEquals("n1", nominated(server));
      JsonObject sent = com.google.gson.JsonParser.parseString(
          server.requests("PATCH", ".*/pods/p/status").get(0).body()).getAsJsonObject().getAsJsonObject("status");
      assertFalse(sent.has("nominatedNodeName"), sent.toString());
    }
  }

  @Test
  void aNominationLeftFromBeforeARestartIsClearedWhenNotHeldAndNothingIsWrittenWhenInStep() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ml\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]},\"status\":{\"nominatedNodeName\":\"n1\"}}");
      StatusWriter writer = new StatusWriter(server.apiClient());
      Pod pod = TestPods.pod("ml/p").build().withNominatedNodeName("n1");
      writer.update(pending(pod, REASON, "n1"));
      assertTrue(writer.awaitWrites(Duration.ofSeconds(5)));
      JsonObject sent = com.google.gson.JsonParser.parseString(
          server.requests("PATCH", ".*/pods/p/status").get(0).body()).getAsJsonObject().getAsJsonObject("status");
      assertFalse(sent.has("nominatedNodeName"), "the API already shows it: " + sent);
      writer.update(pending(pod, REASON, null));
      writer.close();
      assertEquals(null, nominated(server));
      assertEquals(2, server.requests("PATCH", ".*/pods/p/status").size(), "one more patch: the clear alone");
    }
  }
}
