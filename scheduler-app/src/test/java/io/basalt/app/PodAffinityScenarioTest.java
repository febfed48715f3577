package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@code test-fixtures/pod-affinity/}: issue 30's Deployment with required podAntiAffinity on the hostname. */
class PodAffinityScenarioTest {
  private static final List<String> TWO_REPLICAS = List.of("pod-affinity/nodes.yaml", "pod-affinity/web-2-replicas.yaml");

  private static Set<String> nodes(SimulationReport r) {
    return r.bindings().stream().map(SimulationReport.Bound::node).collect(Collectors.toSet());
  }

  @Test
  void twoReplicasWithHostnameAntiAffinityLandOnTwoNodes() throws Exception {
    SimulationReport r = Scenarios.run(TWO_REPLICAS);
    assertEquals(2, r.bindings().size(), r.pending().toString());
    assertEquals(Set.of("big-1", "small-1"), nodes(r));
  }

  @Test
  void withoutThePredicateBothGoToTheBigNode() throws Exception {
    // The control: least-requested alone would put both replicas on big-1.
    Simulator sim = new Simulator(Scenarios.compile(Scenarios.parse("""
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}]
        - plugins:
          - {name: predicates, arguments: {predicate.PodAffinityEnable: false}}
          - {name: proportion}
          - {name: nodeorder}
        """)), Set.of("basalt-scheduler"), false);
    SimulationReport r = sim.run(FixtureSource.fromPaths(TWO_REPLICAS.stream().map(Scenarios::fixture).toList()));
    assertEquals(Set.of("big-1"), nodes(r));
  }

  @Test
  void aThirdReplicaWaitsSayingNoHostIsLeft() throws Exception {
    SimulationReport r = Scenarios.run("pod-affinity");
    assertEquals(Set.of("big-1", "small-1"), nodes(r));
    assertEquals(1, r.pending().size());
    String reason = r.pending().get(0).reason();
    assertTrue(reason.contains("0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules."), reason);
  }
}
