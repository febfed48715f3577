package io.basalt.kube.kinds.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.kube.Manifests;
import io.basalt.kube.kinds.Expansion;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobSetExpansionTest {
  private static final String JOBSET = """
      apiVersion: jobset.x-k8s.io/v1alpha2
      kind: JobSet
      metadata: {name: llm, namespace: ml}
      spec:
        replicatedJobs:
        - name: driver
          template:
            spec:
              template: {spec: {containers: [{name: c, image: i}]}}
        - name: workers
          replicas: 2
          template:
            spec:
              parallelism: 2
              completions: 2
              template:
                metadata: {labels: {role: worker}}
                spec: {schedulerName: basalt-scheduler, containers: [{name: c, image: i}]}
      """;

  @Test
  void eachReplicatedJobReplicaIsAnIndexedJobWhosePodsNameTheChain() {
    Manifests m = Workloads.read(JOBSET);
    assertEquals(List.of(), m.errors());
    assertEquals(List.of("llm-driver-0-0-0", "llm-workers-0-0-0", "llm-workers-0-1-0", "llm-workers-1-0-0",
        "llm-workers-1-1-0"), Workloads.podNames(m));
    V1Pod p = Workloads.pod(m, "llm-workers-1-0-0");
    Map<String, String> labels = p.getMetadata().getLabels();
    assertEquals("llm", labels.get("jobset.sigs.k8s.io/jobset-name"));
    assertEquals("workers", labels.get("jobset.sigs.k8s.io/replicatedjob-name"));
    assertEquals("1", labels.get("jobset.sigs.k8s.io/job-index"));
    assertEquals("2", labels.get("jobset.sigs.k8s.io/replicatedjob-replicas"));
    assertEquals("llm-workers-1", labels.get("job-name"));
    assertEquals("worker", labels.get("role"));
    assertEquals("0", p.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index"));
    V1OwnerReference ref = Workloads.owner(p);
    assertEquals("Job", ref.getKind());
    assertEquals("llm-workers-1", ref.getName());
    assertEquals("w.yaml doc 1 (JobSet ml/llm)", m.origin(p));
  }

  @Test
  void theGeneratedJobsAreOwnedByTheJobSet() {
    Expansion x = Workloads.expand(JOBSET);
    assertEquals("JobSet ml/llm", x.origin());
    // the Jobs themselves are not documents (Basalt keeps pods), so check the chain through BatchJobs' owner label
    Manifests m = Workloads.read(JOBSET.replace("replicatedJobs:", "suspend: true\n  replicatedJobs:"));
    assertEquals(List.of(), m.pods());
    assertEquals(3, m.warnings().size(), "each suspended Job says so: " + m.warnings());
    assertEquals("w.yaml doc 1: Job ml/llm-driver-0 is suspended (spec.suspend: true), no pods: Kueue or a user "
        + "would unsuspend it", m.warnings().get(0));
  }
}
