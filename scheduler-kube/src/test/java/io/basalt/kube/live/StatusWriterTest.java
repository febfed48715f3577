package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.basalt.api.PodGroupPhase;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.model.Pod;
import io.basalt.session.SessionResult;
import io.basalt.testing.Await;
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusWriterTest {
  private static SessionResult pending(Pod pod, String reason, String groupPhase) {
    return new SessionResult(List.of(), List.of(), List.of(new SessionResult.PendingPod(pod, reason, null, "default")),
        groupPhase == null ? List.of()
            : List.of(new SessionResult.JobStatus("ml/g", false, PodGroupPhase.of(groupPhase), 2, 0, List.of(
                new io.basalt.api.JobCondition("Unschedulable", "True", "NotEnoughResources", reason)))),
        List.of(new SessionResult.QueueStatus("team-a", 1, null,
            io.basalt.model.ResourceVector.parse(java.util.Map.of("nvidia.com/gpu", "4")), false, 1, 2, 3)));
  }

  @Test
  void pendingPodsGetAnUnschedulableConditionWrittenOnlyWhenItChanges() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ml\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
      server.seed("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\","
          + "\"metadata\":{\"name\":\"g\",\"namespace\":\"ml\"},\"spec\":{\"minMember\":2}}");
      server.seed("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\","
          + "\"metadata\":{\"name\":\"team-a\"},\"spec\":{\"weight\":1}}");
      StatusWriter writer = new StatusWriter(server.apiClient());
      Pod pod = TestPods.pod("ml/p").build();
      String reason = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.";
      writer.update(pending(pod, reason, "Inqueue"));
      writer.update(pending(pod, reason, "Inqueue"));
      writer.close();
      JsonObject stored = server.get(Resources.PODS, "ml", "p");
      JsonArray conditions = stored.getAsJsonObject("status").getAsJsonArray("conditions");
      JsonObject scheduled = conditions.get(0).getAsJsonObject();
      assertEquals("PodScheduled", scheduled.get("type").getAsString());
      assertEquals("False", scheduled.get("status").getAsString());
      assertEquals("Unschedulable", scheduled.get("reason").getAsString());
      assertEquals(reason, scheduled.get("message").getAsString());
      assertEquals(1, server.requests("PATCH", ".*/pods/p/status").size(), "written once, not every cycle");
      assertEquals("application/strategic-merge-patch+json",
          server.requests("PATCH", ".*/pods/p/status").get(0).contentType());
      JsonObject pg = server.get(Resources.PODGROUPS, "ml", "g").getAsJsonObject("status");
      assertEquals("Inqueue", pg.get("phase").getAsString());
      assertEquals("NotEnoughResources", pg.getAsJsonArray("conditions").get(0).getAsJsonObject()
          .get("reason").getAsString());
      JsonObject queue = server.get(Resources.QUEUES, null, "team-a").getAsJsonObject("status");
      assertEquals("4", queue.getAsJsonObject("allocated").get("nvidia.com/gpu").getAsString());
      assertEquals(3, queue.get("running").getAsInt());
      List<com.google.gson.JsonObject> events = server.list(Resources.EVENTS, "ml");
      assertEquals(1, events.size(), "one FailedScheduling event, not one per cycle");
      assertEquals("FailedScheduling", events.get(0).get("reason").getAsString());
      assertEquals("Warning", events.get(0).get("type").getAsString());
      assertEquals(reason, events.get(0).get("message").getAsString());
      assertEquals("p", events.get(0).getAsJsonObject("involvedObject").get("name").getAsString());
    }
  }

  @Test
  void aFailedWriteIsRetriedAtTheNextChange() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ml\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
      server.faults().failNext(1, 500, "PATCH", ".*/pods/p/status");
      StatusWriter writer = new StatusWriter(server.apiClient());
      Pod pod = TestPods.pod("ml/p").build();
      writer.update(pending(pod, "first", null));
      assertTrue(writer.awaitWrites(Duration.ofSeconds(5)), "the first write done (and failed)");
      assertEquals(1, server.requests("PATCH", ".*/pods/p/status").size());
      writer.update(pending(pod, "first", null));
      writer.close();
      assertTrue(server.requests("PATCH", ".*/pods/p/status").size() >= 2, "the failed write is tried again");
    }
  }

  @Test
  void aBurstOfEventsBeyondTheQueueIsDroppedNotHeld() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      // The API server takes two seconds per event: a few are in flight, a queue's worth waits, the rest is dropped.
      server.faults().delayNextMatching(Integer.MAX_VALUE, Duration.ofSeconds(2),
          r -> r.path().endsWith("/events"));
      StatusWriter writer = new StatusWriter(server.apiClient());
      Pod pod = TestPods.pod("ml/p").build();
      for (int i = 0; i < EventSender.SENDERS + EventSender.QUEUE + 10; i++) {
        writer.bound(pod, "n1");
      }
      // Scheduled (Normal) events fill the queue only up to the part kept for Warnings.
      assertEquals(EventSender.QUEUE / 5 + 10, writer.eventsDropped());
      writer.close();
      assertTrue(server.requests("POST", ".*/events").size() < EventSender.QUEUE,
          "close gives events a few seconds, then drops the rest");
    }
  }
}
