package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.NodeInfo;
import io.basalt.framework.CpuMemoryScore;
import io.basalt.model.ResourceNames;
import io.basalt.testing.TestNodes;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

class PreparedChecksTest {
  @Test
  @SuppressWarnings("unchecked")
  void twoCpuAndMemoryScoresSumAsTheirGeneralForms() {
    CpuMemoryScore spread = (cpuAllocatable, cpuUsed, memoryAllocatable, memoryUsed) ->
        (double) (cpuAllocatable - cpuUsed) / cpuAllocatable + 1e-7 * memoryUsed;
    CpuMemoryScore pack = (cpuAllocatable, cpuUsed, memoryAllocatable, memoryUsed) ->
        (double) memoryUsed / memoryAllocatable * 0.3;
    // The same arithmetic behind plain functions: the general sum asks each per node.
    ToDoubleFunction<NodeInfo> spreadPlain = spread::applyAsDouble;
    ToDoubleFunction<NodeInfo> packPlain = pack::applyAsDouble;
    ToDoubleFunction<NodeInfo> fused = PreparedChecks.sum(new ToDoubleFunction[] {spread, pack});
    ToDoubleFunction<NodeInfo> general = PreparedChecks.sum(new ToDoubleFunction[] {spreadPlain, packPlain});
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 200; i++) {
      long[] used = new long[ResourceNames.count()];
      used[ResourceNames.CPU] = r.nextLong(0, 64_000);
      used[ResourceNames.MEMORY] = r.nextLong(0, 1L << 40);
      NodeInfo node = new NodeInfo(TestNodes.node("n").cpu("64").memory("1Ti").build(), 1, used, new long[0]);
      double expected = 0;
      expected += spread.applyAsDouble(node);
      expected += pack.applyAsDouble(node);
      assertEquals(expected, fused.applyAsDouble(node));
      assertEquals(general.applyAsDouble(node), fused.applyAsDouble(node));
    }
  }
}
