package io.basalt.kube.kinds.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.Manifests;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Input the controllers or their webhooks would reject: one error naming object and field, no objects, no throw. */
class MalformedWorkloadTest {
  private static void assertError(String yaml, String expected) {
    Manifests m = Workloads.read(yaml);
    assertEquals(List.of("w.yaml doc 1: " + expected), m.errors());
    assertEquals(0, m.pods().size());
    assertEquals(0, m.podGroups().size());
  }

  @Test
  void volcanoJobWithoutTasks() {
    assertError("{apiVersion: batch.volcano.sh/v1alpha1, kind: Job, metadata: {name: j, namespace: ml}, spec: {}}",
        "Job ml/j: spec.tasks: no tasks: a Volcano Job needs at least one");
  }

  @Test
  void replicasNegativeOrNotANumber() {
    String job = """
        apiVersion: batch.volcano.sh/v1alpha1
        kind: Job
        metadata: {name: j, namespace: ml}
        spec:
          tasks:
          - {name: a, replicas: 1, template: {spec: {containers: [{name: c}]}}}
          - {name: b, replicas: REPLICAS, template: {spec: {containers: [{name: c}]}}}
        """;
    assertError(job.replace("REPLICAS", "-1"), "Job ml/j: spec.tasks[1].replicas: must not be negative (-1)");
    assertError(job.replace("REPLICAS", "'3'"), "Job ml/j: spec.tasks[1].replicas: not a number (\"3\")");
    assertError(job.replace("REPLICAS", "1.5"),
        "Job ml/j: spec.tasks[1].replicas: not a whole number of at most 2^31-1 (1.5)");
  }

  /** Hardening II: a billion replicas hung simulate or ran its heap out. */
  @Test
  void hugeCountsAreRefusedNamingTheFieldAndQuickly() {
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> {
      assertError("{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {parallelism: 1000000000, "
          + "template: {spec: {containers: [{name: c}]}}}}",
          "Job default/j: spec.parallelism: 1000000000 pods: more than the 100000 one workload is expanded to");
      assertError("{apiVersion: batch.volcano.sh/v1alpha1, kind: Job, metadata: {name: j, namespace: ml}, spec: "
          + "{tasks: [{name: a, replicas: 200000, template: {spec: {containers: [{name: c}]}}}]}}",
          "Job ml/j: spec.tasks[0].replicas: 200000 pods: more than the 100000 one workload is expanded to");
      assertError("{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {parallelism: -1e999999999, "
          + "template: {spec: {containers: [{name: c}]}}}}",
          "Job default/j: spec.parallelism: must not be negative (-1E+999999999)");
      assertError("{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, metadata: {name: s}, spec: {replicatedJobs: "
          + "[{name: w, replicas: 1000, template: {spec: {parallelism: 1000, completions: 1000, template: {spec: "
          + "{containers: [{name: c}]}}}}}]}}",
          "JobSet default/s: spec.replicatedJobs[0].replicas: 1000 Jobs of up to 1000 pods: more than the 100000 one "
              + "workload is expanded to");
    });
  }

  /** WorkloadCountFuzzTest seed 35: counts allowed one by one made 100,000 pods before the total was refused. */
  @Test
  void countsAddingUpPastTheBoundAreRefusedBeforeAnyPodIsMade() {
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> {
      assertError("{apiVersion: batch.volcano.sh/v1alpha1, kind: Job, metadata: {name: j, namespace: ml}, spec: "
          + "{tasks: [{name: a, replicas: 60000, template: {spec: {containers: [{name: c}]}}}, {name: b, replicas: "
          + "60000, template: {spec: {containers: [{name: c}]}}}]}}",
          "Job ml/j: spec.tasks[1].replicas: the tasks' replicas add up to 120000 pods: more than the 100000 one "
              + "workload is expanded to");
      assertError("{apiVersion: kubeflow.org/v1, kind: PyTorchJob, metadata: {name: p, namespace: ml}, spec: "
          + "{pytorchReplicaSpecs: {Master: {replicas: 1, template: {spec: {containers: [{name: c}]}}}, Worker: "
          + "{replicas: 100000, template: {spec: {containers: [{name: c}]}}}}}}",
          "PyTorchJob ml/p: spec.pytorchReplicaSpecs.Worker.replicas: the replica specs' replicas add up to 100001 "
              + "pods: more than the 100000 one workload is expanded to");
    });
  }

  @Test
  void aBadValueIsQuotedOnOneShortLine() {
    String nested = "[" + "[x, x], ".repeat(500) + "[x, x]]";
    Manifests m = Workloads.read("{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {completions: "
        + nested + ", template: {spec: {containers: [{name: c}]}}}}");
    String error = m.errors().get(0);
    assertTrue(error.startsWith("w.yaml doc 1: Job default/j: spec.completions: not a number ([[\"x\",\"x\"]"),
        error);
    assertTrue(error.endsWith("...") && error.length() < 300, error);
  }

  @Test
  void templateWithoutContainers() {
    assertError("""
        apiVersion: batch.volcano.sh/v1alpha1
        kind: Job
        metadata: {name: j, namespace: ml}
        spec:
          tasks: [{name: a, replicas: 1, template: {spec: {containers: []}}}]
        """, "Job ml/j: spec.tasks[0].template.spec.containers: a pod template needs at least one container");
    assertError("{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {}}}}",
        "Job default/j: spec.template.spec.containers: a pod template needs at least one container");
  }

  @Test
  void minAvailableAboveTheReplicas() {
    assertError("""
        apiVersion: batch.volcano.sh/v1alpha1
        kind: Job
        metadata: {name: j, namespace: ml}
        spec:
          minAvailable: 5
          tasks: [{name: a, replicas: 2, template: {spec: {containers: [{name: c}]}}}]
        """, "Job ml/j: spec.minAvailable: 5 is greater than the tasks' replicas 2");
  }

  @Test
  void otherKindsAndShapes() {
    assertError("{apiVersion: batch/v1, kind: Job, metadata: {namespace: ml}, spec: {}}",
        "Job ml/<unnamed>: metadata.name: missing: the controller names every object after it");
    assertError("{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {completionMode: Indexed, "
        + "parallelism: 2, template: {spec: {containers: [{name: c}]}}}}",
        "Job default/j: spec.completions: required when completionMode is Indexed");
    assertError("{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, metadata: {name: s}, spec: {replicatedJobs: "
        + "[{name: w, template: {spec: {template: {spec: {containers: []}}}}}]}}",
        "JobSet default/s: spec.replicatedJobs[0].template: spec.template.spec.containers: a pod template needs at "
            + "least one container");
    assertError("{apiVersion: kubeflow.org/v1, kind: PyTorchJob, metadata: {name: p}, spec: {pytorchReplicaSpecs: "
        + "{Worker: {replicas: x, template: {spec: {containers: [{name: c}]}}}}}}",
        "PyTorchJob default/p: spec.pytorchReplicaSpecs.Worker.replicas: not a number (\"x\")");
    assertError("{apiVersion: batch.volcano.sh/v1alpha1, kind: Job, metadata: {name: j}, spec: {tasks: 3}}",
        "Job default/j: spec.tasks: expected a list");
  }

  @Test
  void unknownWorkloadKindsStaySkipped() {
    Manifests m = Workloads.read("{apiVersion: kubeflow.org/v1, kind: TFJob, metadata: {name: t}}");
    assertEquals(List.of("w.yaml doc 1: skipped kind TFJob kubeflow.org/v1 't'"), m.skipped());
    assertEquals(null, Workloads.expand("{apiVersion: batch/v2, kind: Job, metadata: {name: t}}"));
  }
}
