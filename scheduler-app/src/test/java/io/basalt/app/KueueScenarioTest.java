package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.kube.kueue.KueueMode;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code test-fixtures/kueue/}: seed 000's Kueue objects and Job, seed 003's suspended Job, in both Kueue modes
 * (see docs/KUEUE.md).
 */
class KueueScenarioTest {
  @Test
  void theSeedsJobIsOneGangOfFourThatStartsNothingOnThreeNodes() throws Exception {
    SimulationReport r = Scenarios.run(List.of("kueue/00-kueue-objects.yaml", "kueue/20-distributed-training.yaml",
        "kueue/three-nodes"));
    assertEquals(List.of(), r.bindings(), "4 x 8 GPUs on three 8-GPU nodes: not one pod starts");
    assertEquals(4, r.pending().size());
    SimulationReport.Group g = r.podGroups().get(0);
    assertEquals(4, g.minMember(), "Kueue admits a Job whole: one gang of all its pods");
    assertEquals("Job ml-research/distributed-training", g.from());
    String reason = r.pendingPod("ml-research/distributed-training-0").reason();
    assertTrue(reason.contains("PodGroup ml-research/" + g.name().substring("ml-research/".length()))
        && reason.contains("queue gpu-cluster"), "the gang and its ClusterQueue are named: " + reason);
  }

  @Test
  void eachJobTakesTheFirstFlavorWhoseQuotaHoldsItAndRunsOnThatFlavorsNodes() throws Exception {
    SimulationReport r = Scenarios.run("kueue");
    for (String pod : List.of("ml-research/distributed-training-0", "ml-research/distributed-training-3",
        "ml-production/finetune-0", "ml-production/finetune-1")) {
      assertNotNull(r.binding(pod), pod + " bound: " + r.pending());
      assertTrue(r.binding(pod).node().startsWith("a100-"), pod + " on an A100 node: " + r.binding(pod));
    }
    for (String pod : List.of("ml-research/eval-sweep-0", "ml-research/eval-sweep-1")) {
      assertNotNull(r.binding(pod), pod + " bound");
      assertTrue(r.binding(pod).node().startsWith("h100-"),
          "A100's 32 + 16 are taken: the next flavor, although an A100 node is free: " + r.binding(pod));
    }
    assertEquals(8, r.bindings().size());
    SimulationReport.Pending ablation = r.pendingPod("ml-research/ablation-0");
    assertNotNull(ablation, "no flavor's quota holds it");
    assertTrue(ablation.reason().contains("kueue.x-k8s.io/admission"), ablation.reason());
    assertTrue(r.warnings().contains("Kueue: Job ml-research/ablation is not admitted: no flavor of ClusterQueue "
        + "gpu-cluster fits cpu, memory, nvidia.com/gpu: nvidia-a100: nvidia.com/gpu 56 would exceed 48 (nominal 32 "
        + "+ borrowing 16, 48 in use); nvidia-h100: nvidia.com/gpu 24 would exceed 16 (nominal 16, 16 in use)"),
        String.join("\n", r.warnings()));
    assertTrue(r.warnings().contains("Kueue: ClusterQueue gpu-cluster: not supported, ignored: spec.preemption"),
        "an unsupported field is named: " + r.warnings());
    assertEquals("64", r.queue("gpu-cluster").allocated().get("nvidia.com/gpu"),
        "every admitted Job counts in its ClusterQueue's queue: " + r.queues());
  }

  @Test
  void alongsideKueueOnlyUnsuspendedWorkloadsRunEachAsOneGangUnderNoSecondQuota() throws Exception {
    SimulationReport r = simulate(KueueMode.ALONGSIDE, "kueue");
    assertEquals(9, r.bindings().size(), "Kueue already admitted them; Basalt enforces no quota: " + r.pending());
    assertNull(r.queue("gpu-cluster"), "no Kueue quota as a Basalt queue: " + r.queues());
    assertEquals(4, r.podGroups().stream().filter(g -> g.from().equals("Job ml-research/distributed-training"))
        .findFirst().orElseThrow().minMember());

    SimulationReport dws = simulate(KueueMode.ALONGSIDE, "kueue/dws");
    assertEquals(List.of(), dws.bindings(), "a suspended Job waits for Kueue");
    assertTrue(dws.warnings().contains("Kueue: Job default/sample-job stays suspended: Kueue unsuspends it when it "
        + "admits it"), dws.warnings().toString());
  }

  @Test
  void insteadOfKueueASuspendedJobStartsWhenItsClusterQueueHoldsIt() throws Exception {
    SimulationReport r = Scenarios.run("kueue/dws");
    assertNotNull(r.binding("default/sample-job-0"), "admitted and unsuspended: " + r.pending());
    assertTrue(r.warnings().stream().noneMatch(w -> w.contains("admissionChecks") || w.contains("Provisioning")),
        "the provisioning check passes at once: the cluster holds the Job now: " + r.warnings());
  }

  @Test
  void insteadOfKueueAJobTheClusterCannotHoldWaitsForItsProvisioningRequest() throws Exception {
    SimulationReport r = Scenarios.run("kueue/dws-provisioning");
    assertEquals(List.of(), r.bindings());
    assertTrue(r.warnings().contains("Kueue: Job default/sample-job stays suspended: admitted by quota in ClusterQueue "
        + "dws-cluster-queue, but the cluster cannot hold its 1 pods now: it waits for ProvisioningRequest "
        + "default/sample-job-dws-prov-1 (class queued-provisioning.gke.io) to be Provisioned (run live, Basalt "
        + "creates it; no autoscaler runs in simulate)"), String.join("\n", r.warnings()));
    SimulationReport.Pending p = r.pendingPod("default/sample-job-0");
    assertNotNull(p, "held behind Kueue's admission gate, not reported unschedulable");
    assertTrue(p.reason().contains("kueue.x-k8s.io/admission"), p.reason());
  }

  @Test
  void insteadOfKueueAJobWhoseRequestIsProvisionedConsumesItOnTheNewNode() throws Exception {
    SimulationReport r = Scenarios.run(List.of("kueue/dws-provisioning", "kueue/dws-provisioning/provisioned"));
    assertNotNull(r.binding("default/sample-job-0"), r.pending() + "\n" + r.warnings());
    assertEquals("dws-gpu-1", r.binding("default/sample-job-0").node());
  }

  @Test
  void withoutKueuePodsConsumingARequestWaitUntilItIsProvisioned() throws Exception {
    SimulationReport missing = Scenarios.run("kueue/dws-no-kueue");
    assertEquals(List.of(), missing.bindings(), "the node would hold it, but its request does not exist");
    assertTrue(missing.warnings().stream().anyMatch(w -> w.startsWith("pod default/pi-") && w.endsWith(
        "waits for ProvisioningRequest default/pi-request to be Provisioned: it does not exist")), missing.warnings()
        .toString());
    SimulationReport pending = Scenarios.run(List.of("kueue/dws-no-kueue", "kueue/dws-no-kueue/pending"));
    assertEquals(List.of(), pending.bindings());
    assertTrue(pending.warnings().stream().anyMatch(w -> w.endsWith("to be Provisioned: it is pending")),
        pending.warnings().toString());
    SimulationReport provisioned = Scenarios.run(List.of("kueue/dws-no-kueue", "kueue/dws-no-kueue/provisioned"));
    assertEquals(1, provisioned.bindings().size(), provisioned.pending().toString());
    assertEquals("dws-gpu-1", provisioned.bindings().get(0).node());
  }

  @Test
  void aSuspendedKueueJobWithoutKueueObjectsStartsNothing() throws Exception {
    SimulationReport r = Scenarios.run(List.of("kueue/dws/10-node.yaml", "kueue/dws/20-sample-job.yaml"));
    assertEquals(List.of(), r.bindings());
    assertEquals(List.of(), r.pending());
    assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("Kueue: Job default/sample-job stays suspended")),
        r.warnings().toString());
  }

  @Test
  void aRequiredTopologyLevelPlacesTheGangInOneDomainOfThatLevel() throws Exception {
    SimulationReport r = Scenarios.run("kueue/tas", """
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins:
          - name: priority
          - name: gang
        - plugins:
          - name: predicates
          - name: proportion
          - name: network-topology-aware
          - name: binpack
        """);
    assertEquals(List.of(), r.warnings());
    assertEquals("b-2/sb-4/node-7", r.binding("default/tas-job-0").domain(),
        "the only subblock with two free nodes: " + r.bindings());
    assertEquals("b-2/sb-4/node-8", r.binding("default/tas-job-1").domain());
  }

  private static SimulationReport simulate(KueueMode mode, String fixture) throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(ConfLoader.defaultConf()), Set.of("basalt-scheduler"), false);
    return sim.run(FixtureSource.fromPaths(List.of(Scenarios.fixture(fixture))).withKueue(mode));
  }
}
