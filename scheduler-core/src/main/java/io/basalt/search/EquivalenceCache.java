package io.basalt.search;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NodeScorer;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The equivalence cache: what node searches were told on each node for tasks of one {@link EquivalenceKey}, short of
 * resources, filtered out, or feasible with its score, now or once releasing pods are gone. An entry holds while the
 * node copy and its {@link NodeInfo#version} are the ones it was found at, since then every filter and scorer would
 * answer the same. A placement changes one node, so the next pod of the same kind re-asks one node instead of the few
 * hundred a search visits.
 *
 * <p>The verdicts outlive the session: a node copy the cache hands to the next session unchanged is the same object at
 * the same version, and keyed filters and scorers answer from the config, the task key and the node alone (see
 * {@link io.basalt.framework.PodSigner}). A new resource name (which re-slots what plugins resolve at session
 * open) drops them all; a key no search of the last session asked for is dropped, so rare shapes hold no memory.
 *
 * <p>When some scorer names no key, the verdicts are kept without scores, and the scores of the scorers that do name
 * one are kept per node for the session ({@link #scoring}): the sum is still taken scorer by scorer in tier order, so
 * a kept score adds up to exactly what asking again gives. One search owns the cache, and a search serves one
 * scheduling loop.
 */
final class EquivalenceCache {
  static final byte UNKNOWN = 0;
  static final byte SHORT = 1;
  static final byte FILTERED = 2;
  static final byte NOW = 3;
  static final byte LATER = 4;

  /** Node entries kept over all keys, at most: about 40 MB whatever the cluster size, so rare shapes cannot grow it. */
  static final long MAX_ENTRIES = 2_000_000;
  /** Tree leaves kept over all keys, at most (about 30 MB). */
  static final long MAX_TREE_LEAVES = 1 << 19;

  private final long maxEntries;
  private final long maxTreeLeaves;
  private final Map<Object, Table> tables = new HashMap<>();
  private WeakReference<Session> session = new WeakReference<>(null);
  private int resources = -1;
  private int maxKeys = Integer.MAX_VALUE;
  private long treeLeaves;
  /** Grouped scorers' kept answers over all keys ({@link #grouped}), counted per node and scorer. */
  private long groupedEntries;
  /** The session's kept scores of keyed scorers, for tasks some other scorer's answer cannot be kept for. */
  private final Map<ScoreKey, ScoreTable> scoreTables = new HashMap<>();
  private final long maxScoreEntries;
  private long scoreEntries;

  EquivalenceCache() {
    this(MAX_ENTRIES, MAX_TREE_LEAVES, MAX_ENTRIES);
  }

  /** With other bounds, for tests. */
  EquivalenceCache(long maxEntries, long maxTreeLeaves, long maxScoreEntries) {
    this.maxEntries = maxEntries;
    this.maxTreeLeaves = maxTreeLeaves;
    this.maxScoreEntries = maxScoreEntries;
  }

  /**
   * The verdicts kept for {@code key}, as {@code session} may use them; null when as many keys as the memory bound
   * allows are kept already (the search then asks every node, as without keys).
   */
  Table of(Session session, Object key) {
    use(session);
    Table t = tables.get(key);
    if (t == null) {
      if (tables.size() >= maxKeys) {
        return null;
      }
      t = new Table(session.nodes().size());
      tables.put(key, t);
    }
    t.searches++;
    return t;
  }

  private void use(Session session) {
    if (this.session.get() != session) {
      newSession(session);
    }
  }

  /**
   * Drops what the last session did not use, the least searched keys beyond the bound, and the last session's kept
   * scores.
   */
  private void newSession(Session session) {
    this.session = new WeakReference<>(session);
    scoreTables.clear();
    scoreEntries = 0;
    if (resources != ResourceNames.count()) {
      resources = ResourceNames.count();
      tables.clear();
    }
    tables.values().removeIf(t -> t.searches == 0);
    maxKeys = (int) Math.max(8, maxEntries / Math.max(1, session.nodes().size()));
    if (tables.size() > maxKeys) {
      List<Table> bySearches = new ArrayList<>(tables.values());
      bySearches.sort(Comparator.comparingInt((Table t) -> t.searches).reversed());
      Set<Table> keep = Collections.newSetFromMap(new IdentityHashMap<>());
      keep.addAll(bySearches.subList(0, maxKeys));
      tables.values().removeIf(t -> !keep.contains(t));
    }
    treeLeaves = 0;
    groupedEntries = 0;
    for (Table t : tables.values()) {
      t.newSession();
      treeLeaves += t.tree == null ? 0 : t.tree.leaves();
      groupedEntries += t.grouped == null ? 0 : t.grouped.entries();
    }
  }

  /**
   * {@code table}'s tree over {@code n} nodes, new when it had none or the node count changed; null when a new tree
   * would pass the memory bound.
   */
  FeasibilityTree tree(Table table, int n) {
    if (table.tree != null && table.tree.size() == n) {
      return table.tree;
    }
    FeasibilityTree fresh = new FeasibilityTree(n);
    long held = treeLeaves - (table.tree == null ? 0 : table.tree.leaves());
    if (held + fresh.leaves() > maxTreeLeaves) {
      return null;
    }
    treeLeaves = held + fresh.leaves();
    table.tree = fresh;
    return fresh;
  }

  /**
   * The kept answers of {@code table}'s key, which has a grouped scorer among {@code scorers} scorers; null when
   * keeping them would pass the memory bound (the search then asks every scorer on the nodes it visits).
   */
  GroupedScores grouped(Table table, EquivalenceKey key, int scorers) {
    if (table.grouped == null) {
      long entries = (long) (table.nodes.length + 1) * scorers;
      if (groupedEntries + entries > maxEntries) {
        return null;
      }
      groupedEntries += entries;
      table.grouped = new GroupedScores(key.grouped, scorers);
    }
    return table.grouped;
  }

  /** Keys kept, for tests. */
  int size() {
    return tables.size();
  }

  /** Keys with kept scores this session, for tests. */
  int scoreKeys() {
    return scoreTables.size();
  }

  /** Searches of one key in a session from which a tree pays for asking again every node that changed. */
  static final int TREE_AFTER = 64;

  /** Verdicts by node position. */
  static final class Table {
    private int searches;
    private int lastSearches;
    private FeasibilityTree tree;
    /** The {@link NodeInfo#serial} of the copy each entry was found on. */
    private long[] nodes;
    private int[] versions;
    private byte[] outcomes;
    private double[] scores;
    /** The search functions of this session's first task of this key, for its later tasks; null until then. */
    private PreparedChecks prepared;
    /** For a key with a grouped scorer, the other scorers' answers per node; null until first asked. */
    private GroupedScores grouped;

    Table(int capacity) {
      nodes = new long[capacity];
      versions = new int[capacity];
      outcomes = new byte[capacity];
      scores = new double[capacity];
    }

    private void newSession() {
      lastSearches = searches;
      searches = 0;
      prepared = null;
    }

    /**
     * Whether searches of this key should use a {@link FeasibilityTree}: it was searched often, in this session or the
     * last one. A tree asks again every node that changed, a scan only those it visits, so a rare key scans.
     */
    boolean wantsTree() {
      return searches >= TREE_AFTER || lastSearches >= TREE_AFTER;
    }

    /**
     * The search functions for {@code task}, a task of this key whose filters and scorers all key their answers:
     * prepared for the first such task of {@code session} and shared by the rest (they answer alike on every node).
     * A new session prepares anew: what a plugin prepares may read the session it was opened for.
     */
    PreparedChecks prepared(SessionPlugins plugins, EquivalenceKey key, TaskInfo task, boolean[] skip) {
      if (prepared == null) {
        prepared = key.grouped < 0 ? PreparedChecks.fresh(plugins, key.signed, task, skip)
            : PreparedChecks.grouped(plugins, key.signed, task, skip);
      }
      return prepared;
    }

    /** The kept verdict on {@code node}, or {@link #UNKNOWN} when none holds for its current state. */
    byte outcome(NodeInfo node) {
      return outcome(node.position(), node.serial(), node.version());
    }

    /**
     * As {@link #outcome(NodeInfo)} for the node at position {@code p} whose serial number and version are given
     * (a search reads them from the session's index, not from the node).
     */
    byte outcome(int p, long serial, int version) {
      return p < nodes.length && nodes[p] == serial && versions[p] == version ? outcomes[p] : UNKNOWN;
    }

    /** The kept score at position {@code p}, read after {@link #outcome} said {@link #NOW} or {@link #LATER}. */
    double score(int p) {
      return scores[p];
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
      nodes[p] = node.serial();
      versions[p] = node.version();
      outcomes[p] = outcome;
      scores[p] = score;
    }
  }

  /**
   * The scoring of {@code task} for one search, the answers of scorers that name a key kept per node for the session
   * and the others asked; null when no scorer names a key, or when the session keeps as many scores as its bound
   * allows (then asking every scorer is the answer).
   */
  ToDoubleFunction<NodeInfo> scoring(Session session, SessionPlugins plugins, TaskInfo task) {
    use(session);
    NodeScorer[] scorers = plugins.scorers;
    boolean[] keep = null;
    int count = 0;
    Object[] keys = null;
    for (int i = 0; i < scorers.length; i++) {
      Object k = EquivalenceKey.signature(scorers[i], task);
      if (k == null) {
        continue;
      }
      if (keep == null) {
        keep = new boolean[scorers.length];
        keys = new Object[scorers.length];
      }
      keep[i] = true;
      keys[i] = k;
      count++;
    }
    if (keep == null) {
      return null;
    }
    Object[] named = new Object[count];
    for (int i = 0, j = 0; i < keys.length; i++) {
      if (keep[i]) {
        named[j++] = keys[i];
      }
    }
    ScoreKey key = new ScoreKey(keep, List.of(named));
    ScoreTable table = scoreTables.get(key);
    if (table == null) {
      if (scoreEntries >= maxScoreEntries) {
        return null; // many shapes this session: a pod of a new one is scored as without keys
      }
      table = new ScoreTable(session.nodes().size());
      scoreTables.put(key, table);
    }
    // A keyed scorer answers alike for tasks of one key, so it is prepared once per key and session, as the kept
    // answers are; the others are prepared for this task.
    @SuppressWarnings("unchecked")
    ToDoubleFunction<NodeInfo>[] fns = new ToDoubleFunction[scorers.length];
    for (int i = 0; i < scorers.length; i++) {
      if (keep[i] && table.prepared != null) {
        fns[i] = table.prepared[i];
      } else {
        fns[i] = PreparedChecks.forTask(scorers[i], task);
      }
    }
    if (table.prepared == null) {
      table.prepared = fns;
    }
    return new KeptScoring(fns, keep, count, table);
  }

  /** Which scorers keep answers and their keys: tasks with equal keys share one table. */
  private record ScoreKey(boolean[] keep, List<Object> keys) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ScoreKey k && Arrays.equals(keep, k.keep) && keys.equals(k.keys);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(keep) + keys.hashCode();
    }
  }

  /** Kept scores by node position: {@code stride} per node, with the node copy and version they hold for. */
  private final class ScoreTable {
    /** The scorers as prepared for the first task of this key; the keyed ones serve the key's later tasks. */
    ToDoubleFunction<NodeInfo>[] prepared;
    /** The session's node count: the first growth makes room for every node at once. */
    private final int clusterSize;
    long[] nodes = new long[0];
    int[] versions = new int[0];
    double[] scores = new double[0];

    ScoreTable(int clusterSize) {
      this.clusterSize = clusterSize;
    }

    void grow(int position, int stride) {
      int n = Math.max(position + 1, Math.max(nodes.length * 2, clusterSize));
      scoreEntries += (long) (n - nodes.length) * (1 + stride);
      int old = nodes.length;
      nodes = Arrays.copyOf(nodes, n);
      Arrays.fill(nodes, old, n, -1);
      versions = Arrays.copyOf(versions, n);
      scores = Arrays.copyOf(scores, n * stride);
    }
  }

  /** One task's scoring across the nodes of a search: kept answers of keyed scorers, the rest asked. */
  private static final class KeptScoring implements ToDoubleFunction<NodeInfo> {
    private final ToDoubleFunction<NodeInfo>[] scorers;
    private final boolean[] keep;
    private final int stride;
    private final ScoreTable table;

    KeptScoring(ToDoubleFunction<NodeInfo>[] scorers, boolean[] keep, int stride, ScoreTable table) {
      this.scorers = scorers;
      this.keep = keep;
      this.stride = stride;
      this.table = table;
    }

    /** The sum of every scorer for this task on {@code node}, in tier order. */
    @Override
    public double applyAsDouble(NodeInfo node) {
      int p = node.position();
      ScoreTable t = table;
      if (p >= t.nodes.length) {
        t.grow(p, stride);
      }
      boolean fresh = t.nodes[p] == node.serial() && t.versions[p] == node.version();
      int base = p * stride;
      double total = 0;
      int j = 0;
      for (int i = 0; i < scorers.length; i++) {
        double s;
        if (keep[i]) {
          if (fresh) {
            s = t.scores[base + j];
          } else {
            s = scorers[i].applyAsDouble(node);
            t.scores[base + j] = s;
          }
          j++;
        } else {
          s = scorers[i].applyAsDouble(node);
        }
        total += s;
      }
      if (!fresh) {
        t.nodes[p] = node.serial();
        t.versions[p] = node.version();
      }
      return total;
    }
  }
}
