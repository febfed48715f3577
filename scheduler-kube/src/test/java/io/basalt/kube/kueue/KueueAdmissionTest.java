package io.basalt.kube.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.ClusterObjects;
import io.basalt.kube.ManifestReader;
import io.basalt.model.Pod;
import io.basalt.model.Queue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kueue's admission over manifests: queues, flavor order and fungibility, cohorts, FIFO, priorities, warnings. */
class KueueAdmissionTest {
  private static final String FLAVORS = """
      apiVersion: kueue.x-k8s.io/v1beta1
      kind: ResourceFlavor
      metadata: {name: small}
      spec: {nodeLabels: {size: small}}
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata: {name: big}
      spec:
        nodeLabels: {size: big}
        nodeTaints: [{key: big, value: "yes", effect: NoSchedule}]
        tolerations: [{key: big, operator: Exists, effect: NoSchedule}]
      """;

  private static ClusterObjects read(String yaml) {
    return ClusterObjects.from(new ManifestReader().readString("k.yaml", yaml));
  }

  /** A pod of {@code gpus} GPUs in LocalQueue {@code lq} of namespace {@code ns}. */
  private static String pod(String ns, String name, String lq, int gpus, String extraLabels) {
    return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\n  labels: {"
        + "kueue.x-k8s.io/queue-name: " + lq + extraLabels + "}\nspec:\n  schedulerName: basalt-scheduler\n"
        + "  containers:\n  - name: c\n    resources: {requests: {nvidia.com/gpu: " + gpus + "}}\n";
  }

  private static String localQueue(String ns, String name, String cq) {
    return "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: " + name + ", namespace: "
        + ns + "}\nspec: {clusterQueue: " + cq + "}\n";
  }

  private static Pod pod(ClusterObjects c, String key) {
    return c.pods().stream().filter(p -> p.key().equals(key)).findFirst().orElseThrow();
  }

  private static boolean gated(ClusterObjects c, String key) {
    return pod(c, key).constraints().schedulingGates().contains(KueueAdmission.ADMISSION_GATE);
  }

  @Test
  void theFirstFlavorWhoseQuotaHoldsTheWorkloadWinsAndItsPodsGetTheFlavorsNodes() {
    ClusterObjects c = read(FLAVORS + """
        ---
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors:
            - name: small
              resources: [{name: nvidia.com/gpu, nominalQuota: 4}]
            - name: big
              resources: [{name: nvidia.com/gpu, nominalQuota: 8}]
        """ + localQueue("t", "lq", "cq") + pod("t", "a", "lq", 4, "") + pod("t", "b", "lq", 4, "")
        + pod("t", "c", "lq", 8, ""));
    assertEquals(Map.of("size", "small"), pod(c, "t/a").nodeSelector());
    assertEquals("cq", pod(c, "t/a").annotations().get(Pod.QUEUE_NAME_ANNOTATION));
    assertEquals(Map.of("size", "big"), pod(c, "t/b").nodeSelector(), "small is full: the next flavor");
    assertEquals("big", pod(c, "t/b").tolerations().get(0).key(), "the flavor's tolerations come with it");
    assertTrue(gated(c, "t/c"), "8 more fit neither flavor");
    assertTrue(c.errors().stream().anyMatch(e -> e.startsWith("Kueue: Pod t/c is not admitted: no flavor")),
        c.errors().toString());
  }

  @Test
  void whenCanBorrowTryNextFlavorPrefersALaterFlavorWithoutBorrowing() {
    String cq = """
        ---
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          %s
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors:
            - name: small
              resources: [{name: nvidia.com/gpu, nominalQuota: 4, borrowingLimit: 8}]
            - name: big
              resources: [{name: nvidia.com/gpu, nominalQuota: 8}]
        """;
    String rest = localQueue("t", "lq", "cq") + pod("t", "a", "lq", 6, "");
    assertEquals(Map.of("size", "small"), pod(read(FLAVORS + cq.formatted("") + rest), "t/a").nodeSelector(),
        "by default a workload borrows in the first flavor");
    assertEquals(Map.of("size", "big"), pod(read(FLAVORS + cq.formatted("flavorFungibility: {whenCanBorrow: "
        + "TryNextFlavor}") + rest), "t/a").nodeSelector());
  }

  @Test
  void aCohortLendsWhatItsMembersDoNotUseUpToTheirLendingLimits() {
    String yaml = FLAVORS + """
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: team-a}
        spec:
          cohortName: org
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors: [{name: small, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]
        ---
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: team-b}
        spec:
          cohort: org
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors: [{name: small, resources: [{name: nvidia.com/gpu, nominalQuota: 8, lendingLimit: 4}]}]
        """ + localQueue("a", "lq", "team-a") + localQueue("b", "lq", "team-b");
    ClusterObjects fits = read(yaml + pod("a", "w", "lq", 12, ""));
    assertEquals(Map.of("size", "small"), pod(fits, "a/w").nodeSelector(), "8 of its own and 4 lent by team-b");
    ClusterObjects over = read(yaml + pod("a", "w", "lq", 14, ""));
    assertTrue(gated(over, "a/w"));
    assertTrue(over.errors().stream().anyMatch(e -> e.contains("from cohort org, which has 12 unused")),
        over.errors().toString());

    Queue a = over.queues().stream().filter(q -> q.name().equals("team-a")).findFirst().orElseThrow();
    assertEquals("org", a.parent());
    assertEquals(8, a.deserved().get("nvidia.com/gpu"));
    assertNull(a.capability(), "in a cohort without a borrowingLimit: no limit of its own");
    Queue b = over.queues().stream().filter(q -> q.name().equals("team-b")).findFirst().orElseThrow();
    assertEquals(4, b.guarantee().get("nvidia.com/gpu"), "nominal 8 minus lendingLimit 4 is never lent");
    Queue org = over.queues().stream().filter(q -> q.name().equals("org")).findFirst().orElseThrow();
    assertEquals(16, org.deserved().get("nvidia.com/gpu"), "the cohort is the members' parent queue");
  }

  @Test
  void strictFifoHoldsTheQueueBehindItsHeadAndPriorityOrdersAdmission() {
    String cq = """
        ---
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: WorkloadPriorityClass
        metadata: {name: urgent}
        value: 1000
        ---
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          queueingStrategy: %s
          resourceGroups:
          - coveredResources: [nvidia.com/gpu]
            flavors: [{name: small, resources: [{name: nvidia.com/gpu, nominalQuota: 4}]}]
        """;
    String rest = localQueue("t", "lq", "cq") + pod("t", "big", "lq", 8, "") + pod("t", "small", "lq", 2, "")
        + pod("t", "late", "lq", 2, ", kueue.x-k8s.io/priority-class: urgent");
    ClusterObjects strict = read(FLAVORS + cq.formatted("StrictFIFO") + rest);
    assertTrue(!gated(strict, "t/late"), "the urgent workload goes first");
    assertTrue(gated(strict, "t/big"));
    assertTrue(gated(strict, "t/small"), "behind the head that does not fit");
    ClusterObjects bestEffort = read(FLAVORS + cq.formatted("BestEffortFIFO") + rest);
    assertTrue(!gated(bestEffort, "t/small"), "BestEffortFIFO lets a later one that fits past");
  }

  @Test
  void fieldsNotActedOnAreNamedAndBadValuesFailNamingTheField() {
    ClusterObjects c = read(FLAVORS + """
        ---
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: cq}
        spec:
          admissionChecks: [prov]
          preemption: {withinClusterQueue: LowerPriority}
          resourceGroups: []
        ---
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: bad}
        spec: {queueingStrategy: LIFO}
        """);
    assertTrue(c.errors().contains("Kueue: ClusterQueue cq: not supported, ignored: spec.preemption"),
        c.errors().toString());
    assertTrue(c.errors().stream().anyMatch(e -> e.contains("ClusterQueue bad: spec.queueingStrategy: expected "
        + "StrictFIFO or BestEffortFIFO, got 'LIFO'")), c.errors().toString());
  }

  @Test
  void withoutKueueObjectsNothingChanges() {
    ClusterObjects c = read(pod("t", "a", "lq", 4, ""));
    assertEquals(Map.of(), pod(c, "t/a").nodeSelector());
    assertNull(pod(c, "t/a").annotations().get(Pod.QUEUE_NAME_ANNOTATION));
    assertEquals(List.of(), c.errors());
  }
}
