package io.basalt.kube.fake;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * All objects of all kinds, one global resourceVersion counter bumped by every write (as etcd's revision), and a
 * bounded history of writes that serves watches from a past resourceVersion and consistent continue-pages. Every
 * method is atomic (one lock); objects go in and out as copies. Watch fan-out happens inside the lock, so each
 * watcher sees events in resourceVersion order and none is lost between a list and a watch. Objects are kept as
 * their JSON text ({@link Stored}): a JSON tree costs several times its text in heap, and a LIST writes the text as
 * it is.
 */
final class ObjectStore {
  private final Map<ResourceType, TreeMap<String, Stored>> tables = new HashMap<>();
  private final WatchHub hub;
  private final History history;
  private final boolean gracefulPodDeletion;
  private long resourceVersion = 1;

  ObjectStore(WatchHub hub, int historyLimit, boolean gracefulPodDeletion) {
    this.hub = hub;
    this.history = new History(historyLimit, resourceVersion);
    this.gracefulPodDeletion = gracefulPodDeletion;
  }

  static String key(String namespace, String name) {
    return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
  }

  private TreeMap<String, Stored> table(ResourceType type) {
    return tables.computeIfAbsent(type, t -> new TreeMap<>());
  }

  /**
   * An object as stored: its canonical JSON text, which every read parses afresh (so reads are copies), and what
   * label and field selectors read of it ({@link Selectors#selectable}), so a selective LIST parses nothing.
   */
  record Stored(String json, JsonObject selectable) {
    static Stored of(ResourceType type, JsonObject object) {
      return new Stored(Json.write(object), Selectors.selectable(object, type));
    }

    JsonObject object() {
      return Json.parseObject(json);
    }
  }

  synchronized long resourceVersion() {
    return resourceVersion;
  }

  synchronized JsonObject find(ResourceType type, String namespace, String name) {
    Stored o = table(type).get(key(type.namespaced() ? namespace : "", name));
    return o == null ? null : o.object();
  }

  synchronized JsonObject get(ResourceType type, String namespace, String name) {
    JsonObject o = find(type, namespace, name);
    if (o == null) {
      throw Statuses.notFound(type, name);
    }
    return o;
  }

  // ---- list -----------------------------------------------------------------------------------------------------

  /**
   * One page: items in key order, the resourceVersion it was read at, and the continue token if more match. The
   * filter of a {@code selective} list sees what selectors read ({@link Stored#selectable}); a list that is not
   * selective takes every object.
   */
  record Page(List<Stored> stored, long resourceVersion, String continueToken, Long remainingItemCount) {
    /** The items, parsed (copies). */
    List<JsonObject> items() {
      return stored.stream().map(Stored::object).toList();
    }
  }

  synchronized Page list(ResourceType type, String namespace, Predicate<JsonObject> filter, boolean selective,
      int limit, String continueToken) {
    long at = resourceVersion;
    String start = null;
    if (continueToken != null && !continueToken.isEmpty()) {
      JsonObject token = History.decodeContinue(continueToken);
      at = token.get("rv").getAsLong();
      start = token.get("start").getAsString();
    }
    NavigableMap<String, Stored> view = at == resourceVersion ? table(type)
        : history.snapshot(type, table(type), at);
    if (start != null) {
      view = view.tailMap(start, true);
    }
    String prefix = type.namespaced() && namespace != null && !namespace.isEmpty() ? namespace + "/" : null;
    List<Stored> items = new ArrayList<>();
    String lastKey = null;
    long remaining = 0;
    for (Map.Entry<String, Stored> e : view.entrySet()) {
      if ((prefix != null && !e.getKey().startsWith(prefix))
          || (selective && !filter.test(e.getValue().selectable()))) {
        continue;
      }
      if (limit > 0 && items.size() >= limit) {
        remaining++;
        if (selective) {
          break; // no remainingItemCount with a selector: one more match is all the token needs
        }
        continue;
      }
      items.add(e.getValue());
      lastKey = e.getKey();
    }
    if (remaining == 0) {
      return new Page(items, at, null, null);
    }
    return new Page(items, at, History.encodeContinue(at, lastKey + "\u0000"), selective ? null : remaining);
  }

  // ---- writes ---------------------------------------------------------------------------------------------------

  /** POST: {@code trusted} writes (seeding from a test) keep status, uid and creationTimestamp as given. */
  synchronized JsonObject create(ResourceType type, String namespace, JsonObject input, boolean trusted) {
    JsonObject body = (JsonObject) Json.stripNulls(input.deepCopy());
    checkKind(type, body);
    JsonObject meta = Json.meta(body);
    if (!trusted && !Json.str(meta, "resourceVersion").isEmpty()) {
      throw Statuses.badRequest("resourceVersion should not be set on objects to be created");
    }
    if (type.namespaced()) {
      String given = Json.str(meta, "namespace");
      if (!given.isEmpty() && namespace != null && !namespace.isEmpty() && !given.equals(namespace)) {
        throw Statuses.badRequest("the namespace of the provided object does not match the namespace sent on the"
            + " request");
      }
      String ns = given.isEmpty() ? namespace : given;
      if (ns == null || ns.isEmpty()) {
        throw Statuses.badRequest("the server could not find the requested resource (namespace is required)");
      }
      meta.addProperty("namespace", ns);
    } else {
      meta.remove("namespace");
    }
    if (Json.str(meta, "name").isEmpty()) {
      String prefix = Json.str(meta, "generateName");
      if (prefix.isEmpty()) {
        throw Statuses.invalid(type, "", "metadata.name", "FieldValueRequired",
            "Required value: name or generateName is required");
      }
      meta.addProperty("name", prefix + randomSuffix());
    }
    String name = Json.str(meta, "name");
    if (table(type).containsKey(key(Json.str(meta, "namespace"), name))) {
      throw Statuses.alreadyExists(type, name);
    }
    PodRules.prepareForCreate(type, body, this, trusted);
    if (!trusted || Json.str(meta, "uid").isEmpty()) {
      meta.addProperty("uid", UUID.randomUUID().toString());
    }
    if (!trusted || Json.str(meta, "creationTimestamp").isEmpty()) {
      meta.addProperty("creationTimestamp", Json.now());
    }
    if (type.hasGeneration()) {
      meta.addProperty("generation", 1);
    }
    if (!trusted) {
      meta.remove("deletionTimestamp");
      meta.remove("deletionGracePeriodSeconds");
    }
    return commit(type, body, null, "ADDED");
  }

  /**
   * How a write treats the parts of an object: {@code OBJECT} (main resource: status kept from the stored object for
   * kinds with a status subresource, pod spec immutable), {@code STATUS} (the /status subresource: only status
   * changes) or {@code SYSTEM} (the server itself, e.g. pods/binding, and test seeding: everything as given).
   */
  enum WriteMode { OBJECT, STATUS, SYSTEM }

  /** PUT of the object or of its status subresource. */
  synchronized JsonObject update(ResourceType type, String namespace, String name, JsonObject input,
      WriteMode mode) {
    JsonObject current = get(type, namespace, name);
    JsonObject body = (JsonObject) Json.stripNulls(input.deepCopy());
    checkKind(type, body);
    String bodyName = Json.name(body);
    if (!bodyName.isEmpty() && !bodyName.equals(name)) {
      throw Statuses.badRequest("the name of the object (" + bodyName + ") does not match the name on the URL ("
          + name + ")");
    }
    String rv = Json.resourceVersion(body);
    if (rv.isEmpty() && type.custom() && mode != WriteMode.SYSTEM) {
      throw Statuses.invalid(type, name, "metadata.resourceVersion", "FieldValueInvalid",
          "Invalid value: 0x0: must be specified for an update");
    }
    if (!rv.isEmpty() && !rv.equals(Json.resourceVersion(current))) {
      throw Statuses.staleResourceVersion(type, name);
    }
    return commitUpdate(type, current, body, mode);
  }

  /** Read-modify-write (PATCH, binding): a change that carries another resourceVersion is a conflict. */
  synchronized JsonObject mutate(ResourceType type, String namespace, String name, UnaryOperator<JsonObject> change,
      WriteMode mode) {
    JsonObject current = get(type, namespace, name);
    JsonObject next = (JsonObject) Json.stripNulls(change.apply(current.deepCopy()));
    if (!Json.resourceVersion(next).equals(Json.resourceVersion(current))) {
      throw Statuses.staleResourceVersion(type, name);
    }
    return commitUpdate(type, current, next, mode);
  }

  private JsonObject commitUpdate(ResourceType type, JsonObject current, JsonObject candidate, WriteMode mode) {
    boolean statusOnly = mode == WriteMode.STATUS;
    JsonObject next;
    if (statusOnly) {
      next = current.deepCopy();
      copyField(candidate, next, "status");
    } else {
      next = candidate;
      if (type.hasStatusSubresource() && mode == WriteMode.OBJECT) {
        copyField(current, next, "status");
      }
    }
    next.addProperty("kind", type.kind());
    next.addProperty("apiVersion", type.apiVersion());
    JsonObject meta = Json.meta(next);
    JsonObject oldMeta = Json.meta(current);
    for (String f : List.of("name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
        "deletionGracePeriodSeconds", "generation", "resourceVersion")) {
      copyField(oldMeta, meta, f);
    }
    if (statusOnly) {
      next.add("metadata", oldMeta.deepCopy());
    }
    if (mode == WriteMode.OBJECT) {
      type.applyDefaults(next, this);
      if (type.hasStatusSubresource()) {
        copyField(current, next, "status");
      }
    }
    if (!type.custom()) {
      Json.pruneEmpty(next);
    }
    if (mode == WriteMode.OBJECT) {
      PodRules.validateUpdate(type, current, next);
    }
    if (type.hasGeneration() && !statusOnly && specChanged(current, next)) {
      meta.addProperty("generation", oldMeta.has("generation") ? oldMeta.get("generation").getAsLong() + 1 : 1);
    }
    if (Json.canonical(next).equals(Json.canonical(current.deepCopy()))) {
      return current;
    }
    if (meta.has("deletionTimestamp") && !Json.hasFinalizers(next)
        && (!meta.has("deletionGracePeriodSeconds") || meta.get("deletionGracePeriodSeconds").getAsLong() == 0)) {
      return remove(type, next);
    }
    return commit(type, next, current, "MODIFIED");
  }

  /** Result of DELETE: the object as last seen, and whether it is gone (false while finalizers or grace pend). */
  record Deletion(JsonObject object, boolean gone) {
  }

  synchronized Deletion delete(ResourceType type, String namespace, String name, Long gracePeriodSeconds,
      String preconditionUid, String preconditionRv) {
    JsonObject current = get(type, namespace, name);
    JsonObject meta = Json.meta(current);
    if (preconditionUid != null && !preconditionUid.equals(Json.str(meta, "uid"))) {
      throw Statuses.conflict(type.group(), type.plural(), name, "Precondition failed: UID in precondition: "
          + preconditionUid + ", UID in object meta: " + Json.str(meta, "uid"));
    }
    if (preconditionRv != null && !preconditionRv.equals(Json.str(meta, "resourceVersion"))) {
      throw Statuses.conflict(type.group(), type.plural(), name, "Precondition failed: ResourceVersion in"
          + " precondition: " + preconditionRv + ", ResourceVersion in object meta: "
          + Json.str(meta, "resourceVersion"));
    }
    if (Json.hasFinalizers(current)) {
      return new Deletion(meta.has("deletionTimestamp") ? current : markDeleting(type, current, 0), false);
    }
    long grace = PodRules.gracePeriod(type, current, gracePeriodSeconds, gracefulPodDeletion);
    if (grace > 0) {
      boolean pending = meta.has("deletionTimestamp") && meta.has("deletionGracePeriodSeconds")
          && meta.get("deletionGracePeriodSeconds").getAsLong() <= grace;
      return new Deletion(pending ? current : markDeleting(type, current, grace), false);
    }
    return new Deletion(remove(type, current), true);
  }

  private JsonObject markDeleting(ResourceType type, JsonObject current, long grace) {
    JsonObject next = current.deepCopy();
    JsonObject meta = Json.meta(next);
    meta.addProperty("deletionTimestamp", Json.timestamp(Instant.now().plusSeconds(grace)));
    meta.addProperty("deletionGracePeriodSeconds", grace);
    if (type.hasGeneration() && meta.has("generation")) {
      meta.addProperty("generation", meta.get("generation").getAsLong() + 1);
    }
    return commit(type, next, current, "MODIFIED");
  }

  private JsonObject commit(ResourceType type, JsonObject next, JsonObject previous, String eventType) {
    if (!type.custom()) {
      Json.pruneEmpty(next);
    }
    resourceVersion++;
    Json.meta(next).addProperty("resourceVersion", Long.toString(resourceVersion));
    JsonObject stored = Json.canonical(next);
    table(type).put(key(Json.namespace(stored), Json.name(stored)), Stored.of(type, stored));
    // The event owns stored and previous (a fresh read): no one changes them from here on.
    record(new StoreEvent(resourceVersion, eventType, type, stored, previous));
    return stored.deepCopy();
  }

  private JsonObject remove(ResourceType type, JsonObject current) {
    table(type).remove(key(Json.namespace(current), Json.name(current)));
    resourceVersion++;
    JsonObject gone = current.deepCopy();
    Json.meta(gone).addProperty("resourceVersion", Long.toString(resourceVersion));
    record(new StoreEvent(resourceVersion, "DELETED", type, gone, current));
    return gone.deepCopy();
  }

  private void record(StoreEvent e) {
    history.add(e);
    hub.publish(e);
  }

  /** Forgets all history, as an etcd compaction does: watching or continuing from any older version is a 410. */
  synchronized void compact() {
    history.compact(resourceVersion);
  }

  // ---- watch ----------------------------------------------------------------------------------------------------

  /**
   * Registers {@code w} atomically with its starting events. Unset or "0" resourceVersion (or sendInitialEvents)
   * starts with synthetic ADDED events for the current state; a specific one replays history after it, or sends a
   * 410 Expired ERROR event when it is older than the history kept (watch cache {@code "too old resource
   * version: %d (%d)"}). See the API concepts doc, "Semantics for watch" and "Efficient detection of changes".
   */
  synchronized void watch(Watcher w, String fromVersion, boolean sendInitialEvents) {
    boolean fromState = fromVersion == null || fromVersion.isEmpty() || fromVersion.equals("0") || sendInitialEvents;
    if (fromState) {
      String prefix = w.namespace() == null ? null : w.namespace() + "/";
      for (Map.Entry<String, Stored> e : table(w.type()).entrySet()) {
        if (prefix == null || e.getKey().startsWith(prefix)) {
          w.initial(e.getValue().object());
        }
      }
      if (sendInitialEvents) {
        w.initialEventsEnd(resourceVersion);
      }
    } else {
      long from;
      try {
        from = Long.parseLong(fromVersion);
      } catch (NumberFormatException e) {
        throw Statuses.badRequest("resourceVersion: Invalid value: \"" + fromVersion + "\": must be a number");
      }
      if (!history.replayAfter(from, w::accept)) {
        w.expired("too old resource version: " + from + " (" + history.horizon() + ")");
        return;
      }
    }
    hub.add(w);
  }

  /** 410 Expired when {@code rv} is older than the history kept (etcd: "required revision has been compacted"). */
  synchronized void requireRetained(long rv) {
    if (rv < history.horizon()) {
      throw Statuses.expired("too old resource version: " + rv + " (" + history.horizon() + ")");
    }
  }

  synchronized void bookmark() {
    hub.bookmark(resourceVersion);
  }

  // ---- helpers --------------------------------------------------------------------------------------------------

  private static void checkKind(ResourceType type, JsonObject body) {
    String kind = Json.str(body, "kind");
    String apiVersion = Json.str(body, "apiVersion");
    if (!kind.isEmpty() && !kind.equals(type.kind())) {
      throw Statuses.badRequest("the kind in the data (" + kind + ") does not match the expected kind ("
          + type.kind() + ")");
    }
    if (!apiVersion.isEmpty() && !apiVersion.equals(type.apiVersion())) {
      throw Statuses.badRequest("the API version in the data (" + apiVersion + ") does not match the expected API"
          + " version (" + type.apiVersion() + ")");
    }
    body.addProperty("kind", type.kind());
    body.addProperty("apiVersion", type.apiVersion());
  }

  private static boolean specChanged(JsonObject before, JsonObject after) {
    JsonObject a = before.deepCopy();
    JsonObject b = after.deepCopy();
    for (JsonObject o : List.of(a, b)) {
      o.remove("metadata");
      o.remove("status");
    }
    return !a.equals(b);
  }

  private static void copyField(JsonObject from, JsonObject to, String field) {
    JsonElement v = from.get(field);
    if (v == null) {
      to.remove(field);
    } else {
      to.add(field, v.deepCopy());
    }
  }

  /** names.SimpleNameGenerator: 5 characters from a consonant-and-digit alphabet. */
  private static String randomSuffix() {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append(alphabet.charAt(ThreadLocalRandom.current().nextInt(alphabet.length())));
    }
    return sb.toString();
  }
}
