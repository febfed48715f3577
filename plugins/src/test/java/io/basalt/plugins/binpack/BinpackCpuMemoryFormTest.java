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
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A request weighing only cpu and memory is scored in the cpu-and-memory form exactly as the general form. */
class BinpackCpuMemoryFormTest {
  @Test
  void theCpuAndMemoryFormScoresAsTheGeneralForm() {
    SplittableRandom r = new SplittableRandom(5);
    TestSessions cluster = TestSessions.cluster();
    for (int n = 0; n < 20; n++) {
      String name = "n" + n;
      TestNodes node = TestNodes.node(name).cpu(String.valueOf(r.nextInt(0, 65))).memory(r.nextInt(0, 513) + "Gi");
      cluster.node((n % 3 == 0 ? node.gpu(8) : node).build());
      cluster.pod(TestPods.pod("r" + n).cpu(r.nextInt(0, 16000) + "m").memory(r.nextInt(0, 256) + "Gi")
          .onNode(name).build());
    }
    for (int p = 0; p < 20; p++) {
      TestPods pod = TestPods.pod("p" + p).cpu(p % 5 == 0 ? "0" : r.nextInt(1, 40000) + "m")
          .memory(p % 7 == 0 ? "0" : r.nextInt(1, 300) + "Gi");
      cluster.pod((p % 4 == 3 ? pod.gpu(1) : pod).build());
    }
    Session s = cluster.open(PluginRegistry.of(BinpackPlugin.descriptor()),
        TestSessions.singlePlugin(BinpackPlugin.NAME, ""));
    int[] slots = {ResourceNames.CPU, ResourceNames.MEMORY, ResourceNames.indexIfKnown("nvidia.com/gpu")};
    for (int[] weights : new int[][] {{1, 1, 1}, {3, 1, 2}, {1, 5, 0}}) {
      BinpackPlugin.Scorer scorer = new BinpackPlugin.Scorer(2, slots, weights, new boolean[] {false, false, true},
          DeviceFill.resolve());
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
