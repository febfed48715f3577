package io.basalt.kube.fake;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.sun.net.httpserver.HttpExchange;
import io.basalt.kube.fake.ObjectStore.WriteMode;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/** The verbs on a kind's collection and objects: list, watch, get, create, update, patch, delete. */
final class ResourceOps {
  static final String MERGE_PATCH = "application/merge-patch+json";
  static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
  static final String JSON_PATCH = "application/json-patch+json";

  private final ObjectStore store;
  private final WatchHub hub;
  /** While set, lists and watches get 429 with Retry-After, as while the watch cache (re)initialises. */
  private volatile boolean storageInitializing;

  ResourceOps(ObjectStore store, WatchHub hub) {
    this.store = store;
    this.hub = hub;
  }

  /**
   * A {@code KindList}, written from the stored text: {"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion","continue",
   * "remainingItemCount"},"items":[...]} (apimachinery meta/v1 {@code ListMeta}; chunking per the API concepts doc,
   * "Retrieving large results sets in chunks"). Items of built-in kinds carry no kind/apiVersion, as the typed
   * encoder writes them; custom resources keep theirs (unstructured lists).
   */
  String list(Route r, Map<String, String> q) {
    checkStorageReady();
    if (q.containsKey("resourceVersionMatch") && q.get("resourceVersionMatch").equals("Exact")) {
      throw Statuses.badRequest("fake API server: resourceVersionMatch=Exact is not supported");
    }
    String labels = q.get("labelSelector");
    String fields = q.get("fieldSelector");
    Predicate<JsonObject> filter = Selectors.labels(labels).and(Selectors.fields(fields, r.type()));
    boolean selective = (labels != null && !labels.isBlank()) || (fields != null && !fields.isBlank());
    int limit = parseInt(q.get("limit"), "limit");
    String rv = q.get("resourceVersion");
    if (limit > 0 && rv != null && !rv.isEmpty() && !rv.equals("0") && !q.containsKey("continue")) {
      // A paginated list at a given resourceVersion is read from etcd at that revision: compacted means 410.
      store.requireRetained(parseLong(rv, "resourceVersion"));
    }
    ObjectStore.Page page = store.list(r.type(), r.namespace(), filter, selective, limit, q.get("continue"));
    JsonObject meta = new JsonObject();
    meta.addProperty("resourceVersion", Long.toString(page.resourceVersion()));
    if (page.continueToken() != null) {
      meta.addProperty("continue", page.continueToken());
    }
    if (page.remainingItemCount() != null) {
      meta.addProperty("remainingItemCount", page.remainingItemCount());
    }
    JsonObject head = new JsonObject();
    head.addProperty("kind", r.type().listKind());
    head.addProperty("apiVersion", r.type().apiVersion());
    head.add("metadata", meta);
    String open = Json.write(head);
    StringBuilder out = new StringBuilder(open.length() + 16 + page.stored().stream()
        .mapToInt(i -> i.json().length()).sum() + page.stored().size());
    out.append(open, 0, open.length() - 1).append(",\"items\":[");
    // Stored text is canonical: kind and apiVersion lead, so a built-in kind's item drops them as a prefix.
    String typed = "{\"kind\":" + Json.write(new JsonPrimitive(r.type().kind())) + ",\"apiVersion\":"
        + Json.write(new JsonPrimitive(r.type().apiVersion())) + ",";
    boolean first = true;
    for (ObjectStore.Stored item : page.stored()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      String json = item.json();
      if (r.type().custom()) {
        out.append(json);
      } else if (json.startsWith(typed)) {
        out.append('{').append(json, typed.length(), json.length());
      } else {
        JsonObject o = item.object();
        o.remove("kind");
        o.remove("apiVersion");
        out.append(Json.write(o));
      }
    }
    return out.append("]}").toString();
  }

  /** {@code ?watch=true}: blocks this request's thread while the watch is open. */
  void watch(HttpExchange exchange, Route r, Map<String, String> q) throws IOException {
    checkStorageReady();
    Predicate<JsonObject> filter = Selectors.labels(q.get("labelSelector"))
        .and(Selectors.fields(q.get("fieldSelector"), r.type()));
    int timeout = parseInt(q.get("timeoutSeconds"), "timeoutSeconds");
    String namespace = r.type().namespaced() && !r.namespace().isEmpty() ? r.namespace() : null;
    Watcher w = new Watcher(r.type(), namespace, filter, "true".equals(q.get("allowWatchBookmarks")),
        timeout > 0 ? Duration.ofSeconds(timeout) : null);
    store.watch(w, q.get("resourceVersion"), "true".equals(q.get("sendInitialEvents")));
    try {
      w.serve(exchange);
    } finally {
      hub.remove(w);
    }
    exchange.close();
  }

  void storageInitializing(boolean initializing) {
    storageInitializing = initializing;
  }

  /** The watch cache's answer before it has synced: {@code 429} "storage is (re)initializing", Retry-After 1. */
  private void checkStorageReady() {
    if (storageInitializing) {
      throw Statuses.injected(429, "storage is (re)initializing", 1, "");
    }
  }

  JsonObject get(Route r) {
    return store.get(r.type(), r.namespace(), r.name());
  }

  JsonObject create(Route r, String body) {
    return store.create(r.type(), r.namespace(), Json.parseObject(body), false);
  }

  JsonObject update(Route r, String body, WriteMode mode) {
    return store.update(r.type(), r.namespace(), r.name(), Json.parseObject(body), mode);
  }

  /**
   * PATCH by Content-Type. Custom resources do not take strategic merge patch (415, as apiextensions-apiserver
   * answers); apply-patch (server-side apply) is not implemented by this fake and is a 415 too. A patch that sets a
   * different metadata.resourceVersion is an optimistic-lock precondition (409 on mismatch).
   */
  JsonObject patch(Route r, String contentType, String body, WriteMode mode) {
    String type = contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
    JsonElement patch = Json.parse(body);
    UnaryOperator<JsonObject> change;
    switch (type) {
      case MERGE_PATCH -> {
        requireObject(patch);
        change = current -> Patches.mergePatch(current, patch).getAsJsonObject();
      }
      case STRATEGIC_MERGE_PATCH -> {
        if (!r.type().supportsStrategicMerge()) {
          throw Statuses.unsupportedMediaType(JSON_PATCH + ", " + MERGE_PATCH);
        }
        requireObject(patch);
        change = current -> smp(current, patch.getAsJsonObject(), r.type());
      }
      case JSON_PATCH -> {
        if (!patch.isJsonArray()) {
          throw Statuses.badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
        }
        change = current -> jsonPatch(current, patch.getAsJsonArray());
      }
      default -> throw Statuses.unsupportedMediaType(JSON_PATCH + ", " + MERGE_PATCH
          + (r.type().supportsStrategicMerge() ? ", " + STRATEGIC_MERGE_PATCH : ""));
    }
    return store.mutate(r.type(), r.namespace(), r.name(), change, mode);
  }

  private static JsonObject smp(JsonObject current, JsonObject patch, ResourceType type) {
    try {
      return Patches.strategicMerge(current, patch, type.mergeKeyMap());
    } catch (Patches.PatchException e) {
      throw Statuses.badRequest(e.getMessage());
    }
  }

  private static JsonObject jsonPatch(JsonObject current, JsonArray ops) {
    try {
      JsonElement result = Patches.jsonPatch(current, ops);
      if (!result.isJsonObject()) {
        throw new Patches.PatchException("the patch result is not a JSON object");
      }
      return result.getAsJsonObject();
    } catch (Patches.PatchException e) {
      // apiserver endpoints/handlers/patch.go interpretJSONPatchError: jsonpatch failures are 422.
      throw new ApiError(422, Statuses.failure(422, "Invalid", e.getMessage(), null));
    }
  }

  /**
   * DELETE: kinds with ReturnDeletedObject (pods, namespaces) and objects left in place (finalizers, graceful
   * pods) answer 200 with the object; others a Success Status with details {name, group, kind: plural, uid}.
   * DeleteOptions come from the query (gracePeriodSeconds) or the body (gracePeriodSeconds, preconditions).
   */
  JsonObject delete(Route r, Map<String, String> q, String body) {
    JsonObject options = body == null || body.isBlank() ? new JsonObject() : Json.parseObject(body);
    Long grace = null;
    if (q.containsKey("gracePeriodSeconds")) {
      grace = (long) parseInt(q.get("gracePeriodSeconds"), "gracePeriodSeconds");
    } else if (options.has("gracePeriodSeconds") && !options.get("gracePeriodSeconds").isJsonNull()) {
      grace = options.get("gracePeriodSeconds").getAsLong();
    }
    return deleteWith(r.type(), r.namespace(), r.name(), grace, options);
  }

  JsonObject deleteWith(ResourceType type, String namespace, String name, Long grace, JsonObject options) {
    if (options.has("dryRun") && options.get("dryRun").isJsonArray() && !options.getAsJsonArray("dryRun").isEmpty()) {
      throw Statuses.badRequest("fake API server: dryRun is not supported");
    }
    JsonObject pre = Json.child(options, "preconditions");
    String uid = pre != null && pre.has("uid") && !pre.get("uid").isJsonNull() ? pre.get("uid").getAsString() : null;
    String rv = pre != null && pre.has("resourceVersion") && !pre.get("resourceVersion").isJsonNull()
        ? pre.get("resourceVersion").getAsString() : null;
    ObjectStore.Deletion d = store.delete(type, namespace, name, grace, uid, rv);
    if (!d.gone() || type.isReturnsDeletedObject()) {
      return d.object();
    }
    return Statuses.deleted(type, name, Json.str(Json.meta(d.object()), "uid"));
  }

  private static void requireObject(JsonElement patch) {
    if (!patch.isJsonObject()) {
      throw Statuses.badRequest("the patch is not a JSON object");
    }
  }

  private static long parseLong(String value, String name) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw Statuses.badRequest(name + ": Invalid value: \"" + value + "\": must be a number");
    }
  }

  private static int parseInt(String value, String name) {
    if (value == null || value.isEmpty()) {
      return 0;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw Statuses.badRequest(name + ": Invalid value: \"" + value + "\": must be an integer");
    }
  }
}
