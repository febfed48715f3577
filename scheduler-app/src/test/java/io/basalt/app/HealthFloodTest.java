package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The health port under a connection flood: probes keep answering within kubelet's default 1 s timeout. */
@Timeout(60)
class HealthFloodTest {
  static final int FLOODERS = 40;
  static final int PROBES = 20;
  /** kubelet's default {@code timeoutSeconds}. */
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

  /**
   * {@link #FLOODERS} clients each connecting, sending half a request and, once the server has closed it,
   * reconnecting at once, while {@link #PROBES} probes are made as kubelet makes them; the probes that did not get a
   * 200 within {@link #PROBE_TIMEOUT}, each with why.
   */
  static List<String> failedProbesUnderFlood(int port) throws Exception {
    AtomicBoolean flooding = new AtomicBoolean(true);
    AtomicLong stalls = new AtomicLong();
    ExecutorService flood = Executors.newFixedThreadPool(FLOODERS);
    List<String> failed = new ArrayList<>();
    try {
      for (int i = 0; i < FLOODERS; i++) {
        flood.submit(() -> {
          while (flooding.get()) {
            try (Socket s = new Socket()) {
              s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
              s.getOutputStream().write("GET /metr".getBytes(StandardCharsets.US_ASCII));
              stalls.incrementAndGet();
              s.setSoTimeout(5000);
              InputStream in = s.getInputStream();
              while (in.read() >= 0) {
                // until the server gives up on us
              }
            } catch (IOException e) {
              // refused, reset or timed out: reconnect
            }
          }
          return null;
        });
      }
      Thread.sleep(500); // the flood is on
      for (int i = 0; i < PROBES; i++) {
        String why = probe(port);
        if (why != null) {
          failed.add("probe " + i + ": " + why);
        }
        Thread.sleep(100);
      }
      if (stalls.get() < FLOODERS) {
        failed.add("the flood did not happen: " + stalls.get() + " stalled requests");
      }
    } finally {
      flooding.set(false);
      flood.shutdownNow();
      flood.awaitTermination(10, TimeUnit.SECONDS);
    }
    return failed;
  }

  /** A kubelet-like GET /healthz on a new connection, all within the probe timeout; null when it got a 200. */
  private static String probe(int port) {
    long start = System.nanoTime();
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), (int) PROBE_TIMEOUT.toMillis());
      s.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 10.0.0.7:8080\r\nUser-Agent: kube-probe/1.32\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      StringBuilder line = new StringBuilder();
      InputStream in = s.getInputStream();
      while (line.indexOf("\r\n") < 0) {
        int left = (int) (PROBE_TIMEOUT.toMillis() - (System.nanoTime() - start) / 1_000_000);
        if (left <= 0) {
          return "no answer within " + PROBE_TIMEOUT.toMillis() + " ms";
        }
        s.setSoTimeout(left);
        int b = in.read();
        if (b < 0) {
          return "closed without an answer after " + (System.nanoTime() - start) / 1_000_000 + " ms";
        }
        line.append((char) b);
      }
      return line.toString().startsWith("HTTP/1.1 200") ? null : line.toString().trim();
    } catch (IOException e) {
      return e + " after " + (System.nanoTime() - start) / 1_000_000 + " ms";
    }
  }

  @Test
  void probesAnswerWithinKubeletsTimeoutWhileFortyClientsFloodThePort() throws Exception {
    try (HealthServer s = new HealthServer("127.0.0.1:0", new SchedulerProbes(() -> true, () -> "built-in default",
        () -> SchedulerProbes.LoopState.IDLE, Duration.ofMinutes(2)), new SchedulerMetrics(), HealthServer.LOCAL)) {
      assertEquals(List.of(), failedProbesUnderFlood(s.port()));
    }
  }
}
