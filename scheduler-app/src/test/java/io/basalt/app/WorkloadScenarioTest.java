package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code test-fixtures/workloads/}: the seeds' workload YAML, as written, expanded and scheduled. */
class WorkloadScenarioTest {
  @Test
  void theSeedsWorkloadsExpandAndEveryGangRunsWhole() throws Exception {
    SimulationReport r = Scenarios.run("workloads");
    assertEquals(List.of(), r.warnings(), "no kind skipped, nothing malformed");
    assertEquals(18, r.bindings().size(), "4 + 4 + 8 + 2 pods: " + r.pending());
    for (String pod : List.of("ml-research/pytorch-distributed-master-0", "ml-research/pytorch-distributed-worker-2",
        "ml-research/distributed-training-3", "default/pytorch-demo-worker-6", "default/job-demo-gpu-vectoradd-1")) {
      assertNotNull(r.binding(pod), pod + " bound");
    }
    SimulationReport.Group g = r.podGroup("ml-research/pytorch-distributed");
    assertEquals("Running", g.phase());
    assertEquals(4, g.minMember());
    assertEquals(4, g.scheduled());
    assertEquals(8, r.podGroup("default/pytorch-demo").minMember(), "no minAvailable: every replica");
    assertEquals(1, r.podGroup("default/job-demo").minMember());
    assertEquals(1, r.queues().stream().filter(q -> q.name().equals("ml-research-queue")
        && q.allocated().getOrDefault("nvidia.com/gpu", "0").equals("32")).count(),
        "distributed-training's Kueue label put its 4 x 8 GPUs in its team's queue: " + r.queues());
    // each 8-GPU pod of pytorch-demo takes a whole MetaX node
    assertEquals(8, r.bindings().stream().filter(b -> b.pod().startsWith("default/pytorch-demo-"))
        .map(SimulationReport.Bound::node).distinct().count());
  }

  @Test
  void theFourPodVolcanoJobWaitsWholeWhenOnlyThreeGpusExist() throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(ConfLoader.defaultConf()), Set.of("basalt-scheduler"), false);
    SimulationReport r = sim.run(FixtureSource.fromPaths(List.of(
        Scenarios.fixture("workloads/too-few-gpus/nodes.yaml"),
        Scenarios.fixture("workloads/volcano-job-pytorch-distributed.yaml"))));
    assertEquals(0, r.bindings().size(), "not one member may start");
    assertEquals(4, r.pending().size());
    assertTrue(r.pendingPod("ml-research/pytorch-distributed-master-0").reason().contains("tasks in gang unschedulable"),
        r.pendingPod("ml-research/pytorch-distributed-master-0").reason());
    SimulationReport.Group g = r.podGroup("ml-research/pytorch-distributed");
    assertEquals(4, g.minMember());
    assertEquals(0, g.scheduled());
  }

  @Test
  void aJobsGangSizeAnnotationHoldsItsPodsUntilAllFit() throws Exception {
    SimulationReport three = Scenarios.run(List.of("implicit-gangs/nodes-3.yaml",
        "implicit-gangs/distributed-training-gang.yaml"));
    assertEquals(List.of(), three.bindings(), "4 x 8 GPUs on three 8-GPU nodes: none of the gang starts");
    assertEquals(4, three.pending().size());
    SimulationReport.Group g = three.podGroups().get(0);
    assertEquals(4, g.minMember());
    assertEquals("Job ml-research/distributed-training", g.from());

    SimulationReport four = Scenarios.run(List.of("implicit-gangs/nodes-3.yaml", "implicit-gangs/node-4.yaml",
        "implicit-gangs/distributed-training-gang.yaml"));
    assertEquals(4, four.bindings().size(), "a fourth node: all four start together");
  }

  @Test
  void withoutTheAnnotationAJobsPodsStartAsTheyFitAndTheLastSaysWhyItWaits() throws Exception {
    SimulationReport r = Scenarios.run(List.of("implicit-gangs/nodes-3.yaml",
        "workloads/batch-job-distributed-training.yaml"));
    assertEquals(3, r.bindings().size());
    assertEquals(1, r.pending().size());
    assertTrue(r.pending().get(0).reason().contains("nvidia.com/gpu") || r.pending().get(0).reason().contains("queue"),
        r.pending().get(0).reason());
    assertEquals(1, r.podGroups().get(0).minMember(), "no size given: a group of one, as before");
  }
}
