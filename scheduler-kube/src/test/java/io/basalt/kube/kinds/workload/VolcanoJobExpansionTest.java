package io.basalt.kube.kinds.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.Manifests;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VolcanoJobExpansionTest {
  private static final String JOB = """
      apiVersion: batch.volcano.sh/v1alpha1
      kind: Job
      metadata: {name: train, namespace: ml}
      spec:
        minAvailable: 3
        schedulerName: basalt-scheduler
        queue: research
        priorityClassName: high
        networkTopology: {mode: hard, highestTierAllowed: 1}
        tasks:
        - name: master
          replicas: 1
          template:
            metadata:
              labels: {app: demo}
              annotations: {note: kept}
            spec:
              containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]
        - name: worker
          replicas: 3
          minAvailable: 2
          template:
            spec:
              schedulerName: other
              priorityClassName: low
              containers: [{name: c, image: i}]
      """;

  @Test
  void everyTaskReplicaBecomesAPodNamedJobTaskIndexWithVolcanosAnnotations() {
    Manifests m = Workloads.read(JOB);
    assertEquals(List.of(), m.errors());
    assertEquals(List.of("train-master-0", "train-worker-0", "train-worker-1", "train-worker-2"),
        Workloads.podNames(m));
    V1Pod master = Workloads.pod(m, "train-master-0");
    assertEquals("ml", master.getMetadata().getNamespace());
    Map<String, String> a = master.getMetadata().getAnnotations();
    assertEquals("train", a.get("scheduling.k8s.io/group-name"));
    assertEquals("train", a.get("volcano.sh/job-name"));
    assertEquals("master", a.get("volcano.sh/task-spec"));
    assertEquals("research", a.get("volcano.sh/queue-name"));
    assertEquals("kept", a.get("note"));
    assertEquals("demo", master.getMetadata().getLabels().get("app"));
    assertEquals("basalt-scheduler", master.getSpec().getSchedulerName(), "the job's, the template has none");
    assertEquals("high", master.getSpec().getPriorityClassName(), "the job's, the template has none");
    V1Pod worker = Workloads.pod(m, "train-worker-2");
    assertEquals("other", worker.getSpec().getSchedulerName(), "the template's own wins");
    assertEquals("low", worker.getSpec().getPriorityClassName());
    assertEquals("2", worker.getMetadata().getAnnotations().get("volcano.sh/task-index"));
    V1OwnerReference ref = Workloads.owner(worker);
    assertEquals("batch.volcano.sh/v1alpha1", ref.getApiVersion());
    assertEquals("Job", ref.getKind());
    assertEquals("train", ref.getName());
    assertEquals(Boolean.TRUE, ref.getController());
    assertEquals("w.yaml doc 1 (Job ml/train)", m.origin(worker));
  }

  @Test
  void onePodGroupNamedAfterTheJobCarriesMinMemberQueuePriorityAndTaskMinimums() {
    Manifests m = Workloads.read(JOB);
    assertEquals(1, m.podGroups().size());
    V1beta1PodGroup pg = m.podGroups().get(0);
    assertEquals("ml", pg.getMetadata().getNamespace());
    assertEquals("train", pg.getMetadata().getName());
    assertEquals(3, pg.getSpec().minMember());
    assertEquals(Map.of("worker", 2), pg.getSpec().minTaskMember(), "only the task that set minAvailable");
    assertEquals("research", pg.getSpec().queue());
    assertEquals("high", pg.getSpec().priorityClassName());
    assertEquals("Job", pg.getMetadata().getOwnerReferences().get(0).getKind());
    JsonObject doc = Workloads.expand(JOB).documents().get(0);
    assertEquals("{\"mode\":\"hard\",\"highestTierAllowed\":1}",
        doc.getAsJsonObject("spec").get("networkTopology").toString());
  }

  @Test
  void defaultsAreVolcanosWebhooks() {
    Manifests m = Workloads.read("""
        apiVersion: batch.volcano.sh/v1alpha1
        kind: Job
        metadata: {name: d}
        spec:
          tasks:
          - replicas: 2
            template: {spec: {containers: [{name: c, image: i}]}}
          - replicas: 3
            minAvailable: 1
            template: {spec: {containers: [{name: c, image: i}]}}
        """);
    assertEquals(List.of(), m.errors());
    assertEquals(List.of("d-default0-0", "d-default0-1", "d-default1-0", "d-default1-1", "d-default1-2"),
        Workloads.podNames(m));
    V1beta1PodGroup pg = m.podGroups().get(0);
    assertEquals(3, pg.getSpec().minMember(), "2 replicas + task minAvailable 1");
    assertEquals("default", pg.getSpec().queue());
    assertEquals("default", pg.getMetadata().getNamespace());
    assertNull(pg.getSpec().priorityClassName());
    assertEquals("volcano", m.pods().get(0).getSpec().getSchedulerName());
  }

  @Test
  void aJobWithAUidGetsCurrentVolcanosPodGroupNameJobDashUid() {
    Manifests m = Workloads.read("""
        apiVersion: batch.volcano.sh/v1alpha1
        kind: Job
        metadata: {name: u, namespace: ml, uid: 1234-abcd}
        spec:
          tasks: [{name: t, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}]
        """);
    assertEquals("u-1234-abcd", m.podGroups().get(0).getMetadata().getName());
    V1Pod p = m.pods().get(0);
    assertEquals("u-1234-abcd", p.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name"));
    assertEquals("1234-abcd", Workloads.owner(p).getUid());
    assertTrue(m.skipped().isEmpty());
  }
}
