package io.basalt.kube.kinds.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.kube.Manifests;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrainingJobExpansionTest {
  private static final String PYTORCH = """
      apiVersion: kubeflow.org/v1
      kind: PyTorchJob
      metadata: {name: bert, namespace: ml}
      spec:
        runPolicy:
          schedulingPolicy: {minAvailable: 2, queue: research, priorityClass: high}
        pytorchReplicaSpecs:
          Master:
            replicas: 1
            template:
              spec:
                schedulerName: volcano
                containers: [{name: pytorch, image: i}]
          Worker:
            replicas: 2
            template:
              spec:
                containers: [{name: pytorch, image: i}]
      """;

  @Test
  void pyTorchReplicasBecomePodsNamedJobTypeIndexWithTheOperatorsLabels() {
    Manifests m = Workloads.read(PYTORCH);
    assertEquals(List.of(), m.errors());
    assertEquals(List.of("bert-master-0", "bert-worker-0", "bert-worker-1"), Workloads.podNames(m));
    V1Pod w = Workloads.pod(m, "bert-worker-1");
    Map<String, String> labels = w.getMetadata().getLabels();
    assertEquals("bert", labels.get("training.kubeflow.org/job-name"));
    assertEquals("worker", labels.get("training.kubeflow.org/replica-type"));
    assertEquals("1", labels.get("training.kubeflow.org/replica-index"));
    assertNull(labels.get("training.kubeflow.org/job-role"));
    assertEquals("master", Workloads.pod(m, "bert-master-0").getMetadata().getLabels()
        .get("training.kubeflow.org/job-role"));
    assertEquals("PyTorchJob", Workloads.owner(w).getKind());
    assertEquals("kubeflow.org/v1", Workloads.owner(w).getApiVersion());
  }

  @Test
  void aGangSchedulerInATemplateMeansTheOperatorsPodGroupNamedAfterTheJob() {
    Manifests m = Workloads.read(PYTORCH);
    V1beta1PodGroup pg = m.podGroups().get(0);
    assertEquals("bert", pg.getMetadata().getName());
    assertEquals(2, pg.getSpec().minMember());
    assertEquals("research", pg.getSpec().queue());
    assertEquals("high", pg.getSpec().priorityClassName());
    V1Pod w = Workloads.pod(m, "bert-worker-0");
    assertEquals("bert", w.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name"));
    assertEquals("volcano", w.getSpec().getSchedulerName(), "filled with the gang scheduler");
    // without minAvailable: every replica
    Manifests all = Workloads.read(PYTORCH.replace("minAvailable: 2, ", ""));
    assertEquals(3, all.podGroups().get(0).getSpec().minMember());
  }

  @Test
  void aSchedulingPolicyWithoutAGangSchedulerIsNotedAndMakesNoPodGroup() {
    Manifests m = Workloads.read(PYTORCH.replace("schedulerName: volcano", "hostNetwork: false"));
    assertEquals(0, m.podGroups().size());
    assertEquals(3, m.pods().size());
    Map<String, String> annotations = m.pods().get(0).getMetadata().getAnnotations();
    assertNull(annotations == null ? null : annotations.get("scheduling.k8s.io/group-name"));
    assertEquals(1, m.warnings().size());
    assertEquals("w.yaml doc 1: PyTorchJob ml/bert: spec.runPolicy.schedulingPolicy applies only when the training "
        + "operator runs with gang scheduling, and no replica template names a gang scheduler: no PodGroup",
        m.warnings().get(0));
  }

  @Test
  void mpiJobsLauncherIsJobDashLauncherAndWorkersAreIndexed() {
    Manifests m = Workloads.read("""
        apiVersion: kubeflow.org/v1
        kind: MPIJob
        metadata: {name: hvd}
        spec:
          mpiReplicaSpecs:
            Launcher:
              template: {spec: {containers: [{name: l, image: i}]}}
            Worker:
              replicas: 2
              template: {spec: {containers: [{name: w, image: i}]}}
        """);
    assertEquals(List.of(), m.errors());
    assertEquals(List.of("hvd-launcher", "hvd-worker-0", "hvd-worker-1"), Workloads.podNames(m));
    assertEquals("launcher", Workloads.pod(m, "hvd-launcher").getMetadata().getLabels()
        .get("training.kubeflow.org/replica-type"));
    assertEquals("master", Workloads.pod(m, "hvd-launcher").getMetadata().getLabels()
        .get("training.kubeflow.org/job-role"));
    assertEquals(0, m.podGroups().size());
    assertEquals(List.of(), m.warnings());
  }
}
