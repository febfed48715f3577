package io.basalt.plugins.gpuaware;

import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuTopology;
import java.util.HashMap;
import java.util.Map;

/**
 * Chooses which free GPUs of a node a pod should get: the set A of the requested size that maximises
 * {@code V(A) = S(A) - lossWeight * cut(A, R)}, where S(A) sums the pair scores inside A and cut(A, R) sums the pair
 * scores between A and the GPUs R that stay free. Using {@code cut(A, R) = sum over a in A of rowF(a) - 2 S(A)},
 * with rowF(a) the scores from a to every free GPU, this is {@code S(A) (1 + 2 lossWeight) - lossWeight * sum rowF}.
 *
 * <p>Exhaustive (ascending index order, first best kept) while C(free, k) is at most {@value #EXHAUSTIVE_LIMIT};
 * beyond that a greedy heuristic: from each free GPU as a seed, add the GPU that raises V most until k are chosen,
 * and keep the best. Results are cached by (topology, free devices, k), so a pool of identical nodes in the same state
 * is evaluated once.
 */
final class DeviceSelector {
  static final int EXHAUSTIVE_LIMIT = 5_000;
  private static final int CACHE_LIMIT = 100_000;

  /** The chosen devices and their value. */
  record Choice(DeviceSet devices, double value) {}

  private record Key(GpuTopology topology, DeviceSet free, int k) {}

  private final double lossWeight;
  private final Map<Key, Choice> cache = new HashMap<>();

  DeviceSelector(double lossWeight) {
    this.lossWeight = lossWeight;
  }

  /** The best {@code k} of the {@code free} GPUs, or null when fewer than {@code k} are free. */
  Choice choose(GpuTopology t, DeviceSet free, int k) {
    if (free.size() < k || k <= 0) {
      return null;
    }
    Key key = new Key(t, free, k);
    Choice c = cache.get(key);
    if (c == null) {
      if (cache.size() >= CACHE_LIMIT) {
        cache.clear();
      }
      c = compute(t, free, k);
      cache.put(key, c);
    }
    return c;
  }

  private Choice compute(GpuTopology t, DeviceSet free, int k) {
    int[] ids = free.toArray();
    int m = ids.length;
    double[] row = new double[m];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        row[i] += t.score(ids[i], ids[j]);
      }
    }
    Search s = new Search(t, ids, row, k);
    if (binomial(m, k) <= EXHAUSTIVE_LIMIT) {
      s.exhaustive(0, 0, 0, 0);
    } else {
      s.greedy();
    }
    return new Choice(DeviceSet.of(s.best), s.bestValue);
  }

  static long binomial(int n, int k) {
    long r = 1;
    for (int i = 1; i <= k; i++) {
      r = r * (n - k + i) / i;
      if (r > Integer.MAX_VALUE) {
        return r;
      }
    }
    return r;
  }

  /**
   * One search over the free GPUs {@code ids}. Pair scores are whole numbers, so every sum below is exact in a double
   * and does not depend on the order it is added in.
   */
  private final class Search {
    final GpuTopology t;
    final int[] ids;
    final double[] row;
    final int k;
    final int[] chosen;
    /** The best set's devices. */
    int[] best;
    double bestValue = Double.NEGATIVE_INFINITY;

    Search(GpuTopology t, int[] ids, double[] row, int k) {
      this.t = t;
      this.ids = ids;
      this.row = row;
      this.k = k;
      this.chosen = new int[k];
    }

    double value(double inner, double rowSum) {
      return inner * (1 + 2 * lossWeight) - lossWeight * rowSum;
    }

    void exhaustive(int from, int depth, double inner, double rowSum) {
      if (depth == k) {
        double v = value(inner, rowSum);
        if (v > bestValue + 1e-9) {
          bestValue = v;
          best = new int[k];
          for (int d = 0; d < k; d++) {
            best[d] = ids[chosen[d]];
          }
        }
        return;
      }
      for (int i = from; i <= ids.length - (k - depth); i++) {
        double added = 0;
        for (int d = 0; d < depth; d++) {
          added += t.score(ids[chosen[d]], ids[i]);
        }
        chosen[depth] = i;
        exhaustive(i + 1, depth + 1, inner + added, rowSum + row[i]);
      }
    }

    void greedy() {
      int n = ids.length;
      for (int seed = 0; seed < n; seed++) {
        boolean[] in = new boolean[n];
        int[] set = new int[k];
        // gain[c]: the pair scores from candidate c to the GPUs chosen so far.
        double[] gain = new double[n];
        in[seed] = true;
        set[0] = ids[seed];
        for (int c = 0; c < n; c++) {
          gain[c] = t.score(ids[seed], ids[c]);
        }
        double inner = 0;
        double rowSum = row[seed];
        for (int size = 1; size < k; size++) {
          int pick = -1;
          double pickValue = Double.NEGATIVE_INFINITY;
          for (int c = 0; c < n; c++) {
            if (in[c]) {
              continue;
            }
            double v = value(inner + gain[c], rowSum + row[c]);
            if (v > pickValue + 1e-9) {
              pickValue = v;
              pick = c;
            }
          }
          in[pick] = true;
          set[size] = ids[pick];
          inner += gain[pick];
          rowSum += row[pick];
          for (int c = 0; c < n; c++) {
            gain[c] += t.score(ids[pick], ids[c]);
          }
        }
        double v = value(inner, rowSum);
        if (v > bestValue + 1e-9) {
          bestValue = v;
          best = set;
        }
      }
    }
  }
}
