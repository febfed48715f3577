package io.basalt.kube.kinds.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.Manifests;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchJobExpansionTest {
  private static String job(String specLines) {
    return """
        apiVersion: batch/v1
        kind: Job
        metadata: {name: etl, namespace: data}
        spec:
        %s
          template:
            metadata: {labels: {app: etl}}
            spec:
              schedulerName: basalt-scheduler
              containers: [{name: c, image: i}]
        """.formatted(specLines.indent(2).stripTrailing());
  }

  @Test
  void parallelismPodsCappedByCompletionsWithTheJobControllersLabelsAndOwner() {
    Manifests m = Workloads.read(job("parallelism: 5\ncompletions: 3"));
    assertEquals(List.of(), m.errors());
    assertEquals(List.of("etl-0", "etl-1", "etl-2"), Workloads.podNames(m));
    assertEquals(0, m.podGroups().size(), "plain Jobs get no PodGroup here");
    V1Pod p = Workloads.pod(m, "etl-1");
    Map<String, String> labels = p.getMetadata().getLabels();
    assertEquals("etl", labels.get("job-name"));
    assertEquals("etl", labels.get("batch.kubernetes.io/job-name"));
    assertEquals("etl", labels.get("app"));
    V1OwnerReference ref = Workloads.owner(p);
    assertEquals("batch/v1", ref.getApiVersion());
    assertEquals("Job", ref.getKind());
    assertEquals(Boolean.TRUE, ref.getController());
    assertEquals(ref.getUid(), labels.get("controller-uid"));
    assertEquals(ref.getUid(), labels.get("batch.kubernetes.io/controller-uid"));
    assertEquals("basalt-scheduler", p.getSpec().getSchedulerName());
  }

  @Test
  void aDumpHoldingTheJobAndItsPodsKeepsTheExplicitPodsOnce() {
    String explicitBefore = """
        apiVersion: v1
        kind: Pod
        metadata: {name: etl-0, namespace: data, labels: {dumped: "before"}}
        spec: {schedulerName: basalt-scheduler, nodeName: n1, containers: [{name: c, image: i}]}
        """;
    String explicitAfter = explicitBefore.replace("etl-0", "etl-1").replace("before", "after");
    Manifests m = Workloads.read(explicitBefore + "---\n" + job("parallelism: 3") + "---\n" + explicitAfter);
    assertEquals(List.of(), m.errors(), "a controller adopts what exists: no duplicate errors");
    assertEquals(List.of("etl-0", "etl-2", "etl-1"), Workloads.podNames(m));
    assertEquals("before", Workloads.pod(m, "etl-0").getMetadata().getLabels().get("dumped"));
    assertEquals("after", Workloads.pod(m, "etl-1").getMetadata().getLabels().get("dumped"));
    Manifests twice = Workloads.read(explicitBefore + "---\n" + explicitBefore);
    assertEquals(1, twice.errors().size(), "two explicit objects of one name stay an error: " + twice.errors());
  }

  @Test
  void oneByDefaultAndTheDerivedUidIsStableButDistinctPerJob() {
    Manifests m = Workloads.read(job("backoffLimit: 2"));
    assertEquals(List.of("etl-0"), Workloads.podNames(m));
    String uid = Workloads.owner(m.pods().get(0)).getUid();
    assertEquals(uid, Workloads.owner(Workloads.read(job("backoffLimit: 2")).pods().get(0)).getUid());
    String other = Workloads.owner(Workloads.read(job("backoffLimit: 2").replace("name: etl", "name: etl2"))
        .pods().get(0)).getUid();
    assertTrue(!uid.equals(other));
  }

  @Test
  void indexedPodsCarryTheirCompletionIndexAndHostname() {
    Manifests m = Workloads.read(job("parallelism: 2\ncompletions: 4\ncompletionMode: Indexed"));
    assertEquals(List.of("etl-0-0", "etl-1-0"), Workloads.podNames(m));
    V1Pod p = Workloads.pod(m, "etl-1-0");
    assertEquals("1", p.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index"));
    assertEquals("1", p.getMetadata().getLabels().get("batch.kubernetes.io/job-completion-index"));
    assertEquals("etl-1", p.getSpec().getHostname());
  }

  @Test
  void aSuspendedJobStartsNothingAndSaysWhy() {
    Manifests m = Workloads.read(job("parallelism: 2\nsuspend: true"));
    assertEquals(List.of(), m.pods());
    assertEquals(List.of(), m.errors());
    assertEquals(List.of("w.yaml doc 1: Job data/etl is suspended (spec.suspend: true), no pods: Kueue or a user "
        + "would unsuspend it"), m.warnings());
  }
}
