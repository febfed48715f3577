package io.basalt.plugins.binpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.CpuMemoryScore;
import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.DeviceFill;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import io.basalt.testing.TestSessions;
import org.junit.jupiter.api.Test;

/** A request weighing only cpu and memory is scored in the cpu-and-memory form exactly as the general form. */
class BinpackCpuMemoryFormTest {
  @Test
  void theCpuAndMemoryFormScoresAsTheGeneralForm() {
    TestSessions cluster = TestSessions.randomResources(5);
    Session s = cluster.open(PluginRegistry.of(BinpackPlugin.descriptor()),
        TestSessions.singlePlugin(BinpackPlugin.NAME, ""));
    int[] slots = {ResourceNames.CPU, ResourceNames.MEMORY, ResourceNames.indexIfKnown("nvidia.com/gpu")};
    for (int[] weights : new int[][] {{1, 1, 1}, {3, 1, 2}, {1, 5, 0}}) {
      BinpackPlugin.Scorer scorer = new BinpackPlugin.Scorer(2, slots, weights, new boolean[] {false, false, true},
          DeviceFill.resolve(), BinpackPlugin.TIE_BREAK);
      for (int p = 0; p < 20; p++) {
        TaskInfo task = TestSessions.task(s, "default/p" + p);
        assertEquals(p % 4 != 3, scorer.forTask(task) instanceof CpuMemoryScore, "p" + p);
        assertFalse(scorer.prepare(task, false) instanceof CpuMemoryScore);
        for (int n = 0; n < 20; n++) {
          NodeInfo node = TestSessions.nodeInfo(s, "n" + n);
          assertEquals(scorer.prepare(task, false).applyAsDouble(node), scorer.forTask(task).applyAsDouble(node),
              "p" + p + " on n" + n);
        }
      }
    }
  }
}
