package io.basalt.plugins.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.TaskInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PriorityPluginTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(PriorityPlugin.descriptor());

  @Test
  void higherPriorityJobsAndTasksComeFirst() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .priorityClass(new PriorityClass("high", 100_000, false, null))
        .priorityClass(new PriorityClass("low", 1_000, false, "Never"))
        .pod(TestPods.pod("ns/early-low").priorityClass("low").cpu("1").build())
        .pod(TestPods.pod("ns/late-high").priorityClass("high").cpu("1").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    assertTrue(s.callbacks().jobOrder().compare(s.job("ns/late-high"), s.job("ns/early-low")) < 0);
    assertTrue(s.callbacks().taskOrder().compare(TestSessions.task(s, "ns/late-high"), TestSessions.task(s, "ns/early-low")) < 0);
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
    assertTrue(s.callbacks().jobOrder().compare(s.job("ns/pg"), s.job("ns/solo")) < 0);
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

  // ---- victims ----

  /** {@code pod} with {@code spec.preemptionPolicy} set, which TestPods has no setter for. */
  private static Pod withPreemptionPolicy(Pod p, String policy) {
    return new Pod(p.uid(), p.namespace(), p.name(), p.schedulerName(), p.nodeName(), p.phase(), p.terminating(),
        p.priority(), p.priorityClassName(), policy, p.request(), p.labels(), p.annotations(), p.nodeSelector(),
        p.requiredNodeAffinity(), p.tolerations(), p.creationTimestamp());
  }

  private static List<String> keys(List<TaskInfo> tasks) {
    return tasks.stream().map(TaskInfo::key).toList();
  }

  /**
   * Three running single-pod jobs of priority 50, 100 and 200 on n1, and a pending preemptor of priority 100.
   * Every pod is its own implicit job, so job priority = pod priority.
   */
  private static TestSessions lowerEqualHigher() {
    return TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .pod(TestPods.pod("ns/low").priority(50).cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ns/equal").priority(100).cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ns/high").priority(200).cpu("1").onNode("n1").build());
  }

  @Test
  void preemptTakesOtherJobsOnlyOfStrictlyLowerJobPriority() {
    Session s = lowerEqualHigher()
        .pod(TestPods.pod("ns/preemptor").priority(100).cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    TaskInfo preemptor = TestSessions.task(s, "ns/preemptor");
    // 50 < 100 is a victim; 100 == 100 is not (preempt needs strictly lower); 200 > 100 is not.
    assertEquals(List.of("ns/low"), keys(s.callbacks().preemptable(preemptor, s.tasksOn("n1"))));
  }

  @Test
  void preemptComparesJobPriorityNotPodPriorityAcrossJobs() {
    // Job "pg" has PodGroup class "high" (1000) although its pod says 1; the preemptor is a lone pod of 500.
    // Across jobs the JOB priority counts: 1000 > 500, so the pod of priority 1 is safe.
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .priorityClass(new PriorityClass("high", 1_000, false, null))
        .podGroup(new PodGroup("ns", "pg", 1, Map.of(), "default", "high", null, "Running", null))
        .pod(TestPods.pod("ns/member").group("pg").priority(1).cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ns/preemptor").priority(500).cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    TaskInfo preemptor = TestSessions.task(s, "ns/preemptor");
    assertEquals(1_000, s.job("ns/pg").priority());
    assertEquals(List.of(), keys(s.callbacks().preemptable(preemptor, s.tasksOn("n1"))));
  }

  @Test
  void withinOneJobOnlyPodsOfStrictlyLowerPodPriorityArePreempted() {
    // One PodGroup of class "mid" (job priority 100 for every member). The pending member has pod priority 10;
    // running members have 5, 10 and 20. Same job, so pod priorities are compared: only 5 < 10 goes.
    // (Comparing job priorities instead would give nothing: 100 is not < 100.)
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .priorityClass(new PriorityClass("mid", 100, false, null))
        .podGroup(new PodGroup("ns", "pg", 1, Map.of(), "default", "mid", null, "Running", null))
        .pod(TestPods.pod("ns/m-lower").group("pg").priority(5).cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ns/m-equal").group("pg").priority(10).cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ns/m-higher").group("pg").priority(20).cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ns/m-pending").group("pg").priority(10).cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    TaskInfo preemptor = TestSessions.task(s, "ns/m-pending");
    assertEquals(100, s.job("ns/pg").priority());
    assertEquals(List.of("ns/m-lower"), keys(s.callbacks().preemptable(preemptor, s.tasksOn("n1"))));
  }

  @Test
  void reclaimTakesEqualAndLowerJobPriorityButNeverHigher() {
    Session s = lowerEqualHigher()
        .pod(TestPods.pod("ns/reclaimer").priority(100).cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    TaskInfo reclaimer = TestSessions.task(s, "ns/reclaimer");
    // 50 <= 100 and 100 <= 100 go; 200 > 100 stays.
    assertEquals(List.of("ns/low", "ns/equal"), keys(s.callbacks().reclaimable(reclaimer, s.tasksOn("n1"))));
  }

  @Test
  void aPreemptorWhosePodSaysNeverEvictsNothing() {
    // Two identical preemptors of priority 100 (no PriorityClass); only one has spec.preemptionPolicy: Never.
    Pod never = withPreemptionPolicy(TestPods.pod("ns/never").priority(100).cpu("4").build(), "Never");
    Pod lower = withPreemptionPolicy(TestPods.pod("ns/may").priority(100).cpu("4").build(),
        "PreemptLowerPriority");
    Session s = lowerEqualHigher().pod(never).pod(lower)
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    List<TaskInfo> running = s.tasksOn("n1");
    assertEquals(List.of(), keys(s.callbacks().preemptable(TestSessions.task(s, "ns/never"), running)));
    assertEquals(List.of(), keys(s.callbacks().reclaimable(TestSessions.task(s, "ns/never"), running)));
    // Control: the same pod with PreemptLowerPriority does get victims.
    assertEquals(List.of("ns/low"), keys(s.callbacks().preemptable(TestSessions.task(s, "ns/may"), running)));
    assertEquals(List.of("ns/low", "ns/equal"), keys(s.callbacks().reclaimable(TestSessions.task(s, "ns/may"), running)));
  }

  @Test
  void aPreemptorWhosePriorityClassSaysNeverEvictsNothing() {
    // Both preemptors have value 100 through their class; only "polite"'s class has preemptionPolicy Never and
    // the pods themselves leave spec.preemptionPolicy unset.
    Session s = lowerEqualHigher()
        .priorityClass(new PriorityClass("polite", 100, false, "Never"))
        .priorityClass(new PriorityClass("pushy", 100, false, "PreemptLowerPriority"))
        .pod(TestPods.pod("ns/polite").priorityClass("polite").cpu("4").build())
        .pod(TestPods.pod("ns/pushy").priorityClass("pushy").cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    List<TaskInfo> running = s.tasksOn("n1");
    TaskInfo polite = TestSessions.task(s, "ns/polite");
    assertEquals(100, polite.priority());
    assertEquals(List.of(), keys(s.callbacks().preemptable(polite, running)));
    assertEquals(List.of(), keys(s.callbacks().reclaimable(polite, running)));
    TaskInfo pushy = TestSessions.task(s, "ns/pushy");
    assertEquals(List.of("ns/low"), keys(s.callbacks().preemptable(pushy, running)));
    assertEquals(List.of("ns/low", "ns/equal"), keys(s.callbacks().reclaimable(pushy, running)));
  }

  @Test
  void aNeverPolicyOnTheVictimDoesNotProtectIt() {
    // preemptionPolicy governs what a pod may evict, not whether it may be evicted: the class "low" says Never,
    // yet its pod (priority 1000 < 100000) is still a victim of a higher-priority preemptor.
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .priorityClass(new PriorityClass("high", 100_000, false, null))
        .priorityClass(new PriorityClass("low", 1_000, false, "Never"))
        .pod(TestPods.pod("ns/victim").priorityClass("low").cpu("1").onNode("n1").build())
        .pod(TestPods.pod("ns/preemptor").priorityClass("high").cpu("4").build())
        .open(REGISTRY, TestSessions.singlePlugin("priority", ""));
    TaskInfo preemptor = TestSessions.task(s, "ns/preemptor");
    assertEquals(List.of("ns/victim"), keys(s.callbacks().preemptable(preemptor, s.tasksOn("n1"))));
    assertEquals(List.of("ns/victim"), keys(s.callbacks().reclaimable(preemptor, s.tasksOn("n1"))));
  }
}
