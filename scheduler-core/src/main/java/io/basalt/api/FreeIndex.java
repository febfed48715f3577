package io.basalt.api;

import java.util.Arrays;
import java.util.List;

/**
 * What a session's nodes will have free ({@link NodeInfo#futureIdle}), as one max-tree per resource over the nodes'
 * positions: a search asks for the next node with at least {@code q} of a resource in O(log n) instead of reading
 * every node, and learns in O(1) that no node has enough. On a busy cluster most nodes are full, so the nodes a
 * search skips this way are most of them.
 *
 * <p>A resource's tree is built the first time a search asks about it; from then on every change to a node's
 * accounting updates it (the node tells its index). A node belongs to the index of the session that opened last:
 * sessions of one scheduler run one at a time.
 */
public final class FreeIndex {
  private final NodeInfo[] nodes;
  /** Each position's {@link NodeInfo#serial} and {@link NodeInfo#version}, kept current as nodes tell of changes. */
  private final long[] serials;
  private final int[] versions;
  private final int leaves;
  private final long[][] trees;
  /** Every change to a node since the index was built: position * 2, plus 1 when the node gave something back. */
  private int[] log = new int[256];
  private int logSize;
  /** The log's size when last read: a repeat of the last entry is dropped only if nobody read it since. */
  private int logRead;

  private FreeIndex(List<NodeInfo> nodes, int slots) {
    this.nodes = nodes.toArray(NodeInfo[]::new);
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
    carryOver(previous(this.nodes));
    for (int i = 0; i < this.nodes.length; i++) {
      this.nodes[i].indexIn(this, i);
    }
  }

  /** The index of the last session that held these nodes (a reused node still points at it), or null. */
  private static FreeIndex previous(NodeInfo[] nodes) {
    for (NodeInfo n : nodes) {
      if (n.index() != null) {
        return n.index();
      }
    }
    return null;
  }

  /**
   * Starts from the trees the last session built over the same positions: a node copy the cache reused was never
   * changed (a changed one is {@link NodeInfo#touched} and copied again), so its leaf still holds; only the positions
   * whose node is another object are read again. Worth it when few differ, as between the cycles of a busy scheduler
   * (a tree costs a read of every node otherwise). Any other case leaves the trees to be built on first use.
   */
  private void carryOver(FreeIndex previous) {
    if (previous == null || previous.nodes.length != nodes.length || nodes.length == 0) {
      return;
    }
    int[] differ = new int[16];
    int count = 0;
    for (int i = 0; i < nodes.length; i++) {
      if (previous.nodes[i] != nodes[i] || nodes[i].touched()) {
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

  /** An index over {@code nodes} in their order, for resources below {@code slots}; the nodes join it. */
  public static FreeIndex over(List<NodeInfo> nodes, int slots) {
    return new FreeIndex(nodes, slots);
  }

  /** Whether searches can ask about {@code slot} (it existed when the session opened). */
  public boolean covers(int slot) {
    return slot < trees.length;
  }

  /** The most any node will have free of {@code slot}. */
  public long max(int slot) {
    return nodes.length == 0 ? Long.MIN_VALUE : tree(slot)[1];
  }

  /**
   * The first position at or after {@code from} whose node will have at least {@code quantity} of {@code slot}
   * free, or -1.
   */
  public int next(int slot, long quantity, int from) {
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
  public int changes() {
    logRead = logSize;
    return logSize;
  }

  /** The position of the node of the {@code i}-th change. */
  public int changedAt(int i) {
    return log[i] >>> 1;
  }

  /** Whether the {@code i}-th change gave resources or devices back (the node may now fit more). */
  public boolean freedAt(int i) {
    return (log[i] & 1) != 0;
  }

  /**
   * The serial number of the node at {@code position} ({@link NodeInfo#serial}): with {@link #version}, what an
   * answer kept for a node is checked against, without reading the node itself.
   */
  public long serial(int position) {
    return serials[position];
  }

  /** The {@link NodeInfo#version} of the node at {@code position}, as of its last change. */
  public int version(int position) {
    return versions[position];
  }

  /** The node at {@code position}. */
  public NodeInfo node(int position) {
    return nodes[position];
  }

  /** {@code node}'s accounting or devices changed; {@code freed} when something was given back. */
  void touched(NodeInfo node, int position, boolean freed) {
    if (position >= nodes.length || nodes[position] != node) {
      return;
    }
    versions[position] = node.version();
    int entry = position << 1 | (freed ? 1 : 0);
    if (logSize > logRead && log[logSize - 1] == entry) {
      return;
    }
    if (logSize == log.length) {
      log = Arrays.copyOf(log, logSize * 2);
    }
    log[logSize++] = entry;
  }

  /** A node's free amount of {@code slot} changed. */
  void changed(NodeInfo node, int position, int slot, long value) {
    long[] t = slot < trees.length ? trees[slot] : null;
    if (t == null || position >= nodes.length || nodes[position] != node) {
      return;
    }
    set(t, position, value);
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
