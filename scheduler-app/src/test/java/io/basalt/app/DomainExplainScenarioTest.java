package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.session.DomainVerdict;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.ReportFormat;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code --explain} for jobs that ask for a network domain: the candidate domains the placer considered, their free
 * nodes and why each won or lost, on the clusters of {@link SupernodeScenarioTest} (MetaX's supernode config) and
 * {@link HyperNodeScenarioTest} (Volcano's HyperNode cases). Explaining never changes a placement.
 */
class DomainExplainScenarioTest {
  private static final String METAX_CONFIG = "config/metax-supernode-configmap.yaml";
  private static final String HYPERNODE_CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: predicates}, {name: proportion}, {name: nodeorder}, {name: binpack},
          {name: network-topology-aware}]
      """;

  @Test
  void theChosenDragonflyIsListedWithTheFreeOnesRankedBelowItAndTheFullOneTooSmall() throws Exception {
    String workload = SupernodeScenarioTest.busy("sb1-df1", 8) + SupernodeScenarioTest.busy("sb1-df2", 5) + SupernodeScenarioTest.gang("small", 2, 16);
    SimulationReport r = supernode(workload, true);
    Map<String, DomainVerdict> domains = domains(r, "ml/small");
    assertEquals("chosen", domains.get("sb1-df2").verdict());
    assertEquals("3/8 nodes", domains.get("sb1-df2").free());
    assertEquals("ranked below sb1-df2 (fuller first: score 20.8 vs 0)", domains.get("sb2-df1").verdict());
    assertEquals("8/8 nodes", domains.get("sb2-df1").free());
    assertEquals("too small: 0 free nodes for 2 pods (metax-tech.com/gpu: 0 free, 16 needed)",
        domains.get("sb1-df1").verdict());
    assertEquals(List.of("sb1-df2", "sb2-df1", "sb2-df2", "sb1-df1"), r.podGroup("ml/small").domains().stream()
        .map(DomainVerdict::domain).toList(), "the decision first, then the nearest misses");

    String table = ReportFormat.table(r);
    assertTrue(table.contains("  DOMAINS (job ml/small, its last placement attempt)\n"
        + "    DOMAIN   TIER  FREE       VERDICT\n"
        + "    sb1-df2  1     3/8 nodes  chosen\n"), table);
    String json = ReportFormat.json(r);
    assertTrue(json.contains("\"from\": \"PodGroup\",\n      \"domains\": [\n        {\n          \"domain\": \"sb1-df2\","
        + "\n          \"tier\": 1,\n          \"free\": \"3/8 nodes\",\n          \"verdict\": \"chosen\""), json);
    assertEquals(bindings(supernode(workload, false)), bindings(r), "explaining changes no placement");
  }

  @Test
  void aJobNoDragonflyHoldsListsEachTooSmallWithItsFreeNodes() throws Exception {
    String workload = SupernodeScenarioTest.busy("sb1-df1", 2) + SupernodeScenarioTest.busy("sb1-df2", 3) + SupernodeScenarioTest.busy("sb2-df1", 2) + SupernodeScenarioTest.busy("sb2-df2", 4)
        + Files.readString(Scenarios.fixture("workloads/volcano-job-pytorch-demo.yaml"));
    SimulationReport r = supernode(workload, true);
    Map<String, DomainVerdict> domains = domains(r, "default/pytorch-demo");
    assertEquals("too small: 6 free nodes for 8 pods (metax-tech.com/gpu: 48 free, 64 needed); for a ready gang: "
        + "tried: gang did not fit (6 of 8 pods placed)", domains.get("sb1-df1").verdict(),
        "the second pass, for a gang that is merely ready, tries it anyway");
    assertEquals("6/8 nodes", domains.get("sb1-df1").free());
    assertTrue(domains.get("sb2-df2").verdict().startsWith("too small: 4 free nodes for 8 pods (metax-tech.com/gpu: "
        + "32 free, 64 needed)"), domains.get("sb2-df2").verdict());
    assertTrue(ReportFormat.table(r).contains("  DOMAINS (job default/pytorch-demo, its last placement attempt)\n"),
        "printed though no pod was searched for");
  }

  @Test
  void twoMetaxGroupsShowTheSwitchboxAndEachGroupsDragonfly() throws Exception {
    String workload = SupernodeScenarioTest.busy("sb1-df1", 1) + SupernodeScenarioTest.gang("big", 16, 64);
    SimulationReport r = supernode(workload, true);
    List<String> rows = r.podGroup("ml/big").domains().stream().map(d -> d.domain() + " " + d.verdict()).toList();
    assertTrue(rows.contains("sb2 chosen"), rows.toString());
    assertTrue(rows.contains("sb2-df1 group 1: chosen"), rows.toString());
    assertTrue(rows.contains("sb2-df2 group 2: chosen"), rows.toString());
    assertTrue(rows.contains("sb1 too small: 15 free nodes for 16 pods (metax-tech.com/gpu: 120 free, 128 needed)"),
        rows.toString());
    assertEquals(bindings(supernode(workload, false)), bindings(r));
  }

  /**
   * job-0 runs in s0; job-1 takes s0's last node in the first cycle, job-2 has no room there and may not leave s0. The
   * last attempt (the second cycle's) says why job-2 waits.
   */
  /** Both switchboxes are one node short, so the groups go to free dragonflies of different switchboxes. */
  @Test
  void groupsThatNoSwitchboxHoldsSayWhichDragonflyEachTook() throws Exception {
    String workload = SupernodeScenarioTest.busy("sb1-df1", 1) + SupernodeScenarioTest.busy("sb2-df1", 1) + SupernodeScenarioTest.gang("big", 16, 64);
    SimulationReport r = supernode(workload, true);
    List<String> rows = r.podGroup("ml/big").domains().stream().map(d -> d.domain() + " " + d.verdict()).toList();
    assertEquals(List.of("sb1-df2 group 1: chosen", "sb2-df2 group 2: chosen"), rows.subList(0, 2));
    assertTrue(rows.contains("sb1 too small: 15 free nodes for 16 pods (metax-tech.com/gpu: 120 free, 128 needed)"),
        rows.toString());
    assertTrue(rows.contains("sb1-df1 group 1: too small: 7 free nodes for 8 pods (metax-tech.com/gpu: 56 free, 64 "
        + "needed)"), rows.toString());
    assertEquals(bindings(supernode(workload, false)), bindings(r));
  }

  /** Only one dragonfly has 8 free nodes: the first group fit there, the second nowhere, so the job waits. */
  @Test
  void aGroupPlacedInATrialThatFailedIsNotListedAsChosen() throws Exception {
    String workload = SupernodeScenarioTest.busy("sb1-df1", 1) + SupernodeScenarioTest.busy("sb2-df1", 1) + SupernodeScenarioTest.busy("sb2-df2", 1) + SupernodeScenarioTest.gang("big", 16, 64);
    SimulationReport r = supernode(workload, true);
    assertEquals(List.of(), r.bindings().stream().filter(b -> b.pod().startsWith("ml/")).toList());
    Map<String, DomainVerdict> domains = r.podGroup("ml/big").domains().stream()
        .filter(d -> d.verdict().startsWith("group 1: ")).collect(Collectors.toMap(DomainVerdict::domain, d -> d));
    assertEquals("group 1: fit, but not every group fit in any dragonfly", domains.get("sb1-df2").verdict());
    assertTrue(r.podGroup("ml/big").domains().stream().noneMatch(d -> d.verdict().contains("chosen")),
        r.podGroup("ml/big").domains().toString());
  }

  /** Soft mode: no hypernode holds five 4-CPU pods, so they are placed on the whole cluster, a fifth node included. */
  @Test
  void softModesLastResortIsTheWholeCluster() throws Exception {
    String workload = "apiVersion: v1\nkind: Node\nmetadata: {name: x-n0}\nstatus: {allocatable: {cpu: \"4\", "
        + "memory: 16Gi, pods: \"110\"}}\n---\n" + hyperGang("job", 5, 5, 2, 0).replace("mode: hard", "mode: soft");
    SimulationReport r = hyperNodes(workload, true);
    assertEquals(5, r.bindings().size(), r.pending().toString());
    List<DomainVerdict> domains = r.podGroup("ml/job").domains();
    assertEquals(new DomainVerdict("(whole cluster)", 0, "-", "soft mode, no domain took the gang: chosen"),
        domains.get(0));
    assertTrue(ReportFormat.table(r).contains("    (whole cluster)  -     -          soft mode"), ReportFormat.table(r));
    assertEquals(bindings(hyperNodes(workload, false)), bindings(r));
  }

  @Test
  void aRunningJobsOtherHyperNodeIsElsewhereAndItsOwnTooSmall() throws Exception {
    String workload = pod("job", "job-0", "s0-n0") + "---\n" + hyperGang("job", 1, 3, 1, 1);
    SimulationReport r = hyperNodes(workload, true);
    assertEquals("s0-n1", r.binding("ml/job-1").node());
    assertNull(r.binding("ml/job-2"));
    Map<String, DomainVerdict> domains = domains(r, "ml/job");
    assertEquals("the job's running pods are in s0", domains.get("s1").verdict());
    assertEquals("2/2 nodes", domains.get("s1").free());
    assertEquals("too small: 0 free nodes for 1 pod (cpu: 0 free, 4 needed); for a ready gang: kept: the gang is "
        + "ready here already (0 of 1 pods placed)", domains.get("s0").verdict());
    assertEquals(bindings(hyperNodes(workload, false)), bindings(r));
  }

  @Test
  void aGangTooBigForTierOneIsChosenAtTierTwo() throws Exception {
    SimulationReport r = hyperNodes(hyperGang("job", 3, 3, 2, 0), true);
    Map<String, DomainVerdict> domains = domains(r, "ml/job");
    assertEquals(2, domains.get("s2").tier());
    assertEquals("chosen", domains.get("s2").verdict());
    assertEquals("too small: 2 free nodes for 3 pods (cpu: 8 free, 12 needed)", domains.get("s0").verdict());
    assertEquals("4/4 nodes", domains.get("s2").free());
  }

  @Test
  void withoutExplainNoDomainsAreKept() throws Exception {
    SimulationReport r = hyperNodes(hyperGang("job", 3, 3, 2, 0), false);
    assertNull(r.podGroup("ml/job").domains());
    assertTrue(!ReportFormat.json(r).contains("\"domains\""));
  }

  // ---- helpers ----------------------------------------------------------------------------------------------------

  private static Map<String, DomainVerdict> domains(SimulationReport r, String job) {
    return r.podGroup(job).domains().stream().collect(Collectors.toMap(DomainVerdict::domain, d -> d));
  }

  private static Map<String, String> bindings(SimulationReport r) {
    return r.bindings().stream().collect(Collectors.toMap(SimulationReport.Bound::pod, SimulationReport.Bound::node));
  }

  private static SimulationReport supernode(String workload, boolean explain) throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(ConfLoader.parse(Files.readString(
        Scenarios.fixture("../" + METAX_CONFIG)), METAX_CONFIG)), Set.of("basalt-scheduler"), explain);
    String cluster = Files.readString(Scenarios.fixture("supernode/00-cluster.yaml")) + "\n---\n"
        + Files.readString(Scenarios.fixture("supernode/hypernodes.yaml"));
    return sim.run(FixtureSource.fromText("supernode", cluster + "\n---\n" + workload));
  }

  /** {@code workload} on {@link HyperNodeScenarioTest#cluster()}. */
  private static SimulationReport hyperNodes(String workload, boolean explain) throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(Scenarios.parse(HYPERNODE_CONF)), Set.of("basalt-scheduler"),
        explain);
    return sim.run(FixtureSource.fromText("hypernodes", HyperNodeScenarioTest.cluster() + workload));
  }

  /** A hard-mode PodGroup up to {@code tier} with pending 4-CPU pods {@code <name>-<first..pods-1>}. */
  private static String hyperGang(String name, int minMember, int pods, int tier, int first) {
    StringBuilder sb = new StringBuilder("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ")
        .append(name).append(", namespace: ml}\nspec: {minMember: ").append(minMember)
        .append(", networkTopology: {mode: hard, highestTierAllowed: ").append(tier).append("}}\n");
    for (int i = first; i < pods; i++) {
      sb.append("---\n").append(pod(name, name + "-" + i, null));
    }
    return sb.toString();
  }

  /** A 4-CPU pod of {@code group}, running on {@code node} when not null. */
  private static String pod(String group, String name, String node) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml, annotations: "
        + "{scheduling.k8s.io/group-name: " + group + "}}\nspec:\n  schedulerName: basalt-scheduler\n"
        + (node == null ? "" : "  nodeName: " + node + "\n")
        + "  containers: [{name: c, image: x, resources: {requests: {cpu: \"4\"}}}]\n"
        + (node == null ? "" : "status: {phase: Running}\n");
  }
}
