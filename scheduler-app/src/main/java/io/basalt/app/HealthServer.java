package io.basalt.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * {@code /metrics}, {@code /healthz} and {@code /readyz} of {@code basalt run} on one port. Liveness fails when a
 * scheduling cycle has been running far longer than any should (a deadlock, a call without timeout), so the process
 * is restarted instead of silently no longer scheduling; readiness is the informers' sync, on the standby too, so
 * rollouts progress.
 */
final class HealthServer implements AutoCloseable {
  private final HttpServer server;

  /**
   * @param address {@code host:port} or {@code :port}; port 0 picks a free one
   * @param cycleAge how long the cycle in progress has run (zero between cycles and on a standby)
   * @param stuck the age past which /healthz fails
   */
  HealthServer(String address, BooleanSupplier ready, Supplier<Duration> cycleAge, Duration stuck,
      SchedulerMetrics metrics) throws IOException {
    int colon = address.lastIndexOf(':');
    String host = colon <= 0 ? "0.0.0.0" : address.substring(0, colon);
    int port = Integer.parseInt(address.substring(colon + 1));
    server = HttpServer.create(new InetSocketAddress(host, port), 0);
    server.createContext("/healthz", ex -> {
      Duration age = cycleAge.get();
      if (age.compareTo(stuck) > 0) {
        reply(ex, 500, "scheduling cycle running for " + age.toSeconds() + "s (limit " + stuck.toSeconds() + "s)");
      } else {
        reply(ex, 200, "ok");
      }
    });
    server.createContext("/readyz", ex -> {
      boolean ok = ready.getAsBoolean();
      reply(ex, ok ? 200 : 503, ok ? "ok" : "informers not synced");
    });
    server.createContext("/metrics", ex -> {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      metrics.write(buf);
      ex.getResponseHeaders().set("Content-Type", metrics.contentType());
      ex.sendResponseHeaders(200, buf.size());
      try (OutputStream out = ex.getResponseBody()) {
        buf.writeTo(out);
      }
    });
    server.start();
  }

  /** Whether {@code address} is {@code [host]:port} with a port number; for flag checking. */
  static boolean validAddress(String address) {
    int colon = address.lastIndexOf(':');
    if (colon < 0) {
      return false;
    }
    try {
      int port = Integer.parseInt(address.substring(colon + 1));
      return port >= 0 && port <= 65535;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private static void reply(HttpExchange ex, int code, String body) throws IOException {
    byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
