package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Volcano's own HyperNode allocate cases, through the simulator: tier-1 hypernodes s0 = {s0-n0, s0-n1} and
 * s1 = {s1-n0, s1-n1} under tier-2 s2, four nodes of 4 CPUs; gangs of 4-CPU pods (2-CPU for binpack) asking for
 * {@code networkTopology: {mode: hard, highestTierAllowed: T}}.
 */
class HyperNodeScenarioTest {
  private static final String CONF = """
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

  @Test
  void aGangTooBigForAnyTierOneHyperNodeBindsNothingWhenTierOneIsTheLimit() throws Exception {
    SimulationReport r = run(gang("job", 3, 3, 4, 1));
    assertEquals(0, r.bindings().size(), "3 x 4 CPUs never fit one tier-1 hypernode of 2 x 4");
  }

  @Test
  void atTierTwoTheSameGangBindsAcrossTheTierOneHyperNodes() throws Exception {
    SimulationReport r = run(gang("job", 3, 3, 4, 2));
    assertEquals(3, r.bindings().size());
  }

  @Test
  void aRunningJobCannotLeaveItsHyperNodeAtTierOneButSpillsToASiblingAtTierTwo() throws Exception {
    String running = runningPod("job", "job-0", "s0-n0", 4);
    SimulationReport tier1 = run(running + gang("job", 1, 3, 4, 1, 1));
    assertEquals("s0-n1", nodeOf(tier1, "ml/job-1"), "the one free node of its hypernode");
    assertNull(nodeOf(tier1, "ml/job-2"), "s1 has room but is outside s0");

    SimulationReport tier2 = run(running + gang("job", 1, 3, 4, 2, 1));
    assertEquals("s0-n1", nodeOf(tier2, "ml/job-1"));
    assertEquals("s1", nodeOf(tier2, "ml/job-2").substring(0, 2), "spills into s1, inside s2");
  }

  @Test
  void insideTheChosenHyperNodeNodesAreBinpacked() throws Exception {
    SimulationReport r = run(gang("job", 2, 2, 2, 1));
    assertEquals(nodeOf(r, "ml/job-0"), nodeOf(r, "ml/job-1"), "two 2-CPU pods share one 4-CPU node");
  }

  @Test
  void atTierTwoAGangOfFourSplitsEvenlyAcrossTwoTierOneHyperNodes() throws Exception {
    SimulationReport r = run(gang("job", 4, 4, 4, 2));
    assertEquals(Map.of("s0", 2L, "s1", 2L), hyperNodes(r, "ml/job-"));
  }

  /**
   * Preemption for a job held to one tier-1 hypernode takes its victims inside one (Volcano's preempt skips such
   * jobs). s0-n1 is free; low-priority single pods run on s0-n0 and s1-n0, the one on s1-n0 newer (the cheaper victim
   * anywhere); s1-n1 runs a high-priority pod. Only s0 can hold the 2-pod gang: its victim is the pod on s0-n0.
   */
  @Test
  void preemptionForAJobHeldToOneHyperNodeEvictsInsideOne() throws Exception {
    String workload = """
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: high}
        value: 1000
        ---
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: low}
        value: 10
        ---
        """ + single("old-low", "s0-n0", "low", "2026-01-01T00:00:00Z")
        + single("new-low", "s1-n0", "low", "2026-01-02T00:00:00Z")
        + single("keeper", "s1-n1", "high", "2026-01-01T00:00:00Z")
        + gang("job", 2, 2, 4, 1).replace("spec: {minMember", "spec: {priorityClassName: high, minMember")
            .replace("spec:\n  schedulerName", "spec:\n  priorityClassName: high\n  schedulerName");
    String conf = CONF.replace("enqueue, allocate, backfill", "enqueue, allocate, preempt, backfill");
    Simulator sim = new Simulator(Scenarios.compile(Scenarios.parse(conf)), Set.of("basalt-scheduler"), false);
    SimulationReport r = sim.run(FixtureSource.fromText("hypernode-preempt", cluster() + workload));
    assertEquals(List.of("ml/old-low"), r.evicted().stream().map(SimulationReport.Evicted::pod).toList(),
        "the victim inside s0, not the newer pod in s1 that would leave the gang split");
    assertEquals(Map.of("s0", 2L), hyperNodes(r, "ml/job-"));
  }

  // ---- helpers ----------------------------------------------------------------------------------------------------

  private static String single(String name, String node, String priorityClass, String created) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml, creationTimestamp: \""
        + created + "\"}\nspec:\n  schedulerName: basalt-scheduler\n  priorityClassName: " + priorityClass
        + "\n  nodeName: " + node + "\n  containers: [{name: c, image: x, resources: {requests: {cpu: \"4\"}}}]\n"
        + "status: {phase: Running}\n---\n";
  }

  private static SimulationReport run(String workload) throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(Scenarios.parse(CONF)), Set.of("basalt-scheduler"), false);
    return sim.run(FixtureSource.fromText("hypernodes", cluster() + workload));
  }

  /** Four 4-CPU nodes; tier-1 hypernodes s0 = {s0-n0, s0-n1}, s1 = {s1-n0, s1-n1} under tier-2 s2. */
  static String cluster() {
    StringBuilder sb = new StringBuilder();
    for (String n : new String[] {"s0-n0", "s0-n1", "s1-n0", "s1-n1"}) {
      sb.append("apiVersion: v1\nkind: Node\nmetadata: {name: ").append(n).append("}\nstatus: {allocatable: "
          + "{cpu: \"4\", memory: 16Gi, pods: \"110\"}}\n---\n");
    }
    sb.append("""
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
        """);
    return sb.toString();
  }

  private static String gang(String name, int minMember, int pods, int cpus, int tier) {
    return gang(name, minMember, pods, cpus, tier, 0);
  }

  /** A PodGroup asking for hard mode up to {@code tier}, with pending pods {@code <name>-<first..pods-1>}. */
  private static String gang(String name, int minMember, int pods, int cpus, int tier, int first) {
    StringBuilder sb = new StringBuilder("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ")
        .append(name).append(", namespace: ml}\nspec: {minMember: ").append(minMember)
        .append(", networkTopology: {mode: hard, highestTierAllowed: ").append(tier).append("}}\n");
    for (int i = first; i < pods; i++) {
      sb.append("---\n").append(pod(name, name + "-" + i, null, cpus));
    }
    return sb.toString();
  }

  private static String runningPod(String group, String name, String node, int cpus) {
    return pod(group, name, node, cpus) + "---\n";
  }

  private static String pod(String group, String name, String node, int cpus) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml, annotations: "
        + "{scheduling.k8s.io/group-name: " + group + "}}\nspec:\n  schedulerName: basalt-scheduler\n"
        + (node == null ? "" : "  nodeName: " + node + "\n")
        + "  containers: [{name: c, image: x, resources: {requests: {cpu: \"" + cpus + "\"}}}]\n"
        + (node == null ? "" : "status: {phase: Running}\n");
  }

  private static String nodeOf(SimulationReport r, String pod) {
    SimulationReport.Bound b = r.binding(pod);
    return b == null ? null : b.node();
  }

  /** Tier-1 hypernode (node name prefix) of each bound pod of {@code prefix}, counted. */
  private static Map<String, Long> hyperNodes(SimulationReport r, String prefix) {
    return r.bindings().stream().filter(b -> b.pod().startsWith(prefix))
        .collect(Collectors.groupingBy(b -> b.node().substring(0, 2), TreeMap::new, Collectors.counting()));
  }
}
