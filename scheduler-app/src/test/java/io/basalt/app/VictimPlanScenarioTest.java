package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.basalt.config.ConfLoader;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue #12's examples: victims are chosen for the whole starving job, across nodes, and cost least. The seed's team
 * setup: 8 nodes x 8 GPUs; team-a borrowed 48 GPUs as gangs a1 (4 x 8) and a2 (2 x 8); team-c submits c1 (4 x 8).
 */
class VictimPlanScenarioTest {
  @Test
  void reclaimUnderProportionEvictsExactlyTheSmallerGangThatIsEnough() throws Exception {
    SimulationReport r = run("config/preempt.conf", teams("spec: {weight: 1}", "spec: {weight: 1}"));
    assertEquals(Set.of("ml/a2-0", "ml/a2-1"), evicted(r), "16 GPUs are enough; a1 (32) stays");
    for (int i = 0; i < 4; i++) {
      assertNotNull(r.binding("ml/c1-" + i), "c1 runs whole");
    }
  }

  @Test
  void reclaimUnderCapacityEvictsTheSameNotTheOldestGang() throws Exception {
    SimulationReport r = run("config/capacity-reclaim.conf", teams(
        "spec: {weight: 1, deserved: {nvidia.com/gpu: 32}}", "spec: {weight: 1, deserved: {nvidia.com/gpu: 32}}"));
    assertEquals(Set.of("ml/a2-0", "ml/a2-1"), evicted(r));
  }

  @Test
  void aNeedOfEightGpusTakesOnePodTheGangCanSpareRatherThanAWholeGang() throws Exception {
    // a1 now has minMember 3 of 4: one of its pods can go alone; a2 (2 of 2) cannot spare any.
    String cluster = teams("spec: {weight: 1}", "spec: {weight: 1}").replace("minMember: 4, queue: team-a",
        "minMember: 3, queue: team-a") .replace("name: c1, namespace: ml}\nspec: {minMember: 4",
        "name: c1, namespace: ml}\nspec: {minMember: 3");
    SimulationReport r = run("config/preempt.conf", cluster.replace(c1Pod(3), ""));
    Set<String> gone = evicted(r);
    assertEquals(1, gone.size(), gone.toString());
    assertEquals("ml/a1-", gone.iterator().next().substring(0, 6), "a pod a1 can spare, not the whole of a2");
  }

  @Test
  void preemptionInsideAQueueAtItsCapabilityEvictsTheLowPriorityPodAndTakesItsPlace() throws Exception {
    SimulationReport capped = run("config/preempt.conf", capacityCase(4));
    assertEquals(Set.of("ns/low"), evicted(capped));
    assertNotNull(capped.binding("ns/high"));
    SimulationReport roomy = run("config/preempt.conf", capacityCase(6));
    assertEquals(Set.of(), evicted(roomy), "with room in the queue nothing is evicted");
    assertNotNull(roomy.binding("ns/high"));
  }

  @Test
  void aPodMarkedNotPreemptableIsNeverAVictimEvenWithoutTheConformancePlugin() throws Exception {
    String tiers = """
        actions: "enqueue, allocate, preempt, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}]
        - plugins: [{name: predicates}, {name: proportion}]
        """;
    String optedOut = capacityCase(4).replace("annotations: {scheduling.k8s.io/group-name: pg1}",
        "annotations: {scheduling.k8s.io/group-name: pg1, volcano.sh/preemptable: \"false\"}");
    Simulator sim = new Simulator(Scenarios.compile(Scenarios.parse(tiers)), Set.of("basalt-scheduler"), false);
    assertEquals(Set.of(), evicted(sim.run(FixtureSource.fromText("opted-out", optedOut))));
    assertEquals(Set.of("ns/low"), evicted(sim.run(FixtureSource.fromText("plain", capacityCase(4)))));
  }

  // ---- clusters ---------------------------------------------------------------------------------------------------

  private static SimulationReport run(String config, String cluster) throws Exception {
    var conf = ConfLoader.parse(Files.readString(Scenarios.fixture("../" + config)), config);
    Simulator sim = new Simulator(Scenarios.compile(conf), Set.of("basalt-scheduler"), false);
    return sim.run(FixtureSource.fromText("victims", cluster));
  }

  private static Set<String> evicted(SimulationReport r) {
    return r.evicted().stream().map(SimulationReport.Evicted::pod).collect(Collectors.toCollection(TreeSet::new));
  }

  private static String teams(String teamA, String teamC) {
    StringBuilder sb = new StringBuilder();
    sb.append("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: team-a}\n").append(teamA)
        .append("\n---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: team-c}\n")
        .append(teamC).append("\n---\n");
    for (int i = 1; i <= 8; i++) {
      sb.append("apiVersion: v1\nkind: Node\nmetadata: {name: gpu-").append(i).append("}\nstatus: {allocatable: "
          + "{cpu: \"64\", memory: 512Gi, nvidia.com/gpu: \"8\", pods: \"110\"}}\n---\n");
    }
    sb.append(gang("a1", "team-a", 4, 1)).append(gang("a2", "team-a", 2, 5));
    sb.append("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: c1, namespace: ml}\n"
        + "spec: {minMember: 4, queue: team-c}\n");
    for (int i = 0; i < 4; i++) {
      sb.append(c1Pod(i));
    }
    return sb.toString();
  }

  private static String c1Pod(int i) {
    return "---\n" + pod("c1", "c1-" + i, null);
  }

  /** A running gang of {@code n} pods x 8 GPUs on nodes gpu-{firstNode}.. onward. */
  private static String gang(String name, String queue, int n, int firstNode) {
    StringBuilder sb = new StringBuilder("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ")
        .append(name).append(", namespace: ml}\nspec: {minMember: ").append(n).append(", queue: ").append(queue)
        .append("}\nstatus: {phase: Running}\n");
    for (int i = 0; i < n; i++) {
      sb.append("---\n").append(pod(name, name + "-" + i, "gpu-" + (firstNode + i)));
    }
    return sb.append("---\n").toString();
  }

  private static String pod(String group, String name, String node) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml, annotations: "
        + "{scheduling.k8s.io/group-name: " + group + "}}\nspec:\n  schedulerName: basalt-scheduler\n"
        + (node == null ? "" : "  nodeName: " + node + "\n")
        + "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 8}, requests: {cpu: \"4\", "
        + "memory: 16Gi}}}]\n" + (node == null ? "" : "status: {phase: Running}\n");
  }

  /** Volcano's "preempt low priority job in same queue": a queue capped at {@code cap} CPUs. */
  private static String capacityCase(int cap) {
    return """
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
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: Queue
        metadata: {name: q1}
        spec: {weight: 1, capability: {cpu: "CAP"}}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status: {allocatable: {cpu: "10", memory: 10Gi, pods: "110"}}
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        metadata: {name: pg1, namespace: ns}
        spec: {minMember: 0, queue: q1, priorityClassName: low}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: low, namespace: ns, annotations: {scheduling.k8s.io/group-name: pg1}}
        spec: {schedulerName: basalt-scheduler, nodeName: n1, priorityClassName: low,
          containers: [{name: c, image: x, resources: {requests: {cpu: "3", memory: 1Gi}}}]}
        status: {phase: Running}
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        metadata: {name: pg2, namespace: ns}
        spec: {minMember: 1, queue: q1, priorityClassName: high}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: high, namespace: ns, annotations: {scheduling.k8s.io/group-name: pg2}}
        spec: {schedulerName: basalt-scheduler, priorityClassName: high,
          containers: [{name: c, image: x, resources: {requests: {cpu: "3", memory: 1Gi}}}]}
        """.replace("CAP", Integer.toString(cap));
  }
}
