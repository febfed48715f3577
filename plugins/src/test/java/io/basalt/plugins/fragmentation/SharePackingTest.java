package io.basalt.plugins.fragmentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
    assertEquals(0, SharePacking.of(mix(99, 0)).value(100));
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
  void onlyTheCommonestSizesArePricedSoASolveStaysShort() {
    int[] counts = new int[101];
    for (int s = 1; s < 100; s++) {
      counts[s] = s <= SharePacking.MAX_SIZES ? 10 : 1; // sizes 1..48 common, the rest rare
    }
    SharePacking p = SharePacking.of(counts);
    for (int s = SharePacking.MAX_SIZES + 1; s < 100; s++) {
      assertEquals(0, p.price(s), "rare size " + s + " is not priced");
    }
    assertTrue(p.price(40) > 0, "a common size is");
    assertTrue(p.value(100) <= 1 + 1e-9);
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
