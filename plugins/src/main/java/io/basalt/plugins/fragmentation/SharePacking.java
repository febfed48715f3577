package io.basalt.plugins.fragmentation;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;

/**
 * What a GPU's free room is worth to the shares of the recent workload, and so what a share's place on a GPU costs:
 * the prices of the best packing of those shares onto as few GPUs as possible.
 *
 * <p>The packing is the linear program of bin packing (cutting stock, Gilmore and Gomory): cover the mix's count
 * d_s of shares of each size s (percent of a GPU) with GPUs, each holding a pattern of sizes that sums to at most
 * 100. Its dual gives each size a price y_s, the part of a GPU it is worth in the best packing (for the openb trace
 * an 81% share 1, a 47% one 1/2, a 32% one 1/3, the small ones that fill other shares' gaps 0), with no pattern worth
 * more than 1. Free room of f percent is worth V(f), the most any pattern fitting f is worth at those prices (an
 * unbounded knapsack). Putting a share of size s where f is free costs
 *
 * <pre>  cost(f, s) = V(f) - V(f - s) - y_s  (>= 0, in GPUs)</pre>
 *
 * zero when the share and what the GPU can still take make a pattern of the best packing, more when it spoils the
 * room for the shares that would have filled it: a 32% share beside a 47% one leaves 21% that only rare small shares
 * fill (cost 1/2 - 1/3 = 1/6), beside a 65% one nothing is lost. FGD's fragmentation sees only the next pod; this
 * sees the packing the workload tends to.
 *
 * <p>The dual is solved by generating patterns: start from one size per GPU, solve, add the pattern the knapsack
 * finds worth more than 1, until none is.
 */
final class SharePacking {
  /** No shares seen: every cost 0. */
  static final SharePacking NONE = new SharePacking(new double[101]);

  /** Patterns added at most; the openb mix needs about 30. */
  static final int MAX_ROUNDS = 500;

  private final double[] price;
  private final double[] value = new double[101];

  private SharePacking(double[] price) {
    this.price = price;
    for (int f = 1; f <= 100; f++) {
      double best = value[f - 1];
      for (int s = 1; s <= f; s++) {
        if (price[s] > 0) {
          best = Math.max(best, price[s] + value[f - s]);
        }
      }
      value[f] = best;
    }
  }

  /**
   * Prices for a mix of {@code counts[s]} share pods of {@code s} percent (s from 1 to 99; the rest ignored).
   */
  static SharePacking of(int[] counts) {
    List<Integer> sizes = new ArrayList<>();
    for (int s = 1; s < Math.min(100, counts.length); s++) {
      if (counts[s] > 0) {
        sizes.add(s);
      }
    }
    if (sizes.isEmpty()) {
      return NONE;
    }
    int n = sizes.size();
    double[] demand = new double[n];
    int[] size = new int[n];
    List<LinearConstraint> patterns = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      size[i] = sizes.get(i);
      demand[i] = counts[size[i]];
      double[] a = new double[n];
      a[i] = 100 / size[i];
      patterns.add(new LinearConstraint(a, Relationship.LEQ, 1));
    }
    double[] y = new double[n];
    for (int round = 0; round < MAX_ROUNDS; round++) {
      PointValuePair solution = new SimplexSolver().optimize(new MaxIter(10_000),
          new LinearObjectiveFunction(demand, 0), new LinearConstraintSet(patterns), GoalType.MAXIMIZE,
          new NonNegativeConstraint(true));
      y = solution.getPoint();
      double[] best = bestPattern(size, y);
      double worth = 0;
      for (int i = 0; i < n; i++) {
        worth += best[i] * y[i];
      }
      if (worth <= 1 + 1e-9) {
        break;
      }
      patterns.add(new LinearConstraint(best, Relationship.LEQ, 1));
    }
    double[] price = new double[101];
    for (int i = 0; i < n; i++) {
      price[size[i]] = Math.max(0, y[i]);
    }
    return new SharePacking(price);
  }

  /** The pattern (count per size) of at most 100 percent worth most at prices {@code y}: an unbounded knapsack. */
  private static double[] bestPattern(int[] size, double[] y) {
    double[] worth = new double[101];
    int[] last = new int[101];
    for (int c = 1; c <= 100; c++) {
      worth[c] = worth[c - 1];
      last[c] = -1;
      for (int i = 0; i < size.length; i++) {
        if (size[i] <= c && y[i] + worth[c - size[i]] > worth[c] + 1e-12) {
          worth[c] = y[i] + worth[c - size[i]];
          last[c] = i;
        }
      }
    }
    double[] pattern = new double[size.length];
    for (int c = 100; c > 0; ) {
      if (last[c] < 0) {
        c--;
      } else {
        pattern[last[c]]++;
        c -= size[last[c]];
      }
    }
    return pattern;
  }

  /** The price of a share of {@code size} percent: the part of a GPU it is worth in the best packing. */
  double price(int size) {
    return size > 0 && size < 100 ? price[size] : 0;
  }

  /** What {@code free} percent of a GPU is worth to the mix's shares. */
  double value(int free) {
    return value[Math.max(0, Math.min(100, free))];
  }

  /** What putting a share of {@code size} percent where {@code free} percent is free loses, in GPUs (>= 0). */
  double cost(int free, int size) {
    if (size <= 0 || size > free) {
      return 0;
    }
    return Math.max(0, value(free) - value(free - size) - price(size));
  }
}
