package io.basalt.search;

import io.basalt.api.NodeInfo;
import io.basalt.framework.GroupedScorer;
import io.basalt.session.Session;
import java.util.Arrays;
import java.util.List;

/**
 * One task key's kept verdicts as a tree over the session's node positions: how many nodes are feasible in each
 * range and the best score there, now and once releasing pods are gone (leftmost on ties). A search then finds the
 * window a scan from its start would visit (until enough feasible nodes were seen) and the best node in it in
 * O(log n), where the scan visits each of the window's nodes: hundreds per pod for a common pod shape.
 *
 * <p>Before each search the leaves of nodes that changed are asked again: within a session from the session's change
 * log ({@link CapacityIndex#changedAt}), in a new session from the node copies (a copy the cache handed on unchanged keeps
 * its leaf). Asking again costs what a scan's visit costs, so only keys searched often are worth a tree
 * (see {@link EquivalenceCache.Table#wantsTree}). For a key with a grouped scorer, the feasible leaves of a group whose
 * value moved are scored again too (verdicts stand: only the score changed).
 */
final class FeasibilityTree {
  /** Asks fit, filters and scores of one node, as a scan's visit does. */
  interface Evaluator {
    /** {@link EquivalenceCache#SHORT}, {@link EquivalenceCache#FILTERED}, {@link EquivalenceCache#NOW} or {@link EquivalenceCache#LATER}. */
    byte evaluate(NodeInfo node);

    /** The score of the last node evaluated feasible. */
    double lastScore();

    /** The score now of a node whose leaf is feasible and current, after a grouped scorer's value moved. */
    double rescore(NodeInfo node);
  }

  private final int n;
  private final int leaves;
  private final int[] count;
  private final double[] now;
  private final int[] nowAt;
  private final double[] later;
  private final int[] laterAt;
  /** The {@link NodeInfo#serial} of the copy each leaf was worked out from. */
  private final long[] nodes;
  private final int[] versions;
  /** Each leaf's outcome, to score feasible leaves again. */
  private final byte[] outcomes;
  private CapacityIndex index;
  private int logSeen;
  /** The groups the scores were last worked out with, and each group's stamp then; null for keys without. */
  private GroupedScorer.Groups groups;
  private int[] stamps;
  /** Scratch for {@link #rescore}: the inner nodes of a level whose best is to be worked out again. */
  private int[] touched = new int[0];

  FeasibilityTree(int n) {
    this.n = n;
    int size = 1;
    while (size < Math.max(1, n)) {
      size <<= 1;
    }
    this.leaves = size;
    this.count = new int[2 * size];
    this.now = new double[2 * size];
    this.later = new double[2 * size];
    this.nowAt = new int[2 * size];
    this.laterAt = new int[2 * size];
    Arrays.fill(now, Double.NEGATIVE_INFINITY);
    Arrays.fill(later, Double.NEGATIVE_INFINITY);
    Arrays.fill(nowAt, -1);
    Arrays.fill(laterAt, -1);
    this.nodes = new long[n];
    this.versions = new int[n];
    this.outcomes = new byte[n];
  }

  int size() {
    return n;
  }

  /** Leaves, a power of two at least the node count: what the tree's memory grows with. */
  int leaves() {
    return leaves;
  }

  /**
   * Asks again every node whose state is not the one its leaf was worked out from, then scores again the feasible
   * leaves of each of {@code current}'s groups whose value moved (all of them with new groups); {@code current} is
   * null for a key without a grouped scorer.
   */
  void refresh(Session session, Evaluator eval, GroupedScorer.Groups current) {
    refresh(session, eval);
    if (current != null) {
      regroup(session.nodes(), eval, current);
    }
  }

  private void regroup(List<NodeInfo> list, Evaluator eval, GroupedScorer.Groups current) {
    int count = current.count();
    if (current != groups) {
      groups = current;
      stamps = new int[count];
      for (int g = 0; g < count; g++) {
        stamps[g] = current.stamp(g);
      }
      rescore(null, list, eval);
      return;
    }
    for (int g = 0; g < count; g++) {
      int stamp = current.stamp(g);
      if (stamps[g] != stamp) {
        stamps[g] = stamp;
        rescore(current.members(g), list, eval);
      }
    }
  }

  /**
   * Scores again the feasible leaves of {@code positions} (ascending; null for every position), then works out each
   * ancestor of a changed leaf once, level by level: a group's nodes cost their number plus the tree's height, not
   * a climb each.
   */
  private void rescore(int[] positions, List<NodeInfo> list, Evaluator eval) {
    int size = positions == null ? n : positions.length;
    if (touched.length < size) {
      touched = new int[Math.max(size, 2 * touched.length)];
    }
    int t = 0;
    for (int i = 0; i < size; i++) {
      int p = positions == null ? i : positions[i];
      byte outcome = outcomes[p];
      if (outcome < EquivalenceCache.NOW) {
        continue;
      }
      double score = eval.rescore(list.get(p));
      boolean choosable = score > Double.NEGATIVE_INFINITY;
      int leaf = p + leaves;
      double[] scores = outcome == EquivalenceCache.NOW ? now : later;
      int[] at = outcome == EquivalenceCache.NOW ? nowAt : laterAt;
      scores[leaf] = choosable ? score : Double.NEGATIVE_INFINITY;
      at[leaf] = choosable ? p : -1;
      touched[t++] = leaf >> 1;
    }
    while (t > 0 && touched[0] > 0) {
      int parents = 0;
      int last = -1;
      for (int i = 0; i < t; i++) {
        int node = touched[i];
        if (node != last) {
          last = node;
          pick(now, nowAt, node);
          pick(later, laterAt, node);
          touched[parents++] = node >> 1;
        }
      }
      t = parents;
    }
  }

  /** Sets inner node {@code i}'s best from its children's, the left one on ties (as {@link #climb} does). */
  private static void pick(double[] score, int[] at, int i) {
    int l = 2 * i;
    int r = l + 1;
    boolean right = score[r] > score[l];
    score[i] = right ? score[r] : score[l];
    at[i] = right ? at[r] : at[l];
  }

  /** Asks again every node whose state is not the one its leaf was worked out from. */
  void refresh(Session session, Evaluator eval) {
    CapacityIndex idx = CapacityIndex.of(session);
    List<NodeInfo> list = session.nodes();
    if (idx != index) {
      for (int p = 0; p < n; p++) {
        NodeInfo node = list.get(p);
        if (nodes[p] != node.serial() || versions[p] != node.version()) {
          set(p, node, eval);
        }
      }
      index = idx;
      logSeen = idx.changes();
      return;
    }
    int size = idx.changes();
    for (int i = logSeen; i < size; i++) {
      int p = idx.changedAt(i);
      NodeInfo node = list.get(p);
      if (nodes[p] != node.serial() || versions[p] != node.version()) {
        set(p, node, eval);
      }
    }
    logSeen = size;
  }

  private void set(int p, NodeInfo node, Evaluator eval) {
    byte outcome = eval.evaluate(node);
    put(p, node, outcome, outcome >= EquivalenceCache.NOW ? eval.lastScore() : Double.NEGATIVE_INFINITY);
  }

  /** Sets the leaf of position {@code p} (package-private for tests). */
  void put(int p, NodeInfo node, byte outcome, double score) {
    nodes[p] = node.serial();
    versions[p] = node.version();
    outcomes[p] = outcome;
    int leaf = p + leaves;
    int feasible = outcome >= EquivalenceCache.NOW ? 1 : 0;
    int delta = feasible - count[leaf];
    count[leaf] = feasible;
    // A scan keeps a node only for a score above the best so far, which starts at -infinity: NaN and -infinity
    // are never chosen.
    boolean choosable = score > Double.NEGATIVE_INFINITY;
    now[leaf] = outcome == EquivalenceCache.NOW && choosable ? score : Double.NEGATIVE_INFINITY;
    nowAt[leaf] = outcome == EquivalenceCache.NOW && choosable ? p : -1;
    later[leaf] = outcome == EquivalenceCache.LATER && choosable ? score : Double.NEGATIVE_INFINITY;
    laterAt[leaf] = outcome == EquivalenceCache.LATER && choosable ? p : -1;
    // Three climbs, each touching only its own arrays: the counts by the change (every ancestor, when there is one),
    // each best up to the first ancestor the change leaves as it was (every one above is then unchanged too).
    if (delta != 0) {
      for (int i = leaf >> 1; i > 0; i >>= 1) {
        count[i] += delta;
      }
    }
    climb(now, nowAt, leaf);
    climb(later, laterAt, leaf);
  }

  private static void climb(double[] score, int[] at, int leaf) {
    for (int i = leaf >> 1; i > 0; i >>= 1) {
      int l = 2 * i;
      int r = l + 1;
      boolean right = score[r] > score[l];
      double best = right ? score[r] : score[l];
      int bestAt = right ? at[r] : at[l];
      if (best == score[i] && bestAt == at[i]) {
        return;
      }
      score[i] = best;
      at[i] = bestAt;
    }
  }

  /**
   * What a scan from {@code start} would find: it visits positions start, start+1, ... wrapping around, until it has
   * seen {@code toFind} feasible nodes or every node. Sets the best node now and later into {@code best}; returns the
   * position the next search starts at (after the last feasible node seen, or {@code start} when it saw every node).
   */
  int search(List<NodeInfo> list, int start, int toFind, NodeSearchResult best) {
    int total = count[1];
    int firstNow;
    int firstLater;
    int secondNow = -1;
    int secondLater = -1;
    int next;
    int before = feasibleBefore(start);
    int after = total - before;
    if (total < toFind) {
      firstNow = best(now, nowAt, start, n - 1);
      firstLater = best(later, laterAt, start, n - 1);
      if (start > 0) {
        secondNow = best(now, nowAt, 0, start - 1);
        secondLater = best(later, laterAt, 0, start - 1);
      }
      next = start;
    } else if (after >= toFind) {
      int end = select(before + toFind);
      firstNow = best(now, nowAt, start, end);
      firstLater = best(later, laterAt, start, end);
      next = (end + 1) % n;
    } else {
      int end = select(toFind - after);
      firstNow = best(now, nowAt, start, n - 1);
      firstLater = best(later, laterAt, start, n - 1);
      secondNow = best(now, nowAt, 0, end);
      secondLater = best(later, laterAt, 0, end);
      next = (end + 1) % n;
    }
    int nowPos = then(now, firstNow, secondNow);
    int laterPos = then(later, firstLater, secondLater);
    best.found(nowPos < 0 ? null : list.get(nowPos), laterPos < 0 ? null : list.get(laterPos));
    return next;
  }

  /**
   * Of the best positions of an earlier and a later range (-1 for none), the earlier one unless the later one's
   * score is strictly higher, as a scan in visit order keeps.
   */
  private int then(double[] score, int earlier, int later) {
    return scoreAt(score, later) > scoreAt(score, earlier) ? later : earlier;
  }

  /** The score of the leaf at {@code p}, or -infinity for no position. */
  private double scoreAt(double[] score, int p) {
    return p < 0 ? Double.NEGATIVE_INFINITY : score[p + leaves];
  }

  /** Where a search's outcome goes. */
  interface NodeSearchResult {
    void found(NodeInfo now, NodeInfo later);
  }

  /** Feasible nodes at positions below {@code p}. */
  private int feasibleBefore(int p) {
    int sum = 0;
    for (int l = leaves, r = p + leaves; l < r; l >>= 1, r >>= 1) {
      if ((r & 1) == 1) {
        sum += count[--r];
      }
    }
    return sum;
  }

  /** The position of the {@code k}-th feasible node (1-based), counting from position 0. */
  private int select(int k) {
    int i = 1;
    while (i < leaves) {
      int l = 2 * i;
      if (count[l] >= k) {
        i = l;
      } else {
        k -= count[l];
        i = l + 1;
      }
    }
    return i - leaves;
  }

  /** The best of positions {@code lo..hi} (inclusive), the leftmost on ties; -1 when none can be chosen. */
  private int best(double[] score, int[] at, int lo, int hi) {
    double leftScore = Double.NEGATIVE_INFINITY;
    int leftAt = -1;
    double rightScore = Double.NEGATIVE_INFINITY;
    int rightAt = -1;
    for (int l = lo + leaves, r = hi + leaves + 1; l < r; l >>= 1, r >>= 1) {
      if ((l & 1) == 1) {
        if (score[l] > leftScore) {
          leftScore = score[l];
          leftAt = at[l];
        }
        l++;
      }
      if ((r & 1) == 1) {
        r--;
        if (score[r] >= rightScore && at[r] >= 0) {
          rightScore = score[r];
          rightAt = at[r];
        }
      }
    }
    return rightScore > leftScore ? rightAt : leftAt;
  }
}
