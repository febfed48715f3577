package io.basalt.kube.fake;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One open watch: a queue of newline-delimited JSON watch events, {@code {"type":"ADDED","object":{...}}}, filled
 * under the store lock and written to the HTTP response (chunked, flushed per event) by the request's own thread.
 * Event shape and types ADDED/MODIFIED/DELETED/BOOKMARK/ERROR: apimachinery pkg/apis/meta/v1 {@code WatchEvent} and
 * the API concepts doc ("Efficient detection of changes", "Watch bookmarks").
 */
final class Watcher {
  private static final Object CLOSE = new Object();
  private static final Object ABORT = new Object();

  private final ResourceType type;
  private final String namespace;
  private final Predicate<JsonObject> filter;
  private final boolean bookmarks;
  private final Instant deadline;
  private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();

  /**
   * @param namespace null for a cluster-wide watch
   * @param timeout   the request's timeoutSeconds, or null to stay open until closed or dropped
   */
  Watcher(ResourceType type, String namespace, Predicate<JsonObject> filter, boolean bookmarks, Duration timeout) {
    this.type = type;
    this.namespace = namespace;
    this.filter = filter;
    this.bookmarks = bookmarks;
    this.deadline = timeout == null ? null : Instant.now().plus(timeout);
  }

  ResourceType type() {
    return type;
  }

  String namespace() {
    return namespace;
  }

  /** A synthetic ADDED for the current state (watch without resourceVersion, or from "0"). */
  void initial(JsonObject obj) {
    if (filter.test(obj)) {
      enqueue("ADDED", obj);
    }
  }

  /**
   * End of the initial events of a {@code sendInitialEvents=true} watch: a bookmark annotated
   * {@code k8s.io/initial-events-end: "true"} (KEP-3157, API concepts "Streaming lists").
   */
  void initialEventsEnd(long resourceVersion) {
    if (bookmarks) {
      JsonObject obj = bookmarkObject(resourceVersion);
      JsonObject annotations = new JsonObject();
      annotations.addProperty("k8s.io/initial-events-end", "true");
      Json.meta(obj).add("annotations", annotations);
      enqueue("BOOKMARK", obj);
    }
  }

  /** A too-old resourceVersion: one ERROR event carrying a 410 Expired Status, then the stream ends. */
  void expired(String message) {
    enqueue("ERROR", Statuses.expired(message).status());
    queue.add(CLOSE);
  }

  /**
   * Turns a write into what this watcher sees, by whether the object passed the selectors before and after it:
   * both → MODIFIED, only after → ADDED, only before → DELETED with the old content at the new resourceVersion
   * (apiserver storage/cacher/cache_watcher.go {@code convertToWatchEvent}).
   */
  void accept(StoreEvent e) {
    if (!e.resource().equals(type) || (namespace != null && !namespace.equals(Json.namespace(e.object())))) {
      return;
    }
    boolean deleted = e.type().equals("DELETED");
    boolean now = !deleted && filter.test(e.object());
    boolean before = e.previous() != null && filter.test(e.previous());
    if (deleted) {
      if (before) {
        enqueue("DELETED", e.object());
      }
    } else if (now && before) {
      enqueue("MODIFIED", e.object());
    } else if (now) {
      enqueue("ADDED", e.object());
    } else if (before) {
      JsonObject old = e.previous().deepCopy();
      Json.meta(old).addProperty("resourceVersion", Long.toString(e.resourceVersion()));
      enqueue("DELETED", old);
    }
  }

  /**
   * A BOOKMARK if the client asked for them (allowWatchBookmarks=true): the object carries only kind, apiVersion
   * and metadata.resourceVersion (API concepts doc, "Watch bookmarks").
   */
  void bookmark(long resourceVersion) {
    if (bookmarks) {
      enqueue("BOOKMARK", bookmarkObject(resourceVersion));
    }
  }

  /** Ends the stream: cleanly (terminating chunk, as at timeoutSeconds) or abruptly (connection reset). */
  void terminate(boolean abrupt) {
    queue.add(abrupt ? ABORT : CLOSE);
  }

  /**
   * A real server encodes a bookmark as an empty typed object with only the resourceVersion set, so Go's zero
   * values show: a Pod's is {@code "spec":{"containers":null},"status":{}} (kube-apiserver 1.32), a Job's carries
   * the same null inside its pod template. Clients that validate it as a full object fail on those nulls.
   */
  private JsonObject bookmarkObject(long resourceVersion) {
    JsonObject obj = new JsonObject();
    obj.addProperty("kind", type.kind());
    obj.addProperty("apiVersion", type.apiVersion());
    JsonObject meta = new JsonObject();
    meta.addProperty("resourceVersion", Long.toString(resourceVersion));
    obj.add("metadata", meta);
    if (type.equals(Resources.PODS)) {
      obj.add("spec", nullContainers());
      obj.add("status", new JsonObject());
    } else if (type.equals(Resources.JOBS)) {
      JsonObject template = new JsonObject();
      JsonObject templateMeta = new JsonObject();
      templateMeta.add("creationTimestamp", com.google.gson.JsonNull.INSTANCE);
      template.add("metadata", templateMeta);
      template.add("spec", nullContainers());
      JsonObject spec = new JsonObject();
      spec.add("template", template);
      obj.add("spec", spec);
      obj.add("status", new JsonObject());
    }
    return obj;
  }

  private static JsonObject nullContainers() {
    JsonObject spec = new JsonObject();
    spec.add("containers", com.google.gson.JsonNull.INSTANCE);
    return spec;
  }

  private void enqueue(String eventType, JsonObject obj) {
    JsonObject event = new JsonObject();
    event.addProperty("type", eventType);
    event.add("object", obj); // written at once, and events' objects are never changed
    queue.add(Json.write(event) + "\n");
  }

  /**
   * Streams events until the timeout (clean end), a {@link #terminate} or a write failure. An abrupt end throws
   * out of the handler, which makes the JDK server close the connection without the terminating chunk.
   */
  void serve(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.getResponseHeaders().set("Cache-Control", "no-cache, private");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    while (true) {
      long waitMillis = deadline == null ? 60_000 : Duration.between(Instant.now(), deadline).toMillis();
      if (waitMillis <= 0) {
        out.close();
        return;
      }
      Object item;
      try {
        item = queue.poll(waitMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("fake API server stopping", e);
      }
      if (item == CLOSE) {
        out.close();
        return;
      }
      if (item == ABORT) {
        throw new IOException("fake API server: watch connection dropped");
      }
      if (item != null) {
        out.write(((String) item).getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    }
  }
}
