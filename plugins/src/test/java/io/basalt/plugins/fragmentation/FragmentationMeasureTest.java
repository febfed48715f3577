package io.basalt.plugins.fragmentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuTopology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The formula of {@link FragmentationMeasure}, by hand. */
class FragmentationMeasureTest {
  private static final Shape ONE_GPU = new Shape(8_000, 0, 1, 0, 0, "nvidia.com", Map.of());
  private static final Shape HALF = new Shape(8_000, 0, 0, 50, 0, "nvidia.com", Map.of());
  private static final Shape TWO_GPUS = new Shape(8_000, 0, 2, 0, 0, "nvidia.com", Map.of());

  private static FragmentationMeasure measure(Object... shapesAndWeights) {
    List<WorkloadMix.Entry> mix = new java.util.ArrayList<>();
    for (int i = 0; i < shapesAndWeights.length; i += 2) {
      mix.add(new WorkloadMix.Entry((Shape) shapesAndWeights[i], (Double) shapesAndWeights[i + 1]));
    }
    return new FragmentationMeasure(mix);
  }

  /** @param untouched the untouched GPUs as bits, GPU 0 lowest */
  private static FragmentationMeasure.State state(long cpu, int[] free, long untouched) {
    DeviceSet set = DeviceSet.EMPTY;
    for (int d = 0; d < free.length; d++) {
      set = (untouched >>> d & 1) != 0 ? set.with(d) : set;
    }
    return FragmentationMeasure.State.of(cpu, 1L << 40, GpuTopology.uniform(free.length), free, set);
  }

  @Test
  void freeCapacityEachShapeCannotUseIsWeighedByItsShare() {
    FragmentationMeasure m = measure(ONE_GPU, 0.5, HALF, 0.5);
    // GPU 0 untouched (100), GPU 1 shared with 40 left, GPU 2 held whole.
    FragmentationMeasure.State s = state(96_000, new int[] {100, 40, 0}, 0b001);
    // one GPU: uses GPU 0 only, 40 fragmented; a half: GPU 0 only (40 < 50), 40 fragmented.
    assertEquals(40.0, m.of(s), 1e-9);
  }

  @Test
  void aShapeThatDoesNotFitTheNodeFindsAllOfItFragmented() {
    FragmentationMeasure m = measure(TWO_GPUS, 1.0);
    assertEquals(140.0, m.of(state(96_000, new int[] {100, 40, 0}, 0b001)), 1e-9, "one untouched GPU of two");
    assertEquals(200.0, m.of(state(4_000, new int[] {100, 100}, 0b11)), 1e-9, "cpu short");
    assertEquals(0.0, m.of(state(96_000, new int[] {100, 100}, 0b11)), 1e-9);
  }

  @Test
  void theMixCountsEachPodOnceAndForgetsBeyondItsWindow() {
    WorkloadMix mix = new WorkloadMix(3, 64, false);
    mix.add(ONE_GPU);
    mix.add(ONE_GPU);
    mix.add(HALF);
    assertEquals(200.0 / 250, mix.entries().get(0).weight(), 1e-9, "two 1-GPU pods against one half GPU");
    mix.add(HALF);
    mix.add(HALF);
    assertEquals(List.of(new WorkloadMix.Entry(HALF, 1.0)), mix.entries());
  }

  @Test
  void theMeasureIsKeptAcrossSessionsUntilOnePercentOfTheMixIsNew() {
    WorkloadMix mix = new WorkloadMix(1000, 64, false);
    for (int i = 0; i < 200; i++) {
      mix.add(i % 2 == 0 ? ONE_GPU : HALF);
    }
    FragmentationMeasure first = mix.measure();
    mix.add(TWO_GPUS);
    assertSame(first, mix.measure(), "1 new pod of 201: under 1%, the worked-out values are kept");
    mix.add(TWO_GPUS);
    mix.add(TWO_GPUS);
    FragmentationMeasure next = mix.measure();
    assertNotSame(first, next, "3 new of 203: re-weighed");
    assertEquals(3, mix.entries().size());
    assertSame(next, mix.measure());
  }
}
