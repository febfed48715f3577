package io.basalt.kube.fake;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.basalt.kube.fake.ObjectStore.WriteMode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The one HTTP handler: logs the request, applies latency and injected faults, routes it to a verb, and writes the
 * reply (an object, a list, a Status, or a watch stream). Every failure leaves as a Status with its HTTP code.
 */
final class ApiHandler implements HttpHandler {
  private final ResourceOps ops;
  private final PodSubresources pods;
  private final Faults faults;
  private final List<RecordedRequest> log;
  private final Supplier<String> hostPort;

  ApiHandler(ResourceOps ops, PodSubresources pods, Faults faults, List<RecordedRequest> log,
      Supplier<String> hostPort) {
    this.ops = ops;
    this.pods = pods;
    this.faults = faults;
    this.log = log;
    this.hostPort = hostPort;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, String> headers = new TreeMap<>();
    exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT),
        v.isEmpty() ? "" : v.get(0)));
    RecordedRequest request = new RecordedRequest(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
        query == null ? "" : query, contentType == null ? "" : contentType, body, Map.copyOf(headers),
        Instant.now());
    log.add(request);
    try {
      pause(faults.latency());
      Optional<Faults.Action> fault = faults.check(request);
      if (fault.isPresent()) {
        if (fault.get().error() != null) {
          throw fault.get().error();
        }
        pause(fault.get().delay());
      }
      dispatch(exchange, request);
    } catch (ApiError e) {
      e.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
      respond(exchange, e.code(), e.status());
    } catch (RuntimeException e) {
      respond(exchange, 500, Statuses.internal(e.toString()).status());
    }
  }

  private void dispatch(HttpExchange exchange, RecordedRequest request) throws IOException {
    String method = request.method();
    Optional<JsonObject> discovery = Discovery.document(request.path(), hostPort.get());
    if (discovery.isPresent()) {
      requireMethod(method, "GET");
      respond(exchange, 200, discovery.get());
      return;
    }
    Route r = Route.parse(request.path()).orElseThrow(Statuses::pathNotFound);
    Map<String, String> q = request.queryParams();
    if ("bindings".equals(r.subresource())) {
      requireMethod(method, "POST");
      respond(exchange, 201, pods.bind(r.namespace(), null, request.body()));
      return;
    }
    if (q.containsKey("dryRun")) {
      throw Statuses.badRequest("fake API server: dryRun is not supported");
    }
    if (r.name() == null) {
      switch (method) {
        case "GET" -> {
          if ("true".equals(q.get("watch")) || "1".equals(q.get("watch"))) {
            ops.watch(exchange, r, q);
          } else {
            respond(exchange, 200, ops.list(r, q));
          }
        }
        case "POST" -> respond(exchange, 201, ops.create(r, request.body()));
        default -> throw Statuses.methodNotAllowed();
      }
      return;
    }
    String sub = r.subresource();
    if (sub == null || (sub.equals("status") && r.type().hasStatusSubresource())) {
      WriteMode mode = sub == null ? WriteMode.OBJECT : WriteMode.STATUS;
      switch (method) {
        case "GET" -> respond(exchange, 200, ops.get(r));
        case "PUT" -> respond(exchange, 200, ops.update(r, request.body(), mode));
        case "PATCH" -> respond(exchange, 200, ops.patch(r, request.contentType(), request.body(), mode));
        case "DELETE" -> {
          if (sub != null) {
            throw Statuses.methodNotAllowed();
          }
          respond(exchange, 200, ops.delete(r, q, request.body()));
        }
        default -> throw Statuses.methodNotAllowed();
      }
      return;
    }
    if (r.type().equals(Resources.PODS) && (sub.equals("binding") || sub.equals("eviction"))) {
      requireMethod(method, "POST");
      respond(exchange, 201, sub.equals("binding") ? pods.bind(r.namespace(), r.name(), request.body())
          : pods.evict(r.namespace(), r.name(), request.body()));
      return;
    }
    throw Statuses.pathNotFound();
  }

  private static void requireMethod(String method, String allowed) {
    if (!method.equals(allowed)) {
      throw Statuses.methodNotAllowed();
    }
  }

  private static void respond(HttpExchange exchange, int code, JsonObject body) throws IOException {
    byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.getResponseHeaders().set("Cache-Control", "no-cache, private");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void pause(Duration latency) {
    if (latency.isZero() || latency.isNegative()) {
      return;
    }
    try {
      Thread.sleep(latency.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
