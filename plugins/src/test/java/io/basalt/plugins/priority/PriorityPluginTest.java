package io.basalt.plugins.priority;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Session;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PriorityPluginTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(Map.of("priority", PriorityPlugin::new));

  @Test
  void higherPriorityJobsAndTasksComeFirst() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .priorityClass(new PriorityClass("high", 100_000, false, null))
        .priorityClass(new PriorityClass("low", 1_000, false, "Never"))
        .pod(TestPods.pod("ns/early-low").priorityClass("low").cpu("1").build())
        .pod(TestPods.pod("ns/late-high").priorityClass("high").cpu("1").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    assertTrue(s.jobOrder().compare(s.job("ns/late-high"), s.job("ns/early-low")) < 0);
    assertTrue(s.taskOrder().compare(TestSessions.task(s, "ns/late-high"), TestSessions.task(s, "ns/early-low")) < 0);
  }

  @Test
  void podGroupPriorityClassDecidesTheJobsPriority() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .priorityClass(new PriorityClass("high", 100_000, false, null))
        .podGroup(new PodGroup("ns", "pg", 1, Map.of(), "default", "high", null, "Inqueue", null))
        .pod(TestPods.pod("ns/member").group("pg").priority(5).cpu("1").build())
        .pod(TestPods.pod("ns/solo").priority(50).cpu("1").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    assertTrue(s.job("ns/pg").priority() == 100_000);
    assertTrue(s.jobOrder().compare(s.job("ns/pg"), s.job("ns/solo")) < 0);
  }

  @Test
  void globalDefaultClassAppliesToPodsWithoutOne() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .priorityClass(new PriorityClass("default-prio", 7, true, null))
        .pod(TestPods.pod("ns/p").cpu("1").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    assertTrue(TestSessions.task(s, "ns/p").priority() == 7);
  }
}
