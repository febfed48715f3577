package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.sim.SimulationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Queues, preemption and reclaim in the simulator: who gets evicted, and who never does. */
class FairShareScenarioTest {
  private static final String PREEMPT_TIERS = """
      actions: "enqueue, allocate, preempt, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: predicates}, {name: nodeorder}]
      """;

  private static Set<String> evicted(SimulationReport r) {
    return r.evicted().stream().map(SimulationReport.Evicted::pod).collect(Collectors.toSet());
  }

  @Test
  void reclaimReturnsTheBorrowedShareEvictingTheFewestPods() throws Exception {
    SimulationReport r = Scenarios.run("reclaim-borrowed-gpus",
        ConfLoader.load(Scenarios.fixture("../config/capacity-reclaim.conf").normalize()), false);
    for (int i = 0; i < 4; i++) {
      assertNotNull(r.binding("team-c/llm-train-" + i), "C's whole gang runs");
    }
    assertEquals("Running", r.podGroup("team-c/llm-train").phase());
    Set<String> gone = evicted(r);
    assertEquals(10, gone.size(), gone.toString());
    assertTrue(gone.containsAll(Set.of("team-a/train-0", "team-a/train-1")), "two 8-GPU pods before sixteen small");
    long experimentsGone = gone.stream().filter(p -> p.startsWith("team-a/exp-")).count();
    assertEquals(8, experimentsGone, "one node's worth of 1-GPU experiments, no more");
    assertTrue(gone.stream().noneMatch(p -> p.startsWith("team-b/")), "team-b is not reclaimable");
    assertTrue(!gone.contains("team-a/prod-serve"), "production outranks C's job and is never taken");
    r.evicted().forEach(e -> assertTrue(e.reason().startsWith("reclaimed by queue team-c for team-c/llm-train-"),
        e.reason()));
    assertEquals(Map.of("nvidia.com/gpu", "16"), r.queue("team-a").allocated(), "A is back at its deserved 16");
    assertEquals(Map.of("nvidia.com/gpu", "16"), r.queue("team-a").deserved());
    assertEquals(Map.of("nvidia.com/gpu", "32"), r.queue("team-c").allocated());
    assertEquals(Map.of("nvidia.com/gpu", "16"), r.queue("team-b").allocated(), "B keeps what it borrowed");
  }

  @Test
  void highPriorityPreemptsLowDownToTheGangsMinimumAndNeverCriticalPods() throws Exception {
    SimulationReport r = Scenarios.run("preempt-priority", PREEMPT_TIERS);
    assertNotNull(r.binding("ml/train-0"));
    assertNotNull(r.binding("ml/train-1"));
    Set<String> gone = evicted(r);
    assertEquals(4, gone.size(), gone.toString());
    assertTrue(gone.stream().allMatch(p -> p.startsWith("ml/sweep-")));
    assertTrue(!gone.contains("ml/serve"), "critical is never a victim");
    assertEquals(2, r.podGroup("ml/sweep").scheduled(), "the sweep keeps exactly its minMember");
    assertEquals("Running", r.podGroup("ml/sweep").phase());
    r.evicted().forEach(e -> assertTrue(e.reason().matches("preempted by ml/train-[01] \\(priority 100000\\)"),
        e.reason()));
    assertNotNull(r.pendingPod("ml/report"), "preemptionPolicy: Never waits instead of evicting the sweep");
  }

  @Test
  void aGangThatCannotSpareAPodIsEvictedWholeNeverLeftRunningHalf() throws Exception {
    SimulationReport r = Scenarios.run("preempt-whole-gang", PREEMPT_TIERS);
    assertEquals(Set.of("ml/sweep-0", "ml/sweep-1", "ml/sweep-2", "ml/sweep-3", "ml/sweep-4", "ml/sweep-5"),
        evicted(r));
    assertNotNull(r.binding("ml/train-0"));
    assertNotNull(r.binding("ml/train-1"));
  }

  @Test
  void withoutPreemptNothingIsEvicted() throws Exception {
    SimulationReport r = Scenarios.run("preempt-priority", PREEMPT_TIERS.replace("preempt, ", ""));
    assertEquals(0, r.evicted().size());
    assertNotNull(r.pendingPod("ml/train-0"));
  }

  @Test
  void drfVetoesAPreemptionInItsOwnTierButNotFromATierBelowAsInVolcano() throws Exception {
    String sameTier = PREEMPT_TIERS.replace("{name: conformance}", "{name: conformance}, {name: drf}");
    SimulationReport vetoed = Scenarios.run("preempt-priority", sameTier);
    assertEquals(0, vetoed.evicted().size(), "train would end with 8 of 16 GPUs, the sweep with 6");
    SimulationReport off = Scenarios.run("preempt-priority",
        sameTier.replace("{name: drf}", "{name: drf, enablePreemptable: false}"));
    assertEquals(4, off.evicted().size());
    String tierBelow = PREEMPT_TIERS.replace("{name: predicates}", "{name: drf}, {name: predicates}");
    assertEquals(4, Scenarios.run("preempt-priority", tierBelow).evicted().size(),
        "tier 1 (priority, conformance) answered with victims: tier 2 has no say");
  }

  @Test
  void hierarchicalDrfSplitsEveryLevelByDominantShare() throws Exception {
    SimulationReport r = Scenarios.run("hierarchical-drf", """
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}]
        - plugins: [{name: drf, enableHierarchy: true}, {name: predicates}]
        """);
    assertEquals(Map.of("cpu", "5", "memory", "5Gi"), r.queue("sci").allocated());
    assertEquals(Map.of("cpu", "5"), r.queue("dev").allocated());
    assertEquals(Map.of("memory", "5Gi"), r.queue("prod").allocated());
    assertEquals(15, r.pending().size(), "the node is full: the other 15 pods wait");
  }

  /** Hardening II: "/" threw in every cycle and bound nothing while the probes said all was well. */
  @Test
  void aHierarchyNamingNoPlaceIsReadAsNoneAndSchedulingGoesOn(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    String yaml = Files.readString(Scenarios.fixture("hierarchical-drf/cluster.yaml"))
        .replace("volcano.sh/hierarchy: root/sci", "volcano.sh/hierarchy: \"/\"")
        .replace("volcano.sh/hierarchy: root/eng/prod", "volcano.sh/hierarchy: root//prod");
    Files.writeString(dir.resolve("cluster.yaml"), yaml);
    io.basalt.sim.Simulator sim = new io.basalt.sim.Simulator(Scenarios.compile(Scenarios.parse("""
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}]
        - plugins: [{name: drf, enableHierarchy: true}, {name: predicates}]
        """)), Set.of("basalt-scheduler", "volcano"), false);
    SimulationReport r = sim.run(io.basalt.sim.FixtureSource.fromPaths(List.of(dir)));
    assertEquals(15, r.pending().size(), "the node still fills up: " + r.queues());
    assertEquals(Map.of("cpu", "5"), r.queue("dev").allocated(), "dev keeps its place under root/eng");
  }

  @Test
  void withoutHierarchyDrfDoesNotBalanceTheTree() throws Exception {
    SimulationReport r = Scenarios.run("hierarchical-drf", """
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}]
        - plugins: [{name: drf}, {name: predicates}]
        """);
    assertTrue(!Map.of("cpu", "5", "memory", "5Gi").equals(r.queue("sci").allocated())
        || !Map.of("cpu", "5").equals(r.queue("dev").allocated()), r.queues().toString());
  }

  @Test
  void hierarchicalDrfAndProportionInOneTierIsAConfigError() {
    io.basalt.scheduler.ConfValidator.Report report = io.basalt.scheduler.ConfValidator.validate(
        Scenarios.parseUnchecked("""
            actions: "enqueue, allocate"
            tiers:
            - plugins: [{name: drf, enableHierarchy: true}, {name: proportion}]
            """), io.basalt.framework.PluginRegistry.load(), io.basalt.actions.ActionRegistry.builtin());
    assertEquals(1, report.errors().size(), report.errors().toString());
    assertTrue(report.errors().get(0).startsWith("tiers[0].plugins[0] (drf): drf with enableHierarchy cannot share"
        + " a tier with proportion"), report.errors().get(0));
  }
}
