package io.basalt.plugins.nodeorder;

/**
 * kube-scheduler's resource scores (noderesources: least_allocated.go, most_allocated.go, balanced_allocation.go),
 * each 0..{@value #MAX_NODE_SCORE}. Integer arithmetic where kube-scheduler uses it, so a node gets the same whole
 * number it would get there. cpu and memory carry equal weights, as in Volcano's nodeorder; a resource the node has
 * none of is left out of the average rather than counted as zero.
 */
final class KubeScores {
  /** kube-scheduler's {@code framework.MaxNodeScore}. */
  static final long MAX_NODE_SCORE = 100;

  private KubeScores() {}

  /** Favors free nodes: the average of {@code (capacity - requested) * 100 / capacity}, 0 once over capacity. */
  static long leastAllocated(long cpuRequested, long cpuCapacity, long memRequested, long memCapacity) {
    long sum = 0;
    int n = 0;
    if (cpuCapacity > 0) {
      sum += leastRequested(cpuRequested, cpuCapacity);
      n++;
    }
    if (memCapacity > 0) {
      sum += leastRequested(memRequested, memCapacity);
      n++;
    }
    // n is 0, 1 or 2 and the sum is not negative: halving it is dividing by n, without a division instruction.
    return n == 2 ? sum >> 1 : sum;
  }

  /** Favors full nodes: the average of {@code requested * 100 / capacity}, requested capped at capacity. */
  static long mostAllocated(long cpuRequested, long cpuCapacity, long memRequested, long memCapacity) {
    long sum = 0;
    int n = 0;
    if (cpuCapacity > 0) {
      sum += mostRequested(cpuRequested, cpuCapacity);
      n++;
    }
    if (memCapacity > 0) {
      sum += mostRequested(memRequested, memCapacity);
      n++;
    }
    return n == 0 ? 0 : sum / n;
  }

  static long leastRequested(long requested, long capacity) {
    if (capacity == 0 || requested > capacity) {
      return 0;
    }
    return (capacity - requested) * MAX_NODE_SCORE / capacity;
  }

  static long mostRequested(long requested, long capacity) {
    if (capacity == 0) {
      return 0;
    }
    // Over capacity happens when pods without requests are counted at the non-zero defaults.
    return Math.min(requested, capacity) * MAX_NODE_SCORE / capacity;
  }

  /** {@code requested / capacity} capped at 1; NaN when the node has none, which leaves the resource out. */
  static double fraction(long requested, long capacity) {
    if (capacity <= 0) {
      return Double.NaN;
    }
    return Math.min(1.0, (double) requested / capacity);
  }

  /**
   * Favors nodes whose resources fill evenly: {@code (1 - std) * 100} over the fractions that are not NaN, in
   * kube-scheduler's order (cpu, memory, then the scalar). Two fractions: std is half their difference; three: the
   * population standard deviation; fewer: 0, so the score is 100.
   */
  static long balancedAllocation(double f0, double f1, double f2) {
    int n = 0;
    double a = 0;
    double b = 0;
    double c = 0;
    // Compact the present fractions into a, b, c keeping their order, without an array.
    if (!Double.isNaN(f0)) {
      a = f0;
      n++;
    }
    if (!Double.isNaN(f1)) {
      if (n == 0) {
        a = f1;
      } else {
        b = f1;
      }
      n++;
    }
    if (!Double.isNaN(f2)) {
      if (n == 0) {
        a = f2;
      } else if (n == 1) {
        b = f2;
      } else {
        c = f2;
      }
      n++;
    }
    double std = 0;
    if (n == 2) {
      std = Math.abs((a - b) / 2);
    } else if (n == 3) {
      double mean = (a + b + c) / 3;
      double sum = 0;
      sum = sum + (a - mean) * (a - mean);
      sum = sum + (b - mean) * (b - mean);
      sum = sum + (c - mean) * (c - mean);
      std = Math.sqrt(sum / 3);
    }
    return (long) ((1 - std) * MAX_NODE_SCORE);
  }
}
