package io.basalt.search;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The shapes that found no node this session, each forgotten only when a node that gave something back since now
 * takes it: filters and fit read one node at a time, so a node that did not change still refuses, and placing pods
 * never makes room. That holds for signed filters only: a shape some filter signs nothing for (topology spread,
 * inter-pod affinity read other pods) is forgotten at the next change of any node. Freeing room on a few nodes (a discarded gang, an eviction) thus costs a check of those nodes,
 * not a new search per shape.
 *
 * <p>A remembered failure's message is the one worked out after the session last gave something back (the counter of
 * {@link Session#resourcesFreed()}): once more is freed it is worked out again, from the shape's {@link Diagnosis}
 * when the search covered the whole cluster.
 */
final class NoFitMemo {
  /** One remembered failure: the change count it was checked at, and its message with the free count it is from. */
  private static final class Entry {
    /** A task of the shape, to try changed nodes with. */
    TaskInfo task;
    /**
     * Whether some filter signed nothing for the task (its answer may read other pods, as topology spread does): then
     * any change to any node, a placement elsewhere too, may make a node take it, and the entry holds only while
     * nothing changed.
     */
    boolean unsigned;
    int checked;
    String reason;
    long reasonFreed;

    Entry copy() {
      Entry e = new Entry();
      e.task = task;
      e.unsigned = unsigned;
      e.checked = checked;
      e.reason = reason;
      e.reasonFreed = reasonFreed;
      return e;
    }
  }

  /** The memo as a trial found it, for {@link #restore}. */
  static final class Saved {
    private final Map<Object, Entry> entries;
    private final long freed;

    private Saved(Map<Object, Entry> entries, long freed) {
      this.entries = entries;
      this.freed = freed;
    }
  }

  private final Map<Object, Entry> entries = new HashMap<>();
  private final Map<Diagnosis.Key, Diagnosis> diagnoses = new HashMap<>();

  /** True when no shape is remembered: then nothing is known, whatever the shape. */
  boolean isEmpty() {
    return entries.isEmpty();
  }

  /** Whether {@code shape} (of {@code task}) is known to fit nowhere, forgetting it when a freed node now takes it. */
  boolean knows(Session session, Object shape, TaskInfo task) {
    Entry e = entries.get(shape);
    if (e == null) {
      return false;
    }
    if (!stillHolds(session, e)) {
      entries.remove(shape);
      return false;
    }
    return true;
  }

  /** The message for a known shape, worked out again when the session gave something back since it was. */
  String reason(Session session, Object shape, TaskInfo task, NodeSearch.Scope scope) {
    Entry e = entries.get(shape);
    if (e.reason == null || e.reasonFreed != session.resourcesFreed()) {
      e.reason = diagnose(session, task, scope, e.unsigned);
      e.reasonFreed = session.resourcesFreed();
    }
    return e.reason;
  }

  /**
   * Remembers that {@code shape} found no node, with its message when the search worked it out (else null);
   * {@code unsigned} when some filter signed nothing for the task.
   */
  void remember(Session session, Object shape, TaskInfo task, String reason, boolean unsigned) {
    Entry e = new Entry();
    e.task = task;
    e.unsigned = unsigned;
    e.checked = CapacityIndex.of(session).changes();
    e.reason = reason;
    e.reasonFreed = session.resourcesFreed();
    entries.put(shape, e);
  }

  /**
   * Why no node takes {@code task}: from its kind's diagnosis for whole-cluster searches, else a pass; a pass too
   * when some filter signed nothing for it ({@code unsigned}), since its answers may change on nodes that did not.
   */
  String diagnose(Session session, TaskInfo task, NodeSearch.Scope scope, boolean unsigned) {
    if (scope != null || unsigned) {
      return NodeSearch.diagnose(session, task, scope != null ? scope.nodes() : session.nodes());
    }
    Diagnosis.Key key = Diagnosis.Key.of(task);
    Diagnosis d = diagnoses.get(key);
    if (d == null) {
      diagnoses.put(key, Diagnosis.of(session, task));
      d = diagnoses.get(key);
    }
    return d.message(session, task);
  }

  /** Every entry checked against the nodes changed since, as a trial is about to start. */
  Saved save(Session session) {
    Map<Object, Entry> copy = new HashMap<>();
    for (Iterator<Map.Entry<Object, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Object, Entry> me = it.next();
      Entry e = me.getValue();
      if (!stillHolds(session, e)) {
        it.remove();
      } else {
        copy.put(me.getKey(), e.copy());
      }
    }
    return new Saved(copy, session.resourcesFreed());
  }

  /**
   * Back to {@code saved} once the trial was discarded and the nodes are as they were: its entries hold again (what
   * the trial learnt is dropped); a message that was current then still is.
   */
  void restore(Session session, Saved saved) {
    entries.clear();
    int now = CapacityIndex.of(session).changes();
    saved.entries.forEach((shape, e) -> {
      Entry r = e.copy();
      r.checked = now;
      r.reasonFreed = e.reasonFreed == saved.freed ? session.resourcesFreed() : -1;
      entries.put(shape, r);
    });
  }

  /** Whether no node that gave something back since {@code e} was checked takes its shape now; marks it checked. */
  private static boolean stillHolds(Session session, Entry e) {
    CapacityIndex index = CapacityIndex.of(session);
    int changes = index.changes();
    if (e.unsigned && changes != e.checked) {
      return false;
    }
    boolean[] skip = session.callbacks().deviceManagedResources();
    for (int i = e.checked; i < changes; i++) {
      if (index.freedAt(i)) {
        NodeInfo node = index.node(index.changedAt(i));
        if (node.firstShortOfFuture(e.task.request(), skip) < 0 && session.callbacks().filter(e.task, node).ok()) {
          return false;
        }
      }
    }
    e.checked = changes;
    return true;
  }
}
