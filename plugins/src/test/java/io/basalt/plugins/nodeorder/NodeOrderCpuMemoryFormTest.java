package io.basalt.plugins.nodeorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.CpuMemoryScore;
import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.DeviceFill;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import io.basalt.testing.TestSessions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pod asking for no GPU is scored in the cpu-and-memory form exactly as the general form scores it. */
class NodeOrderCpuMemoryFormTest {
  @Test
  void theCpuAndMemoryFormScoresAsTheGeneralForm() {
    TestSessions cluster = TestSessions.randomResources(11);
    Session s = cluster.open(PluginRegistry.of(NodeOrderPlugin.descriptor()),
        TestSessions.singlePlugin(NodeOrderPlugin.NAME, ""));
    int plain = 0;
    for (int[] w : List.of(new int[] {1, 0, 1}, new int[] {2, 0, 0}, new int[] {0, 1, 3}, new int[] {1, 1, 1})) {
      NodeOrderPlugin.Scorer scorer = new NodeOrderPlugin.Scorer(w[0], w[1], w[2],
          ResourceNames.indexIfKnown(NodeOrderPlugin.BALANCED_GPU), DeviceFill.resolve(), true);
      for (int p = 0; p < 20; p++) {
        TaskInfo task = TestSessions.task(s, "default/p" + p);
        boolean form = scorer.forTask(task) instanceof CpuMemoryScore;
        assertEquals(p % 4 != 3, form, "p" + p + ": the form for a pod asking for no GPU only");
        plain += form ? 1 : 0;
        assertFalse(scorer.prepare(task, false) instanceof CpuMemoryScore);
        for (int n = 0; n < 20; n++) {
          NodeInfo node = TestSessions.nodeInfo(s, "n" + n);
          assertEquals(scorer.prepare(task, false).applyAsDouble(node), scorer.forTask(task).applyAsDouble(node),
              "p" + p + " on n" + n);
        }
      }
    }
    assertTrue(plain > 0);
  }
}
