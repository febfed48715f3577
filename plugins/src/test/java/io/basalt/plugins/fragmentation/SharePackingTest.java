package io.basalt.plugins.fragmentation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.junit.jupiter.api.Test;

/** The share packing's prices: the dual of the cutting-stock LP, and what a share's place costs at them. */
class SharePackingTest {
  private static int[] mix(int... sizeAndCount) {
    int[] counts = new int[101];
    for (int i = 0; i < sizeAndCount.length; i += 2) {
      counts[sizeAndCount[i]] += sizeAndCount[i + 1];
    }
    return counts;
  }

  /** The LP's value: by duality, the fewest GPUs a fractional packing of the mix needs. */
  private static double gpus(SharePacking p, int[] counts) {
    double sum = 0;
    for (int s = 1; s < 100; s++) {
      sum += counts[s] * p.price(s);
    }
    return sum;
  }

  @Test
  void twoToAGpuArePricedAtHalfAndPairingThemCostsNothing() {
    SharePacking p = SharePacking.of(mix(47, 10));
    assertEquals(0.5, p.price(47), 1e-9);
    assertEquals(1.0, p.value(100), 1e-9);
    assertEquals(0, p.cost(100, 47), 1e-9);
    assertEquals(0, p.cost(53, 47), 1e-9, "beside another 47 it completes the pattern");
  }

  @Test
  void aShareThatSpoilsARoomTheMixWouldFillCostsWhatTheRoomLoses() {
    int[] counts = mix(65, 1, 47, 1, 32, 1);
    SharePacking p = SharePacking.of(counts);
    // Best packing: [65, 32] and half of [47, 47], 1.5 GPUs.
    assertEquals(1.5, gpus(p, counts), 1e-9);
    assertEquals(0, p.cost(35, 32), 1e-9, "beside a 65 the 32 makes the best pattern");
    // Beside a 47 it leaves 21%, which nothing in the mix fills: the 53% room was worth a 47 (1/2).
    // The program is degenerate here (y65 + y32 = 1 with y32 anywhere in [0, 1/3]): at least 1/2 - 1/3.
    assertTrue(p.cost(53, 32) >= 1.0 / 6 - 1e-9, "cost beside a 47: " + p.cost(53, 32));
    assertEquals(0, p.cost(20, 32), "a share that does not fit costs nothing here: the fit check refuses it");
  }

  @Test
  void complementarySizesPackExactly() {
    int[] counts = mix(60, 10, 40, 10);
    SharePacking p = SharePacking.of(counts);
    assertEquals(10, gpus(p, counts), 1e-9);
    assertEquals(0, p.cost(40, 40), 1e-9);
    assertEquals(0, p.cost(100, 60), 1e-9);
  }

  @Test
  void noSharesNoPrices() {
    assertEquals(0, SharePacking.of(new int[101]).cost(100, 30));
    assertSame(SharePacking.NONE, SharePacking.of(mix(99, 0)));
  }

  /**
   * Over random mixes the prices are a feasible, optimal dual: no pattern is worth more than a GPU, and their value
   * lies between the shares' volume and the GPUs first-fit-decreasing uses (any packing bounds the LP from above).
   */
  @Test
  void pricesAreAFeasibleDualBetweenTheVolumeAndARealPacking() {
    Random random = new Random(7);
    for (int round = 0; round < 40; round++) {
      int[] counts = new int[101];
      int kinds = 1 + random.nextInt(8);
      for (int k = 0; k < kinds; k++) {
        counts[5 + random.nextInt(90)] += 1 + random.nextInt(30);
      }
      SharePacking p = SharePacking.of(counts);
      assertTrue(p.value(100) <= 1 + 1e-9, "a pattern worth " + p.value(100));
      double volume = 0;
      for (int s = 1; s < 100; s++) {
        volume += counts[s] * s / 100.0;
      }
      double lp = gpus(p, counts);
      assertTrue(lp >= volume - 1e-6, "LP " + lp + " under the volume " + volume);
      assertTrue(lp <= firstFitDecreasing(counts) + 1e-6, "LP " + lp + " over a real packing");
      for (int f = 1; f <= 100; f++) {
        for (int s = 1; s <= f; s++) {
          assertTrue(p.cost(f, s) >= 0);
        }
      }
    }
  }

  @Test
  void aMixOfEverySizeIsSolvedOverItsCommonestAndStaysFeasible() {
    int[] counts = new int[101];
    for (int s = 1; s < 100; s++) {
      counts[s] = s <= SharePacking.MAX_SIZES ? 10 : 1; // sizes 1..48 common, the rest rare
    }
    SharePacking p = SharePacking.of(counts);
    assertTrue(p.value(100) <= 1 + 1e-9, "a pattern worth " + p.value(100));
    assertTrue(p.value(100) >= 1 - 1e-9, "the commonest sizes fill a GPU");
    for (int s = 1; s < 100; s++) {
      assertEquals(p.value(s), p.price(s), 1e-12, "size " + s + " is worth its room");
    }
  }

  /**
   * Strong duality against the primal written out in full: for small mixes every pattern is listed and the fewest
   * GPUs covering the mix solved directly; the prices' value must equal it (generating patterns that stopped early
   * gives less).
   */
  @Test
  void pricesAreOptimalAgainstThePrimalOverEveryPattern() {
    Random random = new Random(11);
    for (int round = 0; round < 30; round++) {
      int[] counts = new int[101];
      int kinds = 1 + random.nextInt(4);
      for (int k = 0; k < kinds; k++) {
        counts[10 + random.nextInt(85)] += 1 + random.nextInt(40);
      }
      assertEquals(primal(counts), gpus(SharePacking.of(counts), counts), 1e-6, "mix " + mixString(counts));
    }
  }

  /** A solve that starts from the last one's patterns ends where a solve from scratch does, and reuses unchanged. */
  @Test
  void aDriftingMixGivesTheSamePricesAsSolvingAfresh() {
    Random random = new Random(5);
    int[] counts = mix(81, 20, 47, 40, 32, 30, 16, 5);
    SharePacking p = SharePacking.of(counts);
    for (int step = 0; step < 60; step++) {
      int[] next = counts.clone();
      next[5 + random.nextInt(90)] += 1 + random.nextInt(5); // sizes come in
      if (step % 3 == 0) {
        int gone = 5 + random.nextInt(90);
        next[gone] = 0; // and go
      }
      SharePacking warm = p.next(next);
      SharePacking cold = SharePacking.of(next);
      assertEquals(gpus(cold, next), gpus(warm, next), 1e-6, "step " + step);
      assertTrue(warm.value(100) <= 1 + 1e-9, "a pattern worth " + warm.value(100));
      assertSame(warm, warm.next(next.clone()), "unchanged counts reuse the solve");
      counts = next;
      p = warm;
    }
  }

  @Test
  void sizesOutsideTheMixAreWorthTheirRoomSoTheyAreNotPushedAround() {
    SharePacking p = SharePacking.of(mix(50, 10));
    assertEquals(0, p.cost(100, 100), "a whole GPU's worth of compute is not a share to pack");
    assertEquals(p.cost(100, 10), p.cost(50, 10), 1e-9, "a size never seen costs alike wherever it fits");
  }

  /**
   * The solve is bounded by work, not time: the heaviest mix the tests know gets the same prices, to the last bit,
   * while every core is kept busy as when it runs alone.
   */
  @Test
  void pricesDoNotDependOnTheMachinesLoad() throws Exception {
    int[] counts = new int[101];
    for (int s = 1; s < 100; s++) {
      counts[s] = s <= SharePacking.MAX_SIZES ? 10 + s % 7 : 1;
    }
    double[] alone = values(SharePacking.of(counts));
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    List<Thread> burners = new ArrayList<>();
    for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
      Thread t = new Thread(() -> {
        long x = 1;
        while (!stop.get()) {
          x = x * 6364136223846793005L + 1442695040888963407L;
        }
        if (x == 42) {
          System.out.print("");
        }
      });
      t.setDaemon(true);
      t.start();
      burners.add(t);
    }
    try {
      for (int run = 0; run < 3; run++) {
        assertArrayEquals(alone, values(SharePacking.of(counts)), "run " + run + " under load");
      }
    } finally {
      stop.set(true);
      for (Thread t : burners) {
        t.join();
      }
    }
  }

  /**
   * A solve cut short by its work budget stops at the same pattern every time (its prices scaled to stay feasible),
   * and gives a packing no better than the full solve's.
   */
  @Test
  void aSolveCutShortByItsWorkBudgetStopsAtTheSamePlaceEveryTime() {
    Random random = new Random(3);
    int[] counts = new int[101];
    for (int s = 1; s < 100; s++) {
      counts[s] = s <= SharePacking.MAX_SIZES ? 1 + random.nextInt(1000) : 0;
    }
    SharePacking full = SharePacking.of(counts);
    for (long budget : new long[] {1, 2_000, 20_000, 100_000}) {
      SharePacking a = SharePacking.NONE.next(counts, budget);
      SharePacking b = SharePacking.NONE.next(counts.clone(), budget);
      assertArrayEquals(values(a), values(b), "budget " + budget);
      assertTrue(a.value(100) <= 1 + 1e-9, "a pattern worth " + a.value(100) + " at budget " + budget);
      assertTrue(gpus(a, counts) < gpus(full, counts) - 1e-6,
          "budget " + budget + " cut the solve short: " + gpus(a, counts) + " vs " + gpus(full, counts));
    }
  }

  private static double[] values(SharePacking p) {
    double[] v = new double[101];
    for (int f = 0; f <= 100; f++) {
      v[f] = p.value(f);
    }
    return v;
  }

  private static double primal(int[] counts) {
    List<Integer> sizes = new ArrayList<>();
    for (int s = 1; s < 100; s++) {
      if (counts[s] > 0) {
        sizes.add(s);
      }
    }
    List<int[]> patterns = new ArrayList<>();
    enumerate(sizes, 0, 100, new int[sizes.size()], patterns);
    List<LinearConstraint> cover = new ArrayList<>();
    for (int i = 0; i < sizes.size(); i++) {
      double[] row = new double[patterns.size()];
      for (int p = 0; p < patterns.size(); p++) {
        row[p] = patterns.get(p)[i];
      }
      cover.add(new LinearConstraint(row, Relationship.GEQ, counts[sizes.get(i)]));
    }
    double[] ones = new double[patterns.size()];
    java.util.Arrays.fill(ones, 1);
    return new SimplexSolver().optimize(new MaxIter(100_000), new LinearObjectiveFunction(ones, 0),
        new LinearConstraintSet(cover), GoalType.MINIMIZE, new NonNegativeConstraint(true)).getValue();
  }

  private static void enumerate(List<Integer> sizes, int i, int left, int[] current, List<int[]> out) {
    if (i == sizes.size()) {
      if (java.util.Arrays.stream(current).sum() > 0) {
        out.add(current.clone());
      }
      return;
    }
    for (int k = 0; k * sizes.get(i) <= left; k++) {
      current[i] = k;
      enumerate(sizes, i + 1, left - k * sizes.get(i), current, out);
    }
    current[i] = 0;
  }

  private static String mixString(int[] counts) {
    StringBuilder sb = new StringBuilder();
    for (int s = 1; s < 100; s++) {
      if (counts[s] > 0) {
        sb.append(s).append('x').append(counts[s]).append(' ');
      }
    }
    return sb.toString();
  }

  private static int firstFitDecreasing(int[] counts) {
    List<Integer> bins = new ArrayList<>();
    for (int s = 99; s >= 1; s--) {
      for (int n = 0; n < counts[s]; n++) {
        int at = -1;
        for (int b = 0; b < bins.size() && at < 0; b++) {
          if (bins.get(b) >= s) {
            at = b;
          }
        }
        if (at < 0) {
          bins.add(100 - s);
        } else {
          bins.set(at, bins.get(at) - s);
        }
      }
    }
    return bins.size();
  }
}
