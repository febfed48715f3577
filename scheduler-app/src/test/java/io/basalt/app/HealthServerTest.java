package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class HealthServerTest {
  private static HttpResponse<String> get(HealthServer s, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void livenessFailsOnAStuckCycleAndReadinessFollowsTheInformers() throws Exception {
    AtomicBoolean synced = new AtomicBoolean(false);
    AtomicReference<Duration> age = new AtomicReference<>(Duration.ZERO);
    try (HealthServer s = new HealthServer("127.0.0.1:0", synced::get, age::get, Duration.ofMinutes(2),
        new SchedulerMetrics())) {
      assertEquals(503, get(s, "/readyz").statusCode());
      synced.set(true);
      assertEquals(200, get(s, "/readyz").statusCode());
      assertEquals(200, get(s, "/healthz").statusCode());
      age.set(Duration.ofMinutes(3));
      HttpResponse<String> stuck = get(s, "/healthz");
      assertEquals(500, stuck.statusCode());
      assertTrue(stuck.body().contains("scheduling cycle running for 180s (limit 120s)"), stuck.body());
      assertEquals(200, get(s, "/metrics").statusCode());
    }
  }

  @Test
  void addressesAreCheckedBeforeUse() {
    assertTrue(HealthServer.validAddress(":8080"));
    assertTrue(HealthServer.validAddress("127.0.0.1:0"));
    assertFalse(HealthServer.validAddress("8080"));
    assertFalse(HealthServer.validAddress(":http"));
    assertFalse(HealthServer.validAddress(":70000"));
  }
}
