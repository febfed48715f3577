package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.config.ConfLoader;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: under {@code config/capacity-reclaim.conf} a priority-100000 pod was evicted, "preempted by ml/s17
 * (priority 0)". The priority plugin (tier 1) found no lower-priority victim, so, as Volcano combines tiers, tier 2's
 * drf chose among every pod of the queue: a poorer job of priority 0 took a pod of the richer priority-100000 job.
 * Preemption never evicts a pod of higher priority than its preemptor (kube-scheduler's rule, and what Volcano's
 * priority plugin states); pods of equal priority may still go to the poorer job, as drf decides in Volcano.
 */
class PriorityInversionTest {
  private static final String CLUSTER = """
      apiVersion: scheduling.k8s.io/v1
      kind: PriorityClass
      metadata: {name: high}
      value: 100000
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: n1}
      status:
        allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
      ---
      apiVersion: scheduling.volcano.sh/v1beta1
      kind: PodGroup
      metadata: {name: rich, namespace: ml}
      spec: {minMember: 1, PRIORITY}
      status: {phase: Running}
      """ + running("rich-0") + running("rich-1") + """
      ---
      apiVersion: scheduling.volcano.sh/v1beta1
      kind: PodGroup
      metadata: {name: s17, namespace: ml}
      spec: {minMember: 1}
      status: {phase: Inqueue}
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: s17
        namespace: ml
        annotations: {scheduling.k8s.io/group-name: s17}
      spec:
        schedulerName: basalt-scheduler
        containers:
        - {name: c, image: x, resources: {requests: {cpu: "2", memory: 1Gi}}}
      """;

  private static String running(String name) {
    return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: ml\n"
        + "  annotations: {scheduling.k8s.io/group-name: rich}\nspec:\n  schedulerName: basalt-scheduler\n"
        + "  nodeName: n1\n  PODPRIORITY\n  containers:\n"
        + "  - {name: c, image: x, resources: {requests: {cpu: \"2\", memory: 1Gi}}}\nstatus: {phase: Running}\n";
  }

  private static SimulationReport run(String cluster) throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(ConfLoader.load(
        Scenarios.fixture("../config/capacity-reclaim.conf").normalize())), Set.of("basalt-scheduler"), false);
    return sim.run(FixtureSource.fromText("inversion.yaml", cluster));
  }

  @Test
  void aPriorityZeroPodNeverPreemptsAPriority100000Pod() throws Exception {
    SimulationReport r = run(CLUSTER.replace("PRIORITY", "priorityClassName: high")
        .replace("PODPRIORITY", "priorityClassName: high"));
    assertEquals(List.of(), r.evicted(), "a priority-100000 pod preempted by a priority-0 one");
    assertNull(r.binding("ml/s17"));
  }

  @Test
  void equalPriorityStillLetsThePoorerJobTakeItsShare() throws Exception {
    // drf in tier 2 decides between jobs of one priority, as in Volcano: s17 holds nothing, rich holds the node.
    SimulationReport r = run(CLUSTER.replace(", PRIORITY", "").replace("PODPRIORITY", "restartPolicy: Always"));
    assertEquals(1, r.evicted().size(), r.evicted().toString());
    assertEquals("preempted by ml/s17 (priority 0)", r.evicted().get(0).reason());
  }
}
