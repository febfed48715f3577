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
 * reply (an object, a list, a Status, or a watch stream). Every failure leaves as a Status with its HTTP code; a fault
 * may also serve the request and then answer an error (the client cannot tell it was applied), or close the
 * connection with no answer at all.
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
      Faults.Action fault = faults.check(request).orElse(null);
      if (fault != null && fault.noAnswer()) {
        exchange.close(); // no headers sent: the JDK server drops the connection, as an API server that is down
        return;
      }
      if (fault != null && fault.error() != null && !fault.applyFirst()) {
        throw fault.error();
      }
      if (fault != null) {
        pause(fault.delay());
      }
      Reply reply = dispatch(exchange, request);
      if (fault != null && fault.applyFirst()) {
        throw fault.error(); // served, and the answer lost
      }
      if (reply != null) {
        respond(exchange, reply.code(), reply.raw() != null ? reply.raw() : Json.write(reply.body()));
      }
    } catch (ApiError e) {
      e.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
      respond(exchange, e.code(), Json.write(e.status()));
    } catch (RuntimeException e) {
      respond(exchange, 500, Json.write(Statuses.internal(e.toString()).status()));
    }
  }

  /** A reply not yet written: a JSON object, or JSON text written as it is ({@code raw}, a LIST). */
  private record Reply(int code, JsonObject body, String raw) {
    Reply(int code, JsonObject body) {
      this(code, body, null);
    }
  }

  /** Serves the request; null when it was a watch, whose stream is written here. */
  private Reply dispatch(HttpExchange exchange, RecordedRequest request) throws IOException {
    String method = request.method();
    Optional<JsonObject> discovery = Discovery.document(request.path(), hostPort.get());
    if (discovery.isPresent()) {
      requireMethod(method, "GET");
      return new Reply(200, discovery.get());
    }
    Route r = Route.parse(request.path()).orElseThrow(Statuses::pathNotFound);
    Map<String, String> q = request.queryParams();
    if ("bindings".equals(r.subresource())) {
      requireMethod(method, "POST");
      return new Reply(201, pods.bind(r.namespace(), null, request.body()));
    }
    if ("All".equals(q.get("dryRun")) && "POST".equals(method) && r.type().equals(Resources.PODS)
        && "binding".equals(r.subresource()) && r.name() != null) {
      return new Reply(201, pods.bindDryRun(r.namespace(), r.name(), request.body()));
    }
    if (q.containsKey("dryRun")) {
      throw Statuses.badRequest("fake API server: dryRun is supported on pods/binding only");
    }
    if (r.name() == null) {
      switch (method) {
        case "GET" -> {
          if ("true".equals(q.get("watch")) || "1".equals(q.get("watch"))) {
            ops.watch(exchange, r, q);
            return null;
          }
          return new Reply(200, null, ops.list(r, q));
        }
        case "POST" -> {
          return new Reply(201, ops.create(r, request.body()));
        }
        default -> throw Statuses.methodNotAllowed();
      }
    }
    String sub = r.subresource();
    if (sub == null || (sub.equals("status") && r.type().hasStatusSubresource())) {
      WriteMode mode = sub == null ? WriteMode.OBJECT : WriteMode.STATUS;
      return switch (method) {
        case "GET" -> new Reply(200, ops.get(r));
        case "PUT" -> new Reply(200, ops.update(r, request.body(), mode));
        case "PATCH" -> new Reply(200, ops.patch(r, request.contentType(), request.body(), mode));
        case "DELETE" -> {
          if (sub != null) {
            throw Statuses.methodNotAllowed();
          }
          yield new Reply(200, ops.delete(r, q, request.body()));
        }
        default -> throw Statuses.methodNotAllowed();
      };
    }
    if (r.type().equals(Resources.PODS) && (sub.equals("binding") || sub.equals("eviction"))) {
      requireMethod(method, "POST");
      return new Reply(201, sub.equals("binding") ? pods.bind(r.namespace(), r.name(), request.body())
          : pods.evict(r.namespace(), r.name(), request.body()));
    }
    throw Statuses.pathNotFound();
  }

  private static void requireMethod(String method, String allowed) {
    if (!method.equals(allowed)) {
      throw Statuses.methodNotAllowed();
    }
  }

  private static void respond(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
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
