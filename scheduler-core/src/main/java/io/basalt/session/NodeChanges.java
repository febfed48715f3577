package io.basalt.session;

import io.basalt.api.NodeInfo;
import java.util.Arrays;
import java.util.List;

/**
 * Every change to the session's nodes, in order: which node (its position) and whether it gave something back. The
 * session writes it as statements change nodes; whoever keeps something worked out from the nodes (the node search's
 * capacity index, its "no node fits" memo) remembers how far it read and later reads only the nodes changed since,
 * instead of every node. Nodes themselves know nothing of who reads.
 */
public final class NodeChanges {
  private final List<NodeInfo> nodes;
  /** Position * 2, plus 1 when the node gave something back. */
  private int[] log = new int[256];
  private int size;
  /** The size when last read: a repeat of the last entry is dropped only if nobody read it since. */
  private int read;

  NodeChanges(List<NodeInfo> nodes) {
    this.nodes = nodes;
  }

  /** {@code node}'s accounting or devices changed; {@code freed} when something was given back. */
  void record(NodeInfo node, boolean freed) {
    int position = node.position();
    if (position >= nodes.size() || nodes.get(position) != node) {
      return;
    }
    int entry = position << 1 | (freed ? 1 : 0);
    if (size > read && log[size - 1] == entry) {
      return;
    }
    if (size == log.length) {
      log = Arrays.copyOf(log, size * 2);
    }
    log[size++] = entry;
  }

  /**
   * How many changes were recorded so far: a reader that remembers this count can later ask which nodes changed
   * since ({@link #position}).
   */
  public int size() {
    read = size;
    return size;
  }

  /** The position of the node of the {@code i}-th change. */
  public int position(int i) {
    return log[i] >>> 1;
  }

  /** Whether the {@code i}-th change gave resources or devices back (the node may now fit more). */
  public boolean freed(int i) {
    return (log[i] & 1) != 0;
  }
}
