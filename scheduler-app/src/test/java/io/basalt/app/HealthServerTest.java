package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The health port: what liveness and readiness answer, and that slow clients cannot block them. */
@Timeout(60)
class HealthServerTest {
  private static HttpResponse<String> get(HealthServer s, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HealthServer server() throws IOException {
    return new HealthServer("127.0.0.1:0", new SchedulerProbes(() -> true, () -> "built-in default",
        () -> SchedulerProbes.LoopState.IDLE, Duration.ofMinutes(2)), new SchedulerMetrics(), HealthServer.LOCAL);
  }

  /** Connections that each sent the start of a request and then stall, as a broken scraper or a scanner does. */
  private static List<Socket> stall(HealthServer s, int count) throws IOException {
    List<Socket> sockets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Socket socket = new Socket("127.0.0.1", s.port());
      socket.getOutputStream().write("GET /metr".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      sockets.add(socket);
    }
    return sockets;
  }

  /**
   * Milliseconds from {@code startNanos} until the server closed each socket (end of stream or a reset), watched all
   * at once; fails if one stays open past {@code limit}.
   */
  private static List<Long> closeTimes(List<Socket> sockets, Duration limit, long startNanos) throws Exception {
    ExecutorService readers = Executors.newFixedThreadPool(sockets.size());
    try {
      List<Future<Long>> times = new ArrayList<>();
      for (Socket socket : sockets) {
        times.add(readers.submit(() -> {
          socket.setSoTimeout((int) limit.toMillis());
          try (InputStream in = socket.getInputStream()) {
            assertEquals(-1, in.read(), "nothing is answered to half a request");
          } catch (SocketTimeoutException e) {
            throw new AssertionError("a stalled connection still open after " + limit.toSeconds() + "s", e);
          } catch (IOException reset) {
            // closed with unread data: a reset, also closed
          }
          return (System.nanoTime() - startNanos) / 1_000_000;
        }));
      }
      List<Long> millis = new ArrayList<>();
      for (Future<Long> t : times) {
        millis.add(t.get());
      }
      return millis;
    } finally {
      readers.shutdownNow();
    }
  }

  @Test
  void clientsSendingHalfARequestAndStallingDoNotBlockTheProbes() throws Exception {
    try (HealthServer s = server()) {
      long start = System.nanoTime();
      List<Socket> stalled = stall(s, 6);
      try {
        Thread.sleep(200); // every stalled exchange has been handed to a thread or queued
        long asked = System.nanoTime();
        HttpResponse<String> health = get(s, "/healthz");
        long millis = (System.nanoTime() - asked) / 1_000_000;
        assertEquals(200, health.statusCode());
        assertTrue(millis < 2500, "/healthz behind " + stalled.size() + " stalled clients took " + millis + " ms");
        List<Long> closed = closeTimes(stalled, Duration.ofSeconds(10), start);
        assertTrue(closed.stream().allMatch(ms -> ms >= HealthServer.REQUEST_TIMEOUT.toMillis() - 100),
            "closed for stalling, not at once: " + closed);
        assertEquals(200, get(s, "/metrics").statusCode(), "the threads are free again");
      } finally {
        for (Socket socket : stalled) {
          socket.close();
        }
      }
    }
  }

  @Test
  void connectionsBeyondTheLimitCloseTheOldestStalledOnesSoNewcomersGetIn() throws Exception {
    // A request deadline far away, so only making room can close a stalled connection, however loaded the machine.
    try (HealthPort port = new HealthPort(new java.net.InetSocketAddress("127.0.0.1", 0), Duration.ofMinutes(1),
        Duration.ofMinutes(1), r -> HealthPort.Response.text(200, "ok"))) {
      int beyond = 4;
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < HealthPort.MAX_OPEN + beyond; i++) {
          Socket socket = new Socket("127.0.0.1", port.port());
          socket.getOutputStream().write("GET /metr".getBytes(StandardCharsets.US_ASCII));
          stalled.add(socket);
        }
        for (int i = 0; i < stalled.size(); i++) {
          Socket socket = stalled.get(i);
          socket.setSoTimeout(i < beyond ? 10_000 : 10);
          int read;
          try {
            read = socket.getInputStream().read();
          } catch (SocketTimeoutException e) {
            read = -2;
          } catch (IOException reset) {
            read = -1;
          }
          assertEquals(i < beyond ? -1 : -2, read, "socket " + i + (i < beyond ? " made room" : " stays open"));
        }
        Socket probe = new Socket("127.0.0.1", port.port());
        probe.getOutputStream().write("GET /healthz HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        probe.setSoTimeout(10_000);
        stalled.get(beyond).setSoTimeout(10_000);
        String answer = new String(probe.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer);
        assertTrue(stalled.get(beyond).isClosed() || stalled.get(beyond).getInputStream().read() == -1,
            "the probe made room by closing the oldest stalled connection left");
        probe.close();
      } finally {
        for (Socket socket : stalled) {
          socket.close();
        }
      }
    }
  }

  @Test
  void livenessFailsOnAStuckCycleAndReadinessFollowsTheInformers() throws Exception {
    AtomicBoolean synced = new AtomicBoolean(false);
    AtomicReference<Duration> age = new AtomicReference<>(Duration.ZERO);
    AtomicReference<String> config = new AtomicReference<>("ConfigMap kube-system/basalt (resourceVersion 7)");
    SchedulerProbes probes = new SchedulerProbes(synced::get, config::get,
        () -> new SchedulerProbes.LoopState(age.get(), 0, Duration.ZERO, null), Duration.ofMinutes(2));
    try (HealthServer s = new HealthServer("127.0.0.1:0", probes, new SchedulerMetrics(), HealthServer.LOCAL)) {
      HttpResponse<String> unsynced = get(s, "/readyz");
      assertEquals(503, unsynced.statusCode());
      assertEquals("informers not synced; config: ConfigMap kube-system/basalt (resourceVersion 7)\n",
          unsynced.body());
      synced.set(true);
      config.set("FALLBACK built-in default: broken");
      HttpResponse<String> ready = get(s, "/readyz");
      assertEquals(200, ready.statusCode(), "a config fallback keeps readiness, so a rollout is not stuck on it");
      assertEquals("ok; config: FALLBACK built-in default: broken\n", ready.body());
      assertEquals(200, get(s, "/healthz").statusCode());
      age.set(Duration.ofMinutes(3));
      HttpResponse<String> stuck = get(s, "/healthz");
      assertEquals(500, stuck.statusCode());
      assertTrue(stuck.body().contains("scheduling cycle running for 180s (limit 120s)"), stuck.body());
      assertEquals(200, get(s, "/metrics").statusCode());
      assertEquals(404, get(s, "/other").statusCode());
    }
  }

  @Test
  void failingCyclesMakeTheSchedulerNotReadyAndThenNotLive() throws Exception {
    AtomicReference<SchedulerProbes.LoopState> loop = new AtomicReference<>(SchedulerProbes.LoopState.IDLE);
    SchedulerProbes probes = new SchedulerProbes(() -> true, () -> "built-in default", loop::get,
        Duration.ofMinutes(2));
    try (HealthServer s = new HealthServer("127.0.0.1:0", probes, new SchedulerMetrics(), HealthServer.LOCAL)) {
      String cause = "java.lang.ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 1";
      loop.set(new SchedulerProbes.LoopState(Duration.ZERO, SchedulerProbes.FAILED_CYCLES - 1, Duration.ofSeconds(2),
          cause));
      assertEquals(200, get(s, "/readyz").statusCode(), "a failed cycle or two may be a passing API error");
      loop.set(new SchedulerProbes.LoopState(Duration.ZERO, SchedulerProbes.FAILED_CYCLES, Duration.ofSeconds(3),
          cause));
      HttpResponse<String> failing = get(s, "/readyz");
      assertEquals(503, failing.statusCode());
      assertEquals("last 3 scheduling cycles failed: " + cause + "; config: built-in default\n", failing.body());
      assertEquals(200, get(s, "/healthz").statusCode(), "live until cycles have failed for the limit");
      loop.set(new SchedulerProbes.LoopState(Duration.ZERO, 120, Duration.ofSeconds(121), cause));
      HttpResponse<String> dead = get(s, "/healthz");
      assertEquals(500, dead.statusCode());
      assertEquals("scheduling cycles failing for 121s (limit 120s): " + cause + "\n", dead.body());
      loop.set(new SchedulerProbes.LoopState(Duration.ZERO, 0, Duration.ZERO, cause));
      assertEquals(200, get(s, "/readyz").statusCode(), "one good cycle and it is ready again");
      assertEquals(200, get(s, "/healthz").statusCode());
    }
  }

  @Test
  void onlyAllowedCallersReadTheProbesDetail() throws Exception {
    AtomicBoolean synced = new AtomicBoolean(false);
    SchedulerProbes probes = new SchedulerProbes(synced::get, () -> "FALLBACK built-in default: line 3: bad tier",
        () -> new SchedulerProbes.LoopState(Duration.ofMinutes(5), 0, Duration.ZERO, null), Duration.ofMinutes(2));
    try (HealthServer s = new HealthServer("127.0.0.1:0", probes, new SchedulerMetrics(), a -> false)) {
      HttpResponse<String> notReady = get(s, "/readyz");
      assertEquals(503, notReady.statusCode());
      assertEquals("not ready\n", notReady.body(), "neither the config source nor its problems");
      HttpResponse<String> notLive = get(s, "/healthz");
      assertEquals(500, notLive.statusCode());
      assertEquals("not live\n", notLive.body());
      synced.set(true);
      assertEquals("ok\n", get(s, "/readyz").body());
    }
    assertTrue(HealthServer.LOCAL.test(InetAddress.getLoopbackAddress()));
    assertTrue(HealthServer.LOCAL.test(InetAddress.getByName("::1")));
    assertFalse(HealthServer.LOCAL.test(InetAddress.getByName("10.0.0.7")), "a pod or node address");
    assertTrue(HealthServer.EVERYONE.test(InetAddress.getByName("10.0.0.7")));
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
