package io.basalt.dra;

import io.basalt.gpu.GpuTopology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Puts the best-linked free devices first, so a request for several GPUs gets an NVLink-connected set where the node's
 * GPU topology ({@code basalt.io/gpu-topology}, nvidia-smi's link matrix) says there is one, chosen as gpu-aware
 * chooses GPUs for {@code nvidia.com/gpu}: the set A maximising {@code S(A) (1 + 2w) - w * sum of rowF(a)}, S the pair
 * scores inside A, rowF(a) the scores from a to every free GPU, w = 0.5 (gpu-aware's default {@code loss.weight});
 * exhaustive up to {@value #EXHAUSTIVE_LIMIT} sets, greedy beyond. A DRA device is one of the node's GPUs when its
 * {@code uuid} attribute (in the driver's domain, as NVIDIA's driver publishes {@code gpu.nvidia.com/uuid}) names a GPU of the
 * topology, else, for a device publishing no uuid, when its {@code index} attribute is a GPU's index. The search
 * still backtracks over every device: the order only decides which feasible set comes first.
 */
final class TopologyOrder {
  static final int EXHAUSTIVE_LIMIT = 5_000;
  private static final double LOSS_WEIGHT = 0.5;

  private TopologyOrder() {}

  /**
   * {@code matching} with the best {@code k} free devices first (the rest after them in their order); unchanged when
   * the topology is unknown or uniform, or fewer than {@code k} free devices map to distinct GPUs of it.
   */
  static List<Candidate> prefer(List<Candidate> matching, int k, GpuTopology gpus, Predicate<Candidate> free) {
    if (gpus == null || gpus.isUniform() || k < 2 || matching.size() < k) {
      return matching;
    }
    List<Candidate> mapped = new ArrayList<>();
    List<Integer> index = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    for (Candidate c : matching) {
      int i = gpuIndex(c, gpus);
      if (i >= 0 && free.test(c)) {
        if (!seen.add(i)) {
          return matching; // two devices claim one GPU (partitions): the mapping says nothing reliable
        }
        mapped.add(c);
        index.add(i);
      }
    }
    int m = mapped.size();
    if (m < k) {
      return matching;
    }
    int[] ids = index.stream().mapToInt(Integer::intValue).toArray();
    double[] row = new double[m];
    for (int a = 0; a < m; a++) {
      for (int b = 0; b < m; b++) {
        row[a] += gpus.score(ids[a], ids[b]);
      }
    }
    int[] best = binomial(m, k) <= EXHAUSTIVE_LIMIT ? exhaustive(gpus, ids, row, k) : greedy(gpus, ids, row, k);
    List<Candidate> out = new ArrayList<>(matching.size());
    Set<Candidate> first = new HashSet<>();
    for (int b : best) {
      out.add(mapped.get(b));
      first.add(mapped.get(b));
    }
    for (Candidate c : matching) {
      if (!first.contains(c)) {
        out.add(c);
      }
    }
    return out;
  }

  /** The node GPU a device is, or -1. */
  static int gpuIndex(Candidate c, GpuTopology gpus) {
    Object uuid = c.attribute(c.id.driver() + "/uuid");
    if (uuid != null) {
      return uuid instanceof String s ? gpus.indexOf(s) : -1;
    }
    Object index = c.attribute(c.id.driver() + "/index");
    return index instanceof Long l && l >= 0 && l < gpus.size() ? (int) (long) l : -1;
  }

  private static double value(GpuTopology t, int[] ids, double[] row, int[] set, int size) {
    double inside = 0;
    double rows = 0;
    for (int a = 0; a < size; a++) {
      rows += row[set[a]];
      for (int b = a + 1; b < size; b++) {
        inside += t.score(ids[set[a]], ids[set[b]]);
      }
    }
    return inside * (1 + 2 * LOSS_WEIGHT) - LOSS_WEIGHT * rows;
  }

  /** Every k-subset in ascending order; the first best is kept. */
  private static int[] exhaustive(GpuTopology t, int[] ids, double[] row, int k) {
    int m = ids.length;
    int[] set = new int[k];
    for (int i = 0; i < k; i++) {
      set[i] = i;
    }
    int[] best = set.clone();
    double bestValue = value(t, ids, row, set, k);
    while (true) {
      int i = k - 1;
      while (i >= 0 && set[i] == m - k + i) {
        i--;
      }
      if (i < 0) {
        return best;
      }
      set[i]++;
      for (int j = i + 1; j < k; j++) {
        set[j] = set[j - 1] + 1;
      }
      double v = value(t, ids, row, set, k);
      if (v > bestValue) {
        bestValue = v;
        best = set.clone();
      }
    }
  }

  /** From each device as a seed, add the one raising the value most until k; the best over seeds. */
  private static int[] greedy(GpuTopology t, int[] ids, double[] row, int k) {
    int m = ids.length;
    int[] best = null;
    double bestValue = Double.NEGATIVE_INFINITY;
    for (int seed = 0; seed < m; seed++) {
      int[] set = new int[k];
      boolean[] in = new boolean[m];
      set[0] = seed;
      in[seed] = true;
      for (int size = 1; size < k; size++) {
        int pick = -1;
        double pickValue = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < m; c++) {
          if (in[c]) {
            continue;
          }
          set[size] = c;
          double v = value(t, ids, row, set, size + 1);
          if (v > pickValue) {
            pickValue = v;
            pick = c;
          }
        }
        set[size] = pick;
        in[pick] = true;
      }
      double v = value(t, ids, row, set, k);
      if (v > bestValue) {
        bestValue = v;
        best = set.clone();
      }
    }
    java.util.Arrays.sort(best);
    return best;
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
}
