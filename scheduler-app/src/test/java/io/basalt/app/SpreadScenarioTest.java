package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Topology spread through the simulator ({@code test-fixtures/spread-constraints/}): the Deployment spread
 * over zones, a gang spread over zones in one cycle, minDomains, and a gang held to one network domain with hostname
 * spread.
 */
class SpreadScenarioTest {
  private static final String DEFAULT_WITHOUT_SPREAD = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins:
        - name: priority
        - name: gang
        - name: conformance
      - plugins:
        - name: overcommit
        - name: drf
        - name: predicates
          arguments: {predicate.PodTopologySpreadEnable: false}
        - name: proportion
        - name: nodeorder
      """;

  /** Zone of each bound pod whose name starts with {@code prefix}, counted (node names start with the zone). */
  private static Map<String, Long> zones(SimulationReport r, String prefix) {
    return r.bindings().stream().filter(b -> b.pod().startsWith(prefix))
        .collect(Collectors.groupingBy(b -> "zone-" + b.node().charAt(0), TreeMap::new, Collectors.counting()));
  }

  @Test
  void sixReplicasWithMaxSkewOneOverZonesLandTwoPerZone() throws Exception {
    SimulationReport r = Scenarios.run("spread-constraints");
    assertEquals(Map.of("zone-a", 2L, "zone-b", 2L, "zone-c", 2L), zones(r, "shop/web-"));
    SimulationReport off = Scenarios.run("spread-constraints", DEFAULT_WITHOUT_SPREAD);
    assertEquals(Map.of("zone-a", 6L), zones(off, "shop/web-"),
        "without the constraint resource scores alone put them all in the large zone");
  }

  @Test
  void aGangSpreadsOverZonesWithinOneCycle() throws Exception {
    SimulationReport r = Scenarios.run("spread-constraints");
    assertEquals("Running", r.podGroup("ml/trainer").phase());
    assertEquals(Map.of("zone-a", 1L, "zone-b", 1L, "zone-c", 1L), zones(r, "ml/trainer-"));
    SimulationReport off = Scenarios.run("spread-constraints", DEFAULT_WITHOUT_SPREAD);
    assertNotEquals(Map.of("zone-a", 1L, "zone-b", 1L, "zone-c", 1L), zones(off, "ml/trainer-"));
  }

  @Test
  void minDomainsAboveTheZonesKeepsThePodPendingWithKubeSchedulersReason() throws Exception {
    SimulationReport r = Scenarios.run("spread-constraints");
    assertEquals("0/6 nodes are available: 6 node(s) didn't match pod topology spread constraints.",
        r.pendingPod("shop/db-new").reason());
    assertTrue(Scenarios.run("spread-constraints", DEFAULT_WITHOUT_SPREAD).binding("shop/db-new") != null);
  }

  // ---- a gang held to one network domain, spread over its hosts ---------------------------------------------------

  private static final String TOPOLOGY_CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins:
        - name: priority
        - name: gang
        - name: conformance
      - plugins:
        - name: predicates
        - name: proportion
        - name: nodeorder
        - name: binpack
        - name: network-topology-aware
      """;

  /** Four 4-CPU nodes with hostname labels; tier-1 hypernodes s0 = {s0-n0, s0-n1}, s1 = {s1-n0, s1-n1}; tier 2 s2. */
  private static String hyperNodes() {
    StringBuilder sb = new StringBuilder();
    for (String n : new String[] {"s0-n0", "s0-n1", "s1-n0", "s1-n1"}) {
      sb.append("apiVersion: v1\nkind: Node\nmetadata: {name: ").append(n)
          .append(", labels: {kubernetes.io/hostname: ").append(n).append("}}\nstatus: {allocatable: "
              + "{cpu: \"4\", memory: 16Gi, pods: \"110\"}}\n---\n");
    }
    return sb + """
        apiVersion: topology.volcano.sh/v1alpha1
        kind: HyperNode
        metadata: {name: s0}
        spec: {tier: 1, members: [{type: Node, selector: {regexMatch: {pattern: "^s0-"}}}]}
        ---
        apiVersion: topology.volcano.sh/v1alpha1
        kind: HyperNode
        metadata: {name: s1}
        spec: {tier: 1, members: [{type: Node, selector: {regexMatch: {pattern: "^s1-"}}}]}
        ---
        apiVersion: topology.volcano.sh/v1alpha1
        kind: HyperNode
        metadata: {name: s2}
        spec: {tier: 2, members: [{type: HyperNode, selector: {exactMatch: {name: s0}}},
          {type: HyperNode, selector: {exactMatch: {name: s1}}}]}
        ---
        """;
  }

  /** A gang of {@code pods} 1-CPU pods held to tier {@code tier}, with hostname spread (maxSkew 1) when asked. */
  private static String gang(int pods, int tier, boolean spread) {
    StringBuilder sb = new StringBuilder("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
        + "metadata: {name: job, namespace: ml}\nspec: {minMember: " + pods
        + ", networkTopology: {mode: hard, highestTierAllowed: " + tier + "}}\n");
    for (int i = 0; i < pods; i++) {
      sb.append("---\napiVersion: v1\nkind: Pod\nmetadata: {name: job-").append(i).append(", namespace: ml, "
          + "labels: {job: job}, annotations: {scheduling.k8s.io/group-name: job}}\nspec:\n"
          + "  schedulerName: basalt-scheduler\n");
      if (spread) {
        sb.append("  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, "
            + "whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {job: job}}}\n");
      }
      sb.append("  containers: [{name: c, image: x, resources: {requests: {cpu: \"1\"}}}]\n");
    }
    return sb.toString();
  }

  private static SimulationReport runHyperNodes(String workload) throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(Scenarios.parse(TOPOLOGY_CONF)), Set.of("basalt-scheduler"),
        false);
    return sim.run(FixtureSource.fromText("spread-hypernodes", hyperNodes() + workload));
  }

  private static Map<String, Long> nodes(SimulationReport r) {
    return r.bindings().stream().filter(b -> b.pod().startsWith("ml/job-"))
        .collect(Collectors.groupingBy(SimulationReport.Bound::node, TreeMap::new, Collectors.counting()));
  }

  @Test
  void aGangHeldToOneHyperNodeSpreadsOverItsHosts() throws Exception {
    Map<String, Long> spread = nodes(runHyperNodes(gang(2, 1, true)));
    assertEquals(2, spread.size(), "one pod per host: " + spread);
    assertEquals(1, spread.keySet().stream().map(n -> n.substring(0, 2)).distinct().count(),
        "both in one tier-1 hypernode: " + spread);
    Map<String, Long> packed = nodes(runHyperNodes(gang(2, 1, false)));
    assertEquals(1, packed.size(), "without spread binpack puts both on one host: " + packed);
  }

  @Test
  void aGangTooBigToSpreadInsideOneHyperNodeWaitsThereAndSpreadsAtTheNextTier() throws Exception {
    // Three pods over two hosts leave a host with 2 while two hosts elsewhere hold 0: the skew would be 2.
    SimulationReport tier1 = runHyperNodes(gang(3, 1, true));
    assertEquals(0, tier1.bindings().size(), tier1.pending().toString());
    Map<String, Long> tier2 = nodes(runHyperNodes(gang(3, 2, true)));
    assertEquals(3, tier2.size(), "three hosts, one pod each: " + tier2);
  }
}
