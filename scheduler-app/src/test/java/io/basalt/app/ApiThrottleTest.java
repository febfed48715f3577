package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ApiThrottleTest {
  @Test
  void burstGoesAtOnceThenRequestsWaitForTheRate() {
    ApiThrottle t = new ApiThrottle(10, 3);
    assertEquals(0, t.reserve());
    assertEquals(0, t.reserve());
    assertEquals(0, t.reserve());
    long wait = t.reserve();
    // The fourth request needs one token refilled at 10/s: about 100 ms.
    assertTrue(wait > Duration.ofMillis(80).toNanos() && wait <= Duration.ofMillis(100).toNanos(), "" + wait);
  }

  @Test
  void durationsReadAsKubernetesWritesThem() {
    io.basalt.app.cli.DurationConverter d = new io.basalt.app.cli.DurationConverter();
    assertEquals(Duration.ofSeconds(1), d.convert("1s"));
    assertEquals(Duration.ofMillis(500), d.convert("500ms"));
    assertEquals(Duration.ofMinutes(2), d.convert("2m"));
    assertEquals(Duration.ofSeconds(3), d.convert("PT3S"));
  }
}
