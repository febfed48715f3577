package io.basalt.app.topology;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A one-node API server on 127.0.0.1 (ephemeral port) that records every request: GET and PATCH
 * /api/v1/nodes/NAME, the PATCH applied as a JSON merge patch of metadata.annotations only. {@link #fail} makes every
 * request answer with an error Status instead.
 */
final class FakeApiServer implements AutoCloseable {
  /** One request as the server saw it. */
  record Request(String method, String path, String contentType, String body) {}

  private final HttpServer server;
  private final String node;
  private final List<Request> requests = new ArrayList<>();
  private final JsonObject annotations = new JsonObject();
  private int failWith;

  FakeApiServer(String node) throws IOException {
    this.node = node;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  ApiClient client() {
    return new ApiClient().setBasePath(url());
  }

  /** A kubeconfig pointing at this server, for the command's --kubeconfig. */
  Path kubeconfig(Path dir) throws IOException {
    Path p = dir.resolve("kubeconfig");
    Files.writeString(p, String.join("\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: fake",
        "  cluster: {server: '" + url() + "'}",
        "contexts:",
        "- name: fake",
        "  context: {cluster: fake, user: agent}",
        "current-context: fake",
        "users:",
        "- name: agent",
        "  user: {token: not-checked}",
        ""));
    return p;
  }

  synchronized void annotate(String key, String value) {
    annotations.addProperty(key, value);
  }

  synchronized String annotation(String key) {
    return annotations.has(key) ? annotations.get(key).getAsString() : null;
  }

  synchronized void fail(int status) {
    failWith = status;
  }

  synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange ex) throws IOException {
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String path = ex.getRequestURI().getPath();
    int status;
    String response;
    synchronized (this) {
      requests.add(new Request(ex.getRequestMethod(), path, ex.getRequestHeaders().getFirst("Content-Type"), body));
      if (failWith != 0) {
        status = failWith;
        response = status(failWith, "nodes \"" + node + "\" is forbidden: User \"system:serviceaccount:basalt:agent\""
            + " cannot patch resource \"nodes\"");
      } else if (!path.equals("/api/v1/nodes/" + node)) {
        status = 404;
        response = status(404, "nodes \"" + path.substring(path.lastIndexOf('/') + 1) + "\" not found");
      } else {
        if (ex.getRequestMethod().equals("PATCH")) {
          JsonObject patch = com.google.gson.JsonParser.parseString(body).getAsJsonObject();
          patch.getAsJsonObject("metadata").getAsJsonObject("annotations").entrySet()
              .forEach(e -> annotations.add(e.getKey(), e.getValue()));
        }
        status = 200;
        response = nodeJson();
      }
    }
    byte[] bytes = response.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (var out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private String nodeJson() {
    JsonObject metadata = new JsonObject();
    metadata.addProperty("name", node);
    metadata.addProperty("resourceVersion", "4711");
    JsonObject labels = new JsonObject();
    labels.addProperty("kubernetes.io/hostname", node);
    metadata.add("labels", labels);
    if (annotations.size() > 0) {
      metadata.add("annotations", annotations.deepCopy());
    }
    JsonObject n = new JsonObject();
    n.addProperty("apiVersion", "v1");
    n.addProperty("kind", "Node");
    n.add("metadata", metadata);
    return n.toString();
  }

  private static String status(int code, String message) {
    JsonObject s = new JsonObject();
    s.addProperty("kind", "Status");
    s.addProperty("apiVersion", "v1");
    s.addProperty("status", "Failure");
    s.addProperty("message", message);
    s.addProperty("code", code);
    return s.toString();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
