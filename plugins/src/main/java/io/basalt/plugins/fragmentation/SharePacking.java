package io.basalt.plugins.fragmentation;

import java.util.ArrayList;
import java.util.Arrays;
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
 * unbounded knapsack). A share of s is worth V(s) (at least y_s; equal for an optimal dual's usual vertex, and
 * defined for sizes the program left out or never saw, such as a whole-GPU share of 100%), and putting it where f
 * is free costs
 *
 * <pre>  cost(f, s) = V(f) - V(f - s) - V(s)  (>= 0, in GPUs, as V is superadditive)</pre>
 *
 * zero when the share and what the GPU can still take make a pattern of the best packing, more when it spoils the
 * room for the shares that would have filled it: a 32% share beside a 47% one leaves 21% that only rare small shares
 * fill (cost 1/2 - 1/3 = 1/6), beside a 65% one nothing is lost. FGD's fragmentation sees only the next pod; this
 * sees the packing the workload tends to. Where the program is degenerate (a 65% and a 32% share that always pair:
 * any split of 1 between them is optimal) the simplex picks one of the optimal duals.
 *
 * <p>The dual is solved by generating patterns: start from GPUs full of one size (and the patterns of the last
 * solve), solve, add the pattern the knapsack finds worth more than 1, until none is. A GPU's share slots
 * ({@code maxShares}) and device memory are not modelled: a pattern of twenty 5% shares counts as one GPU.
 */
final class SharePacking {
  /** No shares seen: every cost 0. */
  static final SharePacking NONE = new SharePacking(new int[101], new double[101], List.of());

  /** Patterns added at most per solve; the openb mix needs about 30 from scratch. */
  static final int MAX_ROUNDS = 500;

  /** Patterns carried from one solve to the next at most (the latest). */
  static final int MAX_KEPT = 1000;

  /**
   * Share sizes in the program at most, the commonest: a mix using every percent from 1 to 99 took up to 0.4 s to
   * solve, 60 sizes 15-75 ms. The rarer sizes are worth V(s) like any other.
   */
  static final int MAX_SIZES = 48;

  /**
   * Work one solve may do before it stops generating patterns and scales what it has to a feasible dual, counted as
   * the size of each round's program (patterns times sizes), summed. Work, not time: the same mix gets the same prices
   * on a busy machine as on an idle one. The heaviest mixes in the tests stay well under it; a real trace's solves use
   * a fraction of one percent of it.
   */
  static final long WORK_BUDGET = 2_000_000L;

  private static final System.Logger LOG = System.getLogger(SharePacking.class.getName());

  private final int[] counts;
  private final double[] value = new double[101];
  /** The patterns the solve ended with, each a count per size (1..99): the start of the next solve. */
  private final List<int[]> patterns;

  /** @param price y_s by size (1..99), a feasible dual: no pattern worth more than 1 */
  private SharePacking(int[] counts, double[] price, List<int[]> patterns) {
    this.counts = counts;
    this.patterns = List.copyOf(patterns);
    for (int f = 1; f <= 100; f++) {
      double best = value[f - 1];
      for (int s = 1; s <= Math.min(f, 99); s++) {
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
    return NONE.next(counts);
  }

  /**
   * Prices for a new mix, starting from the patterns this solve ended with (a mix that drifted needs a pattern or
   * two more, not thirty); this one when the share counts are unchanged.
   */
  SharePacking next(int[] newCounts) {
    return next(newCounts, WORK_BUDGET);
  }

  /** {@link #next(int[])} with another work budget (tests). */
  SharePacking next(int[] newCounts, long workBudget) {
    int[] c = new int[101];
    System.arraycopy(newCounts, 0, c, 0, Math.min(100, newCounts.length));
    c[0] = 0;
    if (Arrays.equals(c, counts) && this != NONE) {
      return this;
    }
    List<Integer> sizes = new ArrayList<>();
    for (int s = 1; s < 100; s++) {
      if (c[s] > 0) {
        sizes.add(s);
      }
    }
    if (sizes.isEmpty()) {
      return NONE;
    }
    if (sizes.size() > MAX_SIZES) {
      sizes.sort((a, b) -> c[a] != c[b] ? Integer.compare(c[b], c[a]) : Integer.compare(a, b));
      sizes = new ArrayList<>(sizes.subList(0, MAX_SIZES));
      sizes.sort(null);
    }
    try {
      return solve(c, sizes, workBudget);
    } catch (RuntimeException e) {
      // Not expected (the dual is feasible at 0 and bounded by the one-size patterns); a placement heuristic must
      // not fail the session, so the last prices stay.
      LOG.log(System.Logger.Level.WARNING, "gpu-fragmentation pack: share prices not worked out for "
          + sizes.size() + " share sizes (" + e + "); keeping the previous ones");
      return this;
    }
  }

  private SharePacking solve(int[] c, List<Integer> sizes, long workBudget) {
    long work = 0;
    int n = sizes.size();
    double[] demand = new double[n];
    int[] size = new int[n];
    List<int[]> kept = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      size[i] = sizes.get(i);
      demand[i] = c[size[i]];
      int[] single = new int[101];
      single[size[i]] = 100 / size[i];
      kept.add(single);
    }
    for (int i = Math.max(0, patterns.size() - MAX_KEPT); i < patterns.size(); i++) {
      int[] p = patterns.get(i);
      if (onlyOf(p, c) && !single(p)) {
        kept.add(p);
      }
    }
    double[] y = new double[n];
    double worth = 0;
    for (int round = 0; ; round++) {
      List<LinearConstraint> constraints = new ArrayList<>(kept.size());
      for (int[] p : kept) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
          a[i] = p[size[i]];
        }
        constraints.add(new LinearConstraint(a, Relationship.LEQ, 1));
      }
      PointValuePair solution = new SimplexSolver().optimize(new MaxIter(10_000),
          new LinearObjectiveFunction(demand, 0), new LinearConstraintSet(constraints), GoalType.MAXIMIZE,
          new NonNegativeConstraint(true));
      work += (long) kept.size() * n;
      y = solution.getPoint();
      int[] best = bestPattern(size, y);
      worth = worth(best, size, y);
      if (worth <= 1 + 1e-9) {
        break;
      }
      if (round + 1 >= MAX_ROUNDS || work > workBudget || contains(kept, best)) {
        // Stopped short: scaled by the best pattern's worth, the prices are feasible again (no pattern above 1).
        LOG.log(System.Logger.Level.WARNING, "gpu-fragmentation pack: share prices stopped after " + (round + 1)
            + " patterns for " + n + " share sizes; using them scaled by 1/" + worth);
        for (int i = 0; i < n; i++) {
          y[i] /= worth;
        }
        break;
      }
      kept.add(best);
    }
    double[] price = new double[101];
    for (int i = 0; i < n; i++) {
      price[size[i]] = Math.max(0, y[i]);
    }
    return new SharePacking(c, price, kept);
  }

  private static double worth(int[] pattern, int[] size, double[] y) {
    double sum = 0;
    for (int i = 0; i < size.length; i++) {
      sum += pattern[size[i]] * y[i];
    }
    return sum;
  }

  private static boolean contains(List<int[]> patterns, int[] p) {
    for (int[] q : patterns) {
      if (Arrays.equals(p, q)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code p} is a GPU full of one size, which every solve starts with anyway. */
  private static boolean single(int[] p) {
    int sizes = 0;
    int last = 0;
    for (int s = 1; s < 100; s++) {
      if (p[s] > 0) {
        sizes++;
        last = s;
      }
    }
    return sizes == 1 && p[last] == 100 / last;
  }

  /** Whether pattern {@code p} holds only sizes the mix {@code c} has. */
  private static boolean onlyOf(int[] p, int[] c) {
    for (int s = 1; s < 100; s++) {
      if (p[s] > 0 && c[s] == 0) {
        return false;
      }
    }
    return true;
  }

  /** The pattern (count per size) of at most 100 percent worth most at prices {@code y}: an unbounded knapsack. */
  private static int[] bestPattern(int[] size, double[] y) {
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
    int[] pattern = new int[101];
    for (int c = 100; c > 0; ) {
      if (last[c] < 0) {
        c--;
      } else {
        pattern[size[last[c]]]++;
        c -= size[last[c]];
      }
    }
    return pattern;
  }

  /**
   * What a share of {@code size} percent is worth: V(size), the part of a GPU its room holds at the best packing's
   * prices; 0 from 100 up (a whole GPU's worth of compute is not a share to pack).
   */
  double price(int size) {
    return size > 0 && size < 100 ? value[size] : 0;
  }

  /** What {@code free} percent of a GPU is worth to the mix's shares. */
  double value(int free) {
    return value[Math.max(0, Math.min(100, free))];
  }

  /** What putting a share of {@code size} percent where {@code free} percent is free loses, in GPUs (>= 0). */
  double cost(int free, int size) {
    if (size <= 0 || size >= 100 || size > free) {
      return 0;
    }
    return Math.max(0, value(free) - value(free - size) - price(size));
  }
}
