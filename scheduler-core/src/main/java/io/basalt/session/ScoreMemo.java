package io.basalt.session;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NodeScorer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * The scores of node-local scorers ({@link NodeScorer#taskKey} not null) kept per task key and node for one session,
 * each valid while the node's {@link NodeInfo#version} is the one it was worked out at. The sum is still taken scorer
 * by scorer in tier order, so a kept score adds up to exactly what asking again gives and no decision changes.
 */
final class ScoreMemo {
  private final NodeScorer[] scorers;
  private final Map<Object, Table> tables = new HashMap<>();

  /** Node entries kept over all keys, at most (about 40 MB): past it a new key's scores are asked, not kept. */
  static final long MAX_ENTRIES = 2_000_000;

  private final long maxEntries;
  private long entries;

  ScoreMemo(NodeScorer[] scorers) {
    this(scorers, MAX_ENTRIES);
  }

  /** With another bound, for tests. */
  ScoreMemo(NodeScorer[] scorers, long maxEntries) {
    this.scorers = scorers;
    this.maxEntries = maxEntries;
  }

  /** Keys with kept scores (for tests). */
  int keys() {
    return tables.size();
  }

  /**
   * The scoring of {@code task}, for one search: the kept answers of its key, or plain asking when no scorer keeps
   * answers for it (then the result is {@link Callbacks#score}).
   */
  TaskScoring forTask(TaskInfo task) {
    boolean[] keep = null;
    int count = 0;
    Object[] keys = null;
    for (int i = 0; i < scorers.length; i++) {
      Object k = scorers[i].taskKey(task);
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
    Key key = new Key(keep, List.of(Arrays.stream(keys).filter(Objects::nonNull).toArray()));
    Table table = tables.get(key);
    if (table == null) {
      if (entries >= maxEntries) {
        return null; // many shapes this session: a pod of a new one is scored as without keys
      }
      table = new Table(this);
      tables.put(key, table);
    }
    return new TaskScoring(SearchFunctions.forTask(scorers, task), keep, count, table);
  }

  /** Which scorers keep answers and their keys: tasks with equal keys share one table. */
  private record Key(boolean[] keep, List<Object> keys) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(keep, k.keep) && keys.equals(k.keys);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(keep) + keys.hashCode();
    }
  }

  /** Kept scores by node position: {@code count} per node, with the node copy and version they hold for. */
  static final class Table {
    private final ScoreMemo owner;
    NodeInfo[] nodes = new NodeInfo[0];
    int[] versions = new int[0];
    double[] scores = new double[0];

    Table(ScoreMemo owner) {
      this.owner = owner;
    }

    void grow(int position, int stride) {
      int n = Math.max(position + 1, nodes.length * 2);
      owner.entries += (long) (n - nodes.length) * (1 + stride);
      nodes = Arrays.copyOf(nodes, n);
      versions = Arrays.copyOf(versions, n);
      scores = Arrays.copyOf(scores, n * stride);
    }
  }

  /** One task's scoring across the nodes of a search. */
  static final class TaskScoring {
    private final ToDoubleFunction<NodeInfo>[] scorers;
    private final boolean[] keep;
    private final int stride;
    private final Table table;

    TaskScoring(ToDoubleFunction<NodeInfo>[] scorers, boolean[] keep, int stride, Table table) {
      this.scorers = scorers;
      this.keep = keep;
      this.stride = stride;
      this.table = table;
    }

    /** The sum of every scorer for this task on {@code node}, in tier order. */
    double score(NodeInfo node) {
      int p = node.position();
      Table t = table;
      if (p >= t.nodes.length) {
        t.grow(p, stride);
      }
      boolean fresh = t.nodes[p] == node && t.versions[p] == node.version();
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
        t.nodes[p] = node;
        t.versions[p] = node.version();
      }
      return total;
    }
  }
}
