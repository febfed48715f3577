package io.basalt.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
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
 *
 * <p>Exchanges run on {@link HealthExecutor}'s few threads with a read timeout, so clients that send half a request
 * and stall (a port scanner, a broken scraper) delay the probes by {@link #REQUEST_TIMEOUT} per pool-full of them
 * queued ahead, never block them.
 */
final class HealthServer implements AutoCloseable {
  /** How long a request line and headers may take to arrive; kubelet and Prometheus send theirs at once. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
  /** How long one exchange may take in all, writing a large /metrics page to a slow scraper included. */
  static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(10);

  private final HttpServer server;
  private final HealthExecutor executor = new HealthExecutor(REQUEST_TIMEOUT, EXCHANGE_TIMEOUT);

  /**
   * @param address {@code host:port} or {@code :port}; port 0 picks a free one
   * @param config which config is in force, for /readyz's body (readiness never fails on it: a rollout of a bad
   *     config must not stall with the old pods gone)
   * @param cycleAge how long the cycle in progress has run (zero between cycles and on a standby)
   * @param stuck the age past which /healthz fails
   */
  HealthServer(String address, BooleanSupplier ready, Supplier<String> config, Supplier<Duration> cycleAge,
      Duration stuck, SchedulerMetrics metrics) throws IOException {
    int colon = address.lastIndexOf(':');
    String host = colon <= 0 ? "0.0.0.0" : address.substring(0, colon);
    int port = Integer.parseInt(address.substring(colon + 1));
    server = HttpServer.create(new InetSocketAddress(host, port), 0);
    server.setExecutor(executor);
    route("/healthz", ex -> {
      Duration age = cycleAge.get();
      if (age.compareTo(stuck) > 0) {
        reply(ex, 500, "scheduling cycle running for " + age.toSeconds() + "s (limit " + stuck.toSeconds() + "s)");
      } else {
        reply(ex, 200, "ok");
      }
    });
    route("/readyz", ex -> {
      boolean ok = ready.getAsBoolean();
      reply(ex, ok ? 200 : 503, (ok ? "ok" : "informers not synced") + "; config: " + config.get());
    });
    route("/metrics", ex -> {
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

  /** A handler runs once the request line and headers are in: from then on only the exchange deadline applies. */
  private void route(String path, HttpHandler handler) {
    server.createContext(path, ex -> {
      HealthExecutor.requestArrived();
      handler.handle(ex);
    });
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
    executor.close();
  }

  private static void reply(HttpExchange ex, int code, String body) throws IOException {
    byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
