package io.basalt.search;

import io.basalt.api.NodeInfo;
import io.basalt.model.ResourceNames;
import io.basalt.session.NodeChanges;
import io.basalt.session.Session;
import java.util.Arrays;
import java.util.List;

/**
 * What a session's nodes will have free ({@link NodeInfo#futureIdle}), as one max-tree per resource over the nodes'
 * positions: a search asks for the next node with at least {@code q} of a resource in O(log n) instead of reading
 * every node, and learns in O(1) that no node has enough. On a busy cluster most nodes are full, so the nodes a
 * search skips this way are most of them.
 *
 * <p>A resource's tree is built the first time a search asks about it; from then on it is brought up to date from the
 * session's {@link NodeChanges} before each read ({@link #sync}): nodes do not know the index.
 */
final class CapacityIndex {
  private final NodeInfo[] nodes;
  private final NodeChanges changes;
  /** Each position's {@link NodeInfo#serial} and {@link NodeInfo#version}, as of the last {@link #sync}. */
  private final long[] serials;
  private final int[] versions;
  private final int leaves;
  private final long[][] trees;
  /** How far the change log was read. */
  private int seen;

  private CapacityIndex(List<NodeInfo> nodes, NodeChanges changes, int slots, CapacityIndex previous) {
    this.nodes = nodes.toArray(NodeInfo[]::new);
    this.changes = changes;
    this.seen = changes.size();
    this.serials = new long[this.nodes.length];
    this.versions = new int[this.nodes.length];
    for (int i = 0; i < this.nodes.length; i++) {
      serials[i] = this.nodes[i].serial();
      versions[i] = this.nodes[i].version();
    }
    int size = 1;
    while (size < Math.max(1, this.nodes.length)) {
      size <<= 1;
    }
    this.leaves = size;
    this.trees = new long[slots][];
    if (previous != null) {
      previous.sync();
      carryOver(previous);
    }
  }

  /**
   * Starts from the trees an earlier session built over the same positions: a leaf still holds where the position
   * has the same node copy at the same version (a copy the cache handed on unchanged); only the other positions are
   * read again. Worth it when few differ, as between the cycles of a busy scheduler (a tree costs a read of every node
   * otherwise). Any other case leaves the trees to be built on first use.
   */
  private void carryOver(CapacityIndex previous) {
    if (previous.nodes.length != nodes.length || nodes.length == 0) {
      return;
    }
    int[] differ = new int[16];
    int count = 0;
    for (int i = 0; i < nodes.length; i++) {
      if (previous.serials[i] != serials[i] || previous.versions[i] != versions[i]) {
        if (count == differ.length) {
          if (count * 8 > nodes.length) {
            return;
          }
          differ = Arrays.copyOf(differ, count * 2);
        }
        differ[count++] = i;
      }
    }
    for (int slot = 0; slot < Math.min(trees.length, previous.trees.length); slot++) {
      long[] t = previous.trees[slot];
      if (t == null) {
        continue;
      }
      // Taken over, not copied (a tree per resource per cycle was the largest allocation of a cycle): the last
      // session is closed, and should anything ask its index again, it builds the tree anew from its nodes.
      previous.trees[slot] = null;
      for (int k = 0; k < count; k++) {
        set(t, differ[k], nodes[differ[k]].futureIdle(slot));
      }
      trees[slot] = t;
    }
  }

  /**
   * {@code session}'s index, brought up to date; made on first use, from the trees of {@code previous} (an index of an
   * earlier session, or null) where they still hold.
   */
  static CapacityIndex of(Session session, CapacityIndex previous) {
    CapacityIndex index = session.scratch(CapacityIndex.class,
        () -> new CapacityIndex(session.nodes(), session.nodeChanges(), ResourceNames.count(),
            previous));
    index.sync();
    return index;
  }

  /** An index over {@code nodes} reading {@code changes}, for tests. */
  static CapacityIndex over(List<NodeInfo> nodes, NodeChanges changes, CapacityIndex previous) {
    return new CapacityIndex(nodes, changes, ResourceNames.count(), previous);
  }

  /** {@code session}'s index, brought up to date (made without an earlier session's trees if none was yet). */
  static CapacityIndex of(Session session) {
    return of(session, null);
  }

  /** Reads the nodes changed since the last call into the trees and the versions. */
  void sync() {
    int size = changes.size();
    for (int i = seen; i < size; i++) {
      int p = changes.position(i);
      NodeInfo node = nodes[p];
      versions[p] = node.version();
      for (int slot = 0; slot < trees.length; slot++) {
        long[] t = trees[slot];
        if (t != null) {
          set(t, p, node.futureIdle(slot));
        }
      }
    }
    seen = size;
  }

  /** Whether searches can ask about {@code slot} (it existed when the session opened). */
  boolean covers(int slot) {
    return slot < trees.length;
  }

  /** The most any node will have free of {@code slot}. */
  long max(int slot) {
    return nodes.length == 0 ? Long.MIN_VALUE : tree(slot)[1];
  }

  /**
   * The first position at or after {@code from} whose node will have at least {@code quantity} of {@code slot}
   * free, or -1.
   */
  int next(int slot, long quantity, int from) {
    if (from >= nodes.length) {
      return -1;
    }
    long[] t = tree(slot);
    int i = from + leaves;
    if (t[i] < quantity) {
      while (true) {
        if (i == 1) {
          return -1;
        }
        if ((i & 1) == 0 && t[i + 1] >= quantity) {
          i++;
          break;
        }
        i >>= 1;
      }
      while (i < leaves) {
        i = t[2 * i] >= quantity ? 2 * i : 2 * i + 1;
      }
    }
    return i - leaves;
  }

  /**
   * How many node changes were logged so far: a caller that remembers this count can later ask which nodes changed
   * since ({@link #changedAt}) instead of reading every node.
   */
  int changes() {
    sync();
    return seen;
  }

  /** The position of the node of the {@code i}-th change. */
  int changedAt(int i) {
    return changes.position(i);
  }

  /** Whether the {@code i}-th change gave resources or devices back (the node may now fit more). */
  boolean freedAt(int i) {
    return changes.freed(i);
  }

  /**
   * The serial number of the node at {@code position} ({@link NodeInfo#serial}): with {@link #version}, what an
   * answer kept for a node is checked against, without reading the node itself.
   */
  long serial(int position) {
    return serials[position];
  }

  /** The {@link NodeInfo#version} of the node at {@code position}, as of its last change. */
  int version(int position) {
    return versions[position];
  }

  /** The node at {@code position}. */
  NodeInfo node(int position) {
    return nodes[position];
  }

  /** Sets a leaf and the maxima above it, stopping where a maximum stays the same. */
  private void set(long[] t, int position, long value) {
    int i = position + leaves;
    t[i] = value;
    for (i >>= 1; i > 0; i >>= 1) {
      long m = Math.max(t[2 * i], t[2 * i + 1]);
      if (t[i] == m) {
        break;
      }
      t[i] = m;
    }
  }

  /** Whether the tree of {@code slot} exists yet (for tests). */
  boolean built(int slot) {
    return trees[slot] != null;
  }

  /** The tree of {@code slot}, built now if no search asked before (package-private for tests). */
  long[] tree(int slot) {
    long[] t = trees[slot];
    if (t == null) {
      t = new long[2 * leaves];
      Arrays.fill(t, Long.MIN_VALUE);
      for (int i = 0; i < nodes.length; i++) {
        t[leaves + i] = nodes[i].futureIdle(slot);
      }
      for (int i = leaves - 1; i > 0; i--) {
        t[i] = Math.max(t[2 * i], t[2 * i + 1]);
      }
      trees[slot] = t;
    }
    return t;
  }
}
