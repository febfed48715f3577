package io.basalt.actions;

import io.basalt.api.NodeInfo;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What node searches found on each node for tasks of one verdict key ({@link io.basalt.session.Callbacks#verdictKey}):
 * short of resources, filtered out, or feasible with its score, now or once releasing pods are gone. An entry holds
 * while the node copy and its {@link NodeInfo#version} are the ones it was found at, since then every filter and
 * scorer would answer the same. A placement changes one node, so the next pod of the same kind re-asks one node
 * instead of the few hundred a search visits.
 *
 * <p>The verdicts outlive the session: a node copy the cache hands to the next session unchanged is the same object at
 * the same version, and keyed filters and scorers answer from the config, the task key and the node alone (see
 * {@link io.basalt.framework.NodeScorer#taskKey}). A new resource name (which re-slots what plugins resolve at session
 * open) drops them all; a key no search of the last session asked for is dropped, so rare shapes hold no memory.
 * One search owns them, and a search serves one scheduling loop.
 */
final class NodeVerdicts {
  static final byte UNKNOWN = 0;
  static final byte SHORT = 1;
  static final byte FILTERED = 2;
  static final byte NOW = 3;
  static final byte LATER = 4;

  private final Map<Object, Table> tables = new HashMap<>();
  private WeakReference<Session> session = new WeakReference<>(null);
  private int resources = -1;

  /** The verdicts kept for {@code key}, as {@code session} may use them. */
  Table of(Session session, Object key) {
    if (this.session.get() != session) {
      this.session = new WeakReference<>(session);
      if (resources != ResourceNames.count()) {
        resources = ResourceNames.count();
        tables.clear();
      }
      tables.values().removeIf(t -> t.searches == 0);
      tables.values().forEach(Table::newSession);
    }
    Table t = tables.computeIfAbsent(key, k -> new Table());
    t.searches++;
    return t;
  }

  /** Keys kept, for tests. */
  int size() {
    return tables.size();
  }

  /** Searches of one key in a session from which a tree pays for asking again every node that changed. */
  static final int TREE_AFTER = 64;

  /** Verdicts by node position. */
  static final class Table {
    private int searches;
    private int lastSearches;
    private VerdictTree tree;

    private void newSession() {
      lastSearches = searches;
      searches = 0;
    }

    /**
     * Whether searches of this key should use a {@link VerdictTree}: it was searched often, in this session or the
     * last one. A tree asks again every node that changed, a scan only those it visits, so a rare key scans.
     */
    boolean wantsTree() {
      return searches >= TREE_AFTER || lastSearches >= TREE_AFTER;
    }

    /** The key's tree over {@code n} nodes, new when there was none or the node count changed. */
    VerdictTree tree(int n) {
      if (tree == null || tree.size() != n) {
        tree = new VerdictTree(n);
      }
      return tree;
    }

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
