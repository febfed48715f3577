package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.kube.fake.FakeApiServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EventSenderTest {
  @Test
  void aBurstOfNormalEventsLeavesRoomForWarnings() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      // One sender, held two seconds per event: the queue fills with Normal events up to the Warnings' reserve.
      server.faults().delayNextMatching(1, Duration.ofSeconds(2), r -> r.path().endsWith("/events"));
      EventSender sender = new EventSender(server.apiClient(), 1);
      for (int i = 0; i < EventSender.QUEUE + 1; i++) {
        sender.send("Pod", "ml", "p" + i, null, "Normal", "Scheduled", "bound");
      }
      long droppedNormal = sender.dropped();
      sender.send("Pod", "ml", "stuck", null, "Warning", "FailedScheduling", "0/3 nodes are available");
      assertEquals(droppedNormal, sender.dropped(), "the Warning was queued, not dropped");
      assertEquals(EventSender.QUEUE / 5, droppedNormal);
      sender.close(0);
    }
  }
}
