package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.sim.SimulationReport;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The scenarios of {@code test-fixtures/}: what each cluster must end up as. */
class ScenarioTest {
  @Test
  void gangThatFitsOnlyPartiallyStaysEntirelyPendingWithTheGangsReason() throws Exception {
    // Without proportion the nodes are the limit: two members fit, the third finds no node.
    SimulationReport r = Scenarios.run("gang-partial", """
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}]
        - plugins: [{name: overcommit}, {name: predicates}, {name: nodeorder}, {name: binpack}]
        """);
    assertEquals(0, r.bindings().size(), "no member of the gang may start");
    assertEquals(4, r.pending().size());
    for (SimulationReport.Pending p : r.pending()) {
      assertTrue(p.reason().startsWith("4/4 tasks in gang unschedulable: "), p.pod() + ": " + p.reason());
    }
    assertEquals("4/4 tasks in gang unschedulable: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
        r.pendingPod("ml/train-2").reason(), "the member that found no node");
    // With Volcano's default tiers, proportion stops the third member first; its share is the whole cluster.
    r = Scenarios.run("gang-partial");
    assertEquals(0, r.bindings().size());
    assertEquals("4/4 tasks in gang unschedulable: the cluster lacks 4 nvidia.com/gpu (needs 12, free 8) for the 4 "
        + "pods of ml/train", r.pendingPod("ml/train-2").reason(), "the share is the whole cluster: name the cluster");
    SimulationReport.Group g = r.podGroup("ml/train");
    assertEquals("Inqueue", g.phase());
    assertEquals(0, g.scheduled());
    assertEquals(4, g.minMember());
  }

  @Test
  void twoGangsThatOverflowTheClusterDoNotDeadlock() throws Exception {
    SimulationReport r = Scenarios.run("gangs-no-deadlock");
    Set<String> running = r.podGroups().stream().filter(g -> g.phase().equals("Running"))
        .map(SimulationReport.Group::name).collect(Collectors.toSet());
    assertEquals(Set.of("ml/first"), running, "the earlier gang runs whole");
    assertEquals(3, r.podGroup("ml/first").scheduled());
    assertEquals(0, r.podGroup("ml/second").scheduled(), "the other waits whole, holding nothing");
    assertEquals(3, r.bindings().size());
    assertTrue(r.pending().stream().allMatch(p -> p.pod().startsWith("ml/second-")));
  }

  @Test
  void nodeSelectorAffinityTaintsAndCordonsDecideWhereEachPodGoes() throws Exception {
    SimulationReport r = Scenarios.run("node-constraints");
    assertEquals("a100-1", r.binding("team-a/wants-a100").node());
    assertEquals("h100-1", r.binding("team-b/llm-tolerates").node());
    assertEquals("cpu-1", r.binding("team-c/etl").node());
    SimulationReport.Pending stuck = r.pendingPod("team-b/llm-no-toleration");
    assertEquals("0/4 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, "
        + "1 node(s) had untolerated taint {dedicated: llm}, 1 node(s) were unschedulable.", stuck.reason());
    assertNull(r.binding("team-c/not-ours"));
    assertNull(r.pendingPod("team-c/not-ours"), "another scheduler's pod is not ours to report");
  }

  @Test
  void podThatFitsOnlyAfterReleaseIsPipelinedThenBound() throws Exception {
    SimulationReport r = Scenarios.run("pipelining");
    assertEquals("gpu-a", r.binding("ml/next").node());
    assertTrue(r.cycles() >= 2, "bound only in a later cycle, after the terminating pod is gone");
  }

  @Test
  void pipelinedPodIsReportedWithItsNominatedNodeWhileItWaits() throws Exception {
    // Only enqueue and allocate: one cycle's view, before the terminating pod finishes.
    SimulationReport r = Scenarios.run("pipelining",
        "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gang\n  - name: predicates\n");
    assertEquals("gpu-a", r.binding("ml/next").node());
    io.basalt.config.SchedulerConf conf = Scenarios.parse(
        "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: predicates\n");
    io.basalt.cache.ClusterCache cache = new io.basalt.cache.ClusterCache(Set.of("basalt-scheduler"), "default");
    io.basalt.sim.FixtureSource.fromPaths(java.util.List.of(Scenarios.fixture("pipelining"))).start(cache);
    io.basalt.scheduler.SchedulerProfile profile = Scenarios.compile(conf);
    io.basalt.session.SessionResult first = new io.basalt.scheduler.Scheduler(cache, () -> profile,
        new io.basalt.sim.InMemoryBinder(), io.basalt.scheduler.StatusSink.NONE).runOnce();
    assertEquals(0, first.bindings().size());
    assertEquals("gpu-a", first.pending().get(0).nominatedNode());
    assertTrue(first.pending().get(0).reason().startsWith("pipelined to node gpu-a"));
  }

  @Test
  void bestEffortPodsAreBackfilledUpToThePodLimit() throws Exception {
    SimulationReport r = Scenarios.run("backfill");
    assertNotNull(r.binding("batch/best-effort-1"));
    assertNotNull(r.binding("batch/best-effort-2"));
    assertEquals("0/1 nodes are available: 1 Insufficient pods.", r.pendingPod("batch/best-effort-3").reason());
    // The CPU is full: overcommit (capacity 4 x 1.2 - 4 used = 800m) does not even admit the pod.
    assertEquals("pod not admitted to queue default: cluster cpu would be overcommitted: admitted jobs need 1, "
        + "capacity x 1.2 minus used leaves 800m", r.pendingPod("batch/needs-cpu").reason());
  }

  @Test
  void withoutBackfillBestEffortPodsStayPending() throws Exception {
    SimulationReport r = Scenarios.run("backfill",
        "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gang\n  - name: predicates\n");
    assertEquals(0, r.bindings().size());
  }

  @Test
  void higherPriorityClassGoesFirstWhateverTheSubmitOrder() throws Exception {
    SimulationReport r = Scenarios.run("priority-order");
    assertNotNull(r.binding("prod/prod-1"));
    assertNotNull(r.binding("prod/prod-2"));
    assertNotNull(r.pendingPod("research/experiment"));
  }

  @Test
  void embeddedDemoClusterBindsEverythingButTheGangThatCannotFit() throws Exception {
    io.basalt.sim.FixtureSource demo = io.basalt.sim.FixtureSource.fromText("demo", SimulateCommand.embeddedCluster());
    SimulationReport r = new io.basalt.sim.Simulator(Scenarios.compile(io.basalt.config.ConfLoader.defaultConf()),
        Set.of("basalt-scheduler", "volcano"), false).run(demo);
    assertEquals(java.util.List.of(), r.warnings());
    assertEquals(8, r.nodes());
    assertEquals(18, r.bindings().size());
    assertEquals(Set.of("research/eval-sweep-0", "research/eval-sweep-1"),
        r.pending().stream().map(SimulationReport.Pending::pod).collect(Collectors.toSet()));
    assertEquals("gpu-5", r.binding("serving/llm-serve-0").node(), "the only node the inference pods tolerate");
    assertTrue(r.binding("data/etl-0").node().startsWith("cpu-"));
  }
}
