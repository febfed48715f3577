package io.basalt.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * {@code /metrics}, {@code /healthz} and {@code /readyz} of {@code basalt run} on one port ({@link HealthPort}); what
 * the probes answer is {@link SchedulerProbes}' call.
 *
 * <p>The probes' detail (which config is in force and its problems, why a cycle failed) goes only to callers
 * {@code detailFor} accepts: by default loopback ones, as {@code kubectl exec ... curl localhost:8080/readyz}.
 * Everyone else, kubelet included, reads the status code and "ok", "not ready" or "not live".
 */
final class HealthServer implements AutoCloseable {
  /** How long a request line and headers may take to arrive; kubelet and Prometheus send theirs at once. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
  /** How long one exchange may take in all, writing a large /metrics page to a slow scraper included. */
  static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(10);

  /** The probes' detail for callers on this machine only (the default). */
  static final Predicate<InetAddress> LOCAL = InetAddress::isLoopbackAddress;
  /** The probes' detail for every caller ({@code --health-detail=all}). */
  static final Predicate<InetAddress> EVERYONE = a -> true;

  private final HealthPort port;

  /** @param address {@code host:port} or {@code :port}; port 0 picks a free one */
  HealthServer(String address, SchedulerProbes probes, SchedulerMetrics metrics, Predicate<InetAddress> detailFor)
      throws IOException {
    int colon = address.lastIndexOf(':');
    String host = colon <= 0 ? "0.0.0.0" : address.substring(0, colon);
    int portNumber = Integer.parseInt(address.substring(colon + 1));
    port = new HealthPort(new InetSocketAddress(host, portNumber), REQUEST_TIMEOUT, EXCHANGE_TIMEOUT, request -> {
      boolean detail = detailFor.test(request.remote());
      switch (request.path()) {
        case "/healthz":
          return answer(probes.live(), detail, 500, "not live");
        case "/readyz":
          return answer(probes.ready(), detail, 503, "not ready");
        case "/metrics":
          ByteArrayOutputStream buf = new ByteArrayOutputStream();
          metrics.write(buf);
          return new HealthPort.Response(200, metrics.contentType(), buf.toByteArray());
        default:
          return null;
      }
    });
  }

  private static HealthPort.Response answer(SchedulerProbes.Verdict v, boolean detail, int failure, String failed) {
    return HealthPort.Response.text(v.ok() ? 200 : failure, detail ? v.detail() : v.ok() ? "ok" : failed);
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
    return port.port();
  }

  @Override
  public void close() {
    port.close();
  }
}
