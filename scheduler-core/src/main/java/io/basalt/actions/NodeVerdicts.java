package io.basalt.actions;

import io.basalt.api.NodeInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What node searches found on each node for tasks of one verdict key ({@link io.basalt.session.Callbacks#verdictKey}):
 * short of resources, filtered out, or feasible with its score, now or once releasing pods are gone. An entry holds
 * while the node copy and its {@link NodeInfo#version} are the ones it was found at, since then every filter and
 * scorer would answer the same. A placement changes one node, so the next pod of the same kind re-asks one node
 * instead of the few hundred a search visits.
 */
final class NodeVerdicts {
  static final byte UNKNOWN = 0;
  static final byte SHORT = 1;
  static final byte FILTERED = 2;
  static final byte NOW = 3;
  static final byte LATER = 4;

  private final Map<Object, Table> tables = new HashMap<>();

  /** The verdicts kept for {@code key}. */
  Table of(Object key) {
    return tables.computeIfAbsent(key, k -> new Table());
  }

  /** Verdicts by node position. */
  static final class Table {
    private NodeInfo[] nodes = new NodeInfo[0];
    private int[] versions = new int[0];
    private byte[] outcomes = new byte[0];
    private double[] scores = new double[0];

    /** The kept verdict on {@code node}, or {@link #UNKNOWN} when none holds for its current state. */
    byte outcome(NodeInfo node) {
      int p = node.position();
      return p < nodes.length && nodes[p] == node && versions[p] == node.version() ? outcomes[p] : UNKNOWN;
    }

    /** The kept score, read after {@link #outcome} said {@link #NOW} or {@link #LATER}. */
    double score(NodeInfo node) {
      return scores[node.position()];
    }

    void put(NodeInfo node, byte outcome, double score) {
      int p = node.position();
      if (p >= nodes.length) {
        int n = Math.max(p + 1, nodes.length * 2);
        nodes = Arrays.copyOf(nodes, n);
        versions = Arrays.copyOf(versions, n);
        outcomes = Arrays.copyOf(outcomes, n);
        scores = Arrays.copyOf(scores, n);
      }
      nodes[p] = node;
      versions[p] = node.version();
      outcomes[p] = outcome;
      scores[p] = score;
    }
  }
}
