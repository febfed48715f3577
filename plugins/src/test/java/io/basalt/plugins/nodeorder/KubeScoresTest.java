package io.basalt.plugins.nodeorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KubeScoresTest {
  private static final double NONE = Double.NaN;

  @Test
  void leastRequestedEdges() {
    assertEquals(100, KubeScores.leastRequested(0, 4000));
    assertEquals(0, KubeScores.leastRequested(4000, 4000));
    assertEquals(0, KubeScores.leastRequested(4001, 4000));
    assertEquals(0, KubeScores.leastRequested(1, 0));
    assertEquals(33, KubeScores.leastRequested(2, 3)); // 1 * 100 / 3 = 33.3
  }

  @Test
  void mostRequestedEdges() {
    assertEquals(0, KubeScores.mostRequested(0, 4000));
    assertEquals(100, KubeScores.mostRequested(4000, 4000));
    assertEquals(100, KubeScores.mostRequested(9000, 4000));
    assertEquals(0, KubeScores.mostRequested(1, 0));
    assertEquals(66, KubeScores.mostRequested(2, 3)); // 2 * 100 / 3 = 66.7
  }

  @Test
  void aResourceTheNodeLacksIsLeftOutOfTheAverage() {
    // Only memory counts: (8 - 2) * 100 / 8 = 75, not (0 + 75) / 2.
    assertEquals(75, KubeScores.leastAllocated(100, 0, 2, 8));
    assertEquals(25, KubeScores.mostAllocated(100, 0, 2, 8));
    assertEquals(0, KubeScores.leastAllocated(1, 0, 1, 0));
  }

  @Test
  void memoryBytesDoNotOverflow() {
    long pebibyte = 1L << 50;
    assertEquals(50, KubeScores.leastRequested(pebibyte / 2, pebibyte));
  }

  @Test
  void balancedWithFewerThanTwoFractionsIsPerfect() {
    assertEquals(100, KubeScores.balancedAllocation(0.9, NONE, NONE));
    assertEquals(100, KubeScores.balancedAllocation(NONE, NONE, NONE));
  }

  @Test
  void balancedTakesHalfTheDifferenceOfTwo() {
    // std = |0.25 - 0.75| / 2 = 0.25 -> 75, whichever two are present.
    assertEquals(75, KubeScores.balancedAllocation(0.25, 0.75, NONE));
    assertEquals(75, KubeScores.balancedAllocation(0.25, NONE, 0.75));
    assertEquals(75, KubeScores.balancedAllocation(NONE, 0.25, 0.75));
    // fully unbalanced: std 0.5 -> 50, the floor for two resources.
    assertEquals(50, KubeScores.balancedAllocation(0, 1, NONE));
  }

  @Test
  void balancedWithThreeIsThePopulationStandardDeviation() {
    // 0, 0.5, 1: mean 0.5, variance (0.25 + 0 + 0.25) / 3 = 1/6, std 0.408 -> 59.
    assertEquals(59, KubeScores.balancedAllocation(0, 0.5, 1));
  }

  @Test
  void fractionIsCappedAtOneAndNaNWithoutCapacity() {
    assertEquals(1.0, KubeScores.fraction(5, 4));
    assertEquals(0.25, KubeScores.fraction(1, 4));
    assertTrue(Double.isNaN(KubeScores.fraction(1, 0)));
  }

  /** The average of the per-resource scores over the resources the node has, as kube-scheduler divides it. */
  @Test
  void leastAllocatedIsTheIntegerAverageOverTheResourcesPresent() {
    java.util.Random random = new java.util.Random(3);
    for (int i = 0; i < 20_000; i++) {
      long cpuCap = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(200_000);
      long memCap = random.nextInt(4) == 0 ? 0 : 1 + (random.nextLong() >>> 24);
      long cpu = random.nextInt(250_000);
      long mem = memCap == 0 ? random.nextInt(100) : (random.nextLong() >>> 1) % (memCap + memCap / 4 + 1);
      long sum = 0;
      int n = 0;
      if (cpuCap > 0) {
        sum += KubeScores.leastRequested(cpu, cpuCap);
        n++;
      }
      if (memCap > 0) {
        sum += KubeScores.leastRequested(mem, memCap);
        n++;
      }
      assertEquals(n == 0 ? 0 : sum / n, KubeScores.leastAllocated(cpu, cpuCap, mem, memCap), "case " + i);
    }
  }
}
