package io.basalt.kube.fake;

import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Iterator;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The bounded log of writes behind watches from a past resourceVersion and consistent continue-pages, and the
 * continue-token codec. Not thread-safe: {@link ObjectStore} calls it under its lock.
 */
final class History {
  /** etcd3 store's message for a continue token whose revision was compacted (storage/etcd3/store.go). */
  static final String CONTINUE_EXPIRED = "The provided continue parameter is too old to display a consistent list"
      + " result. You can start a new list without the continue parameter, or use the continue token in this"
      + " response to retrieve the remainder of the results. Continuing with the provided token results in an"
      + " inconsistent list - objects that were created, modified, or deleted between the time the first chunk was"
      + " returned and now may show up in the list.";

  private final ArrayDeque<StoreEvent> events = new ArrayDeque<>();
  private final int limit;
  /** Writes at or below this resourceVersion are gone: reading from before it is a 410. */
  private long horizon;

  History(int limit, long start) {
    this.limit = limit;
    this.horizon = start;
  }

  void add(StoreEvent e) {
    events.addLast(e);
    while (events.size() > limit) {
      horizon = events.removeFirst().resourceVersion();
    }
  }

  /** Drops everything, as an etcd compaction at {@code current} does. */
  void compact(long current) {
    events.clear();
    horizon = current;
  }

  /**
   * Hands every write after {@code from} to {@code sink}; false (and nothing handed over) when history no longer
   * reaches back that far.
   */
  boolean replayAfter(long from, Consumer<StoreEvent> sink) {
    if (from < horizon) {
      return false;
    }
    for (StoreEvent e : events) {
      if (e.resourceVersion() > from) {
        sink.accept(e);
      }
    }
    return true;
  }

  long horizon() {
    return horizon;
  }

  /** {@code current} (a kind's objects now) as it was at {@code at}, by undoing later writes. */
  NavigableMap<String, ObjectStore.Stored> snapshot(ResourceType type,
      NavigableMap<String, ObjectStore.Stored> current, long at) {
    if (at < horizon) {
      throw Statuses.expired(CONTINUE_EXPIRED);
    }
    if (!changedAfter(type, at)) {
      return current; // the usual case while a long list pages: writes, if any, went to other kinds
    }
    TreeMap<String, ObjectStore.Stored> view = new TreeMap<>(current);
    for (Iterator<StoreEvent> it = events.descendingIterator(); it.hasNext(); ) {
      StoreEvent e = it.next();
      if (e.resourceVersion() <= at) {
        break;
      }
      if (e.resource().equals(type)) {
        if (e.type().equals("ADDED")) {
          view.remove(e.key());
        } else {
          view.put(e.key(), ObjectStore.Stored.of(type, e.previous()));
        }
      }
    }
    return view;
  }

  private boolean changedAfter(ResourceType type, long at) {
    for (Iterator<StoreEvent> it = events.descendingIterator(); it.hasNext(); ) {
      StoreEvent e = it.next();
      if (e.resourceVersion() <= at) {
        return false;
      }
      if (e.resource().equals(type)) {
        return true;
      }
    }
    return false;
  }

  /** Same shape as the apiserver's token: base64url of {"v":"meta.k8s.io/v1","rv":N,"start":"KEY\u0000"}. */
  static String encodeContinue(long rv, String start) {
    JsonObject t = new JsonObject();
    t.addProperty("v", "meta.k8s.io/v1");
    t.addProperty("rv", rv);
    t.addProperty("start", start);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.write(t).getBytes(StandardCharsets.UTF_8));
  }

  /** The token's {rv, start}; 400 "continue key is not valid" for anything else. */
  static JsonObject decodeContinue(String token) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      JsonObject t = Json.parseObject(text);
      if (!"meta.k8s.io/v1".equals(Json.str(t, "v")) || !t.has("rv") || !t.has("start")) {
        throw new IllegalArgumentException("unexpected continue token contents");
      }
      return t;
    } catch (RuntimeException e) {
      throw Statuses.badRequest("continue key is not valid: " + e.getMessage());
    }
  }
}
