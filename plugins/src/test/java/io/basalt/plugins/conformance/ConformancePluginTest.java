package io.basalt.plugins.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Session;
import io.basalt.framework.TaskInfo;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConformancePluginTest {
  @Test
  void criticalAndKubeSystemPodsAreNeverVictims() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .pod(TestPods.pod("kube-system/dns").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/critical").priorityClass("system-cluster-critical").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/node-critical").priorityClass("system-node-critical").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/batch").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ml/preemptor").cpu("4").build())
        .open(PluginRegistry.of(Map.of("conformance", ConformancePlugin::new)),
            TestSessions.singlePlugin("conformance", ""));
    List<TaskInfo> running = s.tasksOn("n1");
    TaskInfo preemptor = TestSessions.task(s, "ml/preemptor");
    assertEquals(List.of("ml/batch"), s.preemptable(preemptor, running).stream().map(TaskInfo::key).toList());
    assertEquals(List.of("ml/batch"), s.reclaimable(preemptor, running).stream().map(TaskInfo::key).toList());
  }
}
