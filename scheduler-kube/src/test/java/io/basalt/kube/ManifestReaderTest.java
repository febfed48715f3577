package io.basalt.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestReaderTest {
  private static final String METAX = "metax-tech.com/gpu";
  private static final Instant BASE = Instant.parse("2024-01-01T00:00:00Z");

  private final ManifestReader reader = new ManifestReader();

  @Test
  void readsEveryKeptKindAndReportsSkippedOnes() throws IOException {
    Manifests m = reader.readString("cluster.yaml", resource("cluster.yaml"));

    assertEquals(1, m.namespaces().size());
    assertEquals("ml-research", m.namespaces().get(0).getMetadata().getName());
    assertEquals(2, m.priorityClasses().size());
    assertEquals(1, m.queues().size());
    assertEquals(1, m.nodes().size());
    assertEquals(1, m.podGroups().size());
    assertEquals(2, m.pods().size());
    assertEquals(List.of(
        "cluster.yaml doc 6: skipped kind TFJob kubeflow.org/v1 'ml-research/tf-demo'",
        "cluster.yaml doc 9: skipped kind Deployment apps/v1 'ml-research/dashboard'"), m.skipped());
    assertEquals(List.of(), m.errors());
    assertEquals(List.of(), m.warnings());
    assertEquals("cluster.yaml doc 8", m.origin(m.pods().get(0)));
  }

  @Test
  void namespacesKeepTheirLabelsAndTheNameLabelKubernetesSets() throws IOException {
    ClusterObjects c = reader.readString("cluster.yaml", resource("cluster.yaml")).toModel();
    assertEquals(List.of(new io.basalt.model.Namespace("ml-research", java.util.Map.of("team", "research",
        "gpu-tier", "high-priority", "kubernetes.io/metadata.name", "ml-research"))), c.namespaces());
  }

  @Test
  void fixtureConvertsToTheEngineModel() throws IOException {
    ClusterObjects c = reader.readString("cluster.yaml", resource("cluster.yaml")).toModel();

    assertEquals(List.of(), c.errors());
    Node node = c.nodes().get(0);
    assertEquals(127500, node.allocatable().get("cpu"));
    assertEquals(1000L << 30, node.allocatable().get("memory"));
    assertEquals(8, node.allocatable().get(METAX));
    assertEquals(110, node.allocatable().get("pods"));
    assertTrue(node.taints().get(0).blocksScheduling());

    Pod worker = c.pods().get(0);
    assertEquals("ml-research/pytorch-demo-worker-0", worker.uid());
    assertEquals("pytorch-demo", worker.groupName());
    assertEquals(1500, worker.request().get("cpu"));
    assertEquals(4L << 30, worker.request().get("memory"));
    assertEquals(8, worker.request().get(METAX));
    assertTrue(worker.tolerations().get(0).tolerates(node.taints().get(0)));
    Pod sample = c.pods().get(1);
    assertEquals("default/sample-pod", sample.key());
    assertEquals(2, sample.request().get(METAX));

    PodGroup pg = c.podGroups().get(0);
    assertEquals(2, pg.minMember());
    assertEquals(Map.of("worker", 2), pg.minTaskMember());
    assertEquals("research", pg.queue());
    assertEquals(16, pg.minResources().get(METAX));
    assertEquals("Inqueue", pg.phase());

    Queue q = c.queues().get(0);
    assertEquals(4, q.weight());
    assertFalse(q.reclaimable());
    assertEquals(16, q.capability().get(METAX));
    assertEquals(64000, q.capability().get("cpu"));
    assertEquals(8, q.guarantee().get(METAX));
    assertNull(q.deserved());
    assertEquals(Map.of("owner", "team-a"), q.annotations());

    assertEquals(List.of(new PriorityClass("ml-high", 100000, false, "PreemptLowerPriority"),
        new PriorityClass("ml-low", 1000, false, "Never")), c.priorityClasses());
  }

  @Test
  void missingCreationTimestampsFollowDocumentOrder() throws IOException {
    ClusterObjects c = reader.readString("cluster.yaml", resource("cluster.yaml")).toModel();

    // positions count every object from 0: the worker pod is doc 8 (position 7), sample-pod doc 10 (position 9)
    assertEquals(BASE.plusSeconds(7), c.pods().get(0).creationTimestamp());
    assertEquals(BASE.plusSeconds(9), c.pods().get(1).creationTimestamp());
    assertEquals(BASE.plusSeconds(6), c.podGroups().get(0).creationTimestamp());
  }

  @Test
  void explicitCreationTimestampIsKeptAndBaseIsConfigurable() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata:
          name: old
          creationTimestamp: 2023-06-01T12:00:00.123+02:00
        spec:
          containers: [{name: c}]
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: new
          creationTimestamp: "2023-06-02T00:00:00Z"
        spec:
          containers: [{name: c}]
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: fixture}
        spec:
          containers: [{name: c}]
        """;
    Instant base = Instant.parse("2030-01-01T00:00:00Z");

    List<Pod> pods = new ManifestReader(base).readString(yaml).toModel().pods();

    assertEquals(Instant.parse("2023-06-01T10:00:00.123Z"), pods.get(0).creationTimestamp());
    assertEquals(Instant.parse("2023-06-02T00:00:00Z"), pods.get(1).creationTimestamp());
    assertEquals(base.plusSeconds(2), pods.get(2).creationTimestamp());
  }

  @Test
  void objectsWithoutMetadataGetOneWithTheirCreationTime() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        spec: {containers: [{name: c}]}
        ---
        apiVersion: v1
        kind: Node
        metadata: ~
        ---
        apiVersion: v1
        kind: Namespace
        ---
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        value: 1
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: Queue
        metadata: null
        """;

    Manifests m = reader.readString("m.yaml", yaml);

    List<V1ObjectMeta> metas = List.of(m.pods().get(0).getMetadata(), m.nodes().get(0).getMetadata(),
        m.namespaces().get(0).getMetadata(), m.priorityClasses().get(0).getMetadata(),
        m.podGroups().get(0).getMetadata(), m.queues().get(0).getMetadata());
    for (int i = 0; i < metas.size(); i++) {
      OffsetDateTime created = OffsetDateTime.ofInstant(BASE.plusSeconds(i), ZoneOffset.UTC);
      assertEquals(new V1ObjectMeta().creationTimestamp(created), metas.get(i));
    }
    assertEquals(List.of(), m.errors());
    assertEquals(List.of(), m.warnings());
  }

  @Test
  void bareYamlNumbersReachQuantitiesExactly() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: numbers}
        spec:
          containers:
          - name: c
            resources:
              requests:
                cpu: 1.5
                memory: 4Gi
                nvidia.com/gpu: 8
                example.com/a: 1e3
                example.com/b: 0.000000001
                example.com/c: 12345678901234567
              limits:
                example.com/d: "500m"
          - name: d
            resources:
              requests: {cpu: 0.1, memory: 100Mi}
        """;

    Manifests m = reader.readString(yaml);
    Map<String, Quantity> requests = m.pods().get(0).getSpec().getContainers().get(0).getResources().getRequests();
    Pod p = m.toModel().pods().get(0);

    assertEquals("1500m", requests.get("cpu").toSuffixedString());
    assertEquals("8", requests.get("nvidia.com/gpu").toSuffixedString());
    assertEquals(1600, p.request().get("cpu"));
    assertEquals((4L << 30) + (100L << 20), p.request().get("memory"));
    assertEquals(8, p.request().get("nvidia.com/gpu"));
    assertEquals(1000, p.request().get("example.com/a"));
    assertEquals(1, p.request().get("example.com/b"), "a nano-unit rounds up to one whole unit");
    assertEquals(12345678901234567L, p.request().get("example.com/c"), "no double rounding on big integers");
    assertEquals(1, p.request().get("example.com/d"));
  }

  @Test
  void clientJavaYamlAgreesOnQuantitiesButRejectsUnknownFields() {
    // Why ManifestReader does not use io.kubernetes.client.util.Yaml: numbers and times are fine there...
    String known = """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, creationTimestamp: 2024-05-01T10:00:00Z}
        spec:
          containers:
          - name: c
            resources: {limits: {nvidia.com/gpu: 8, cpu: 1.5}}
        """;
    V1Pod viaYaml = Yaml.loadAs(known, V1Pod.class);
    V1Pod viaReader = reader.readString(known).pods().get(0);
    assertEquals(viaYaml.getSpec().getContainers().get(0).getResources().getLimits(),
        viaReader.getSpec().getContainers().get(0).getResources().getLimits());
    assertEquals(viaYaml.getMetadata().getCreationTimestamp(), viaReader.getMetadata().getCreationTimestamp());

    // ...but one field it does not know (a typo, a newer Kubernetes) fails the whole object.
    String typo = known.replace("spec:\n", "spec:\n  nodeSelecter: {pool: a}\n");
    assertThrows(RuntimeException.class, () -> Yaml.loadAs(typo, V1Pod.class));
    Manifests m = reader.readString("typo.yaml", typo);
    assertEquals(1, m.pods().size());
    assertEquals(List.of("typo.yaml doc 1: Pod default/p: unknown field 'nodeSelecter' in V1PodSpec (ignored)"),
        m.warnings());
  }

  @Test
  void containerWithoutNameIsReadWithAWarning() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
          - resources: {limits: {nvidia.com/gpu: 1}}
        """;

    Manifests m = reader.readString("f.yaml", yaml);

    assertEquals(1, m.toModel().pods().get(0).request().get("nvidia.com/gpu"));
    assertEquals(List.of("f.yaml doc 1: Pod default/p: missing field 'name' that Kubernetes requires"),
        m.warnings());
  }

  @Test
  void malformedDocumentNamesFileDocumentAndLine() {
    String yaml = """
        apiVersion: v1
        kind: Namespace
        metadata: {name: a}
        ---
        apiVersion: v1
        kind: Namespace
        metadata: {name: b}
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: broken
           namespace: x
        """;

    ManifestException e = assertThrows(ManifestException.class, () -> reader.readString("bad.yaml", yaml));

    assertEquals("bad.yaml", e.source());
    assertEquals(3, e.document());
    assertTrue(e.getMessage().startsWith("bad.yaml doc 3: malformed YAML at line 13, column "), e.getMessage());
  }

  @Test
  void unclosedFlowSequenceInTheLastDocument() {
    ManifestException e = assertThrows(ManifestException.class,
        () -> reader.readString("x.yaml", "a: 1\n---\nb: [1, 2\n"));

    assertEquals(2, e.document());
    assertTrue(e.getMessage().startsWith("x.yaml doc 2: malformed YAML"), e.getMessage());
  }

  @Test
  void duplicateKeyIsMalformed() {
    String yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nmetadata: {name: q}\n";

    ManifestException e = assertThrows(ManifestException.class, () -> reader.readString("dup.yaml", yaml));

    assertEquals("dup.yaml doc 1: malformed YAML at line 4: duplicate key 'metadata'", e.getMessage());
  }

  @Test
  void badQuantityNamesPodAndFieldAndTheRestStillLoads() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: p1, namespace: team-a}
        spec:
          containers:
          - name: c
            resources:
              requests: {cpu: abc}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p2, namespace: team-a}
        spec:
          containers:
          - name: c
            resources: {limits: {metax-tech.com/gpu: lots}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: ok, namespace: team-a}
        spec:
          containers: [{name: c}]
        """;

    Manifests m = reader.readString("pods.yaml", yaml);

    assertEquals(List.of(
        "pods.yaml doc 1: Pod team-a/p1: spec.containers[0].resources.requests.cpu: 'abc' is not a Kubernetes quantity",
        "pods.yaml doc 2: Pod team-a/p2: spec.containers[0].resources.limits.metax-tech.com/gpu: "
            + "'lots' is not a Kubernetes quantity"), m.errors());
    assertEquals(1, m.pods().size());
    assertEquals("ok", m.pods().get(0).getMetadata().getName());
    assertEquals(m.errors(), m.toModel().errors());
  }

  @Test
  void wrongTypeAndBadTimeAreReportedNotThrown() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: p1}
        spec:
          containers: not-a-list
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: n1, creationTimestamp: yesterday}
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        metadata: {name: g}
        spec: {minMember: 2.5}
        """;

    Manifests m = reader.readString("t.yaml", yaml);

    assertEquals(3, m.errors().size(), m.errors().toString());
    assertEquals("t.yaml doc 1: Pod default/p1: spec.containers: expected a list, got a string", m.errors().get(0));
    assertEquals("t.yaml doc 2: Node n1: metadata.creationTimestamp: 'yesterday' is not an RFC 3339 time "
        + "(e.g. 2024-01-01T00:00:00Z)", m.errors().get(1));
    assertEquals("t.yaml doc 3: PodGroup default/g: spec.minMember: '2.5' is not a 32-bit integer", m.errors().get(2));
    assertEquals(0, m.size());
  }

  @Test
  void conversionErrorsAreCollectedWithTheirOrigin() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: neg, namespace: team-a}
        spec:
          containers:
          - name: c
            resources: {requests: {cpu: "-1"}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {namespace: team-a}
        spec:
          containers: [{name: c}]
        ---
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: no-value}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: fine, namespace: team-a}
        spec:
          containers: [{name: c}]
        """;

    ClusterObjects c = reader.readString("c.yaml", yaml).toModel();

    assertEquals(List.of(
        "c.yaml doc 1: Pod team-a/neg: spec.containers[0].resources.requests.cpu: negative quantity '-1'",
        "c.yaml doc 2: Pod team-a/<unnamed>: metadata.name: missing",
        "c.yaml doc 3: PriorityClass no-value: value: missing"), c.errors());
    assertEquals(List.of("team-a/fine"), c.pods().stream().map(Pod::key).toList());
    assertTrue(c.priorityClasses().isEmpty());
  }

  @Test
  void listKindContributesItsItems() {
    String yaml = """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: Node
          metadata: {name: n1}
          status: {allocatable: {cpu: "4"}}
        - apiVersion: apps/v1
          kind: DaemonSet
          metadata: {name: ds, namespace: kube-system}
        - apiVersion: v1
          kind: Node
          metadata: {name: n2}
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: QueueList
        items:
        - apiVersion: scheduling.volcano.sh/v1beta1
          kind: Queue
          metadata: {name: q1}
        """;

    Manifests m = reader.readString("list.yaml", yaml);

    assertEquals(List.of("n1", "n2"), m.nodes().stream().map(n -> n.getMetadata().getName()).toList());
    assertEquals(List.of("list.yaml doc 1 item 2: skipped kind DaemonSet apps/v1 'kube-system/ds'"), m.skipped());
    assertEquals("list.yaml doc 1 item 3", m.origin(m.nodes().get(1)));
    assertEquals("q1", m.queues().get(0).getMetadata().getName());
    assertEquals(OffsetDateTime.parse("2024-01-01T00:00:03Z"), m.queues().get(0).getMetadata().getCreationTimestamp());
  }

  @Test
  void emptyDocumentsAndCommentsDoNotCount() {
    String yaml = """
        # header comment
        ---
        ---
        apiVersion: v1
        kind: Namespace
        metadata: {name: a}
        ---
        # only a comment
        ...
        ---
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: w}
        """;

    Manifests m = reader.readString("e.yaml", yaml);

    assertEquals(1, m.namespaces().size());
    assertEquals(List.of("e.yaml doc 2: skipped kind Widget example.com/v1 'w'"), m.skipped());
  }

  @Test
  void documentsWithoutKindOrApiVersionOrNotAMappingAreErrors() {
    String yaml = """
        apiVersion: v1
        metadata: {name: nokind}
        ---
        kind: Pod
        metadata: {name: noversion}
        ---
        - just
        - a list
        """;

    Manifests m = reader.readString("k.yaml", yaml);

    assertEquals(List.of(
        "k.yaml doc 1: 'nokind' has no kind",
        "k.yaml doc 2: Pod 'noversion' has no apiVersion",
        "k.yaml doc 3: not a Kubernetes object (expected a mapping with apiVersion, kind and metadata)"), m.errors());
  }

  @Test
  void duplicateObjectsKeepTheFirst() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: a}
        spec: {containers: [{name: first}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: b}
        spec: {containers: [{name: other-namespace}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: a}
        spec: {containers: [{name: second}]}
        """;

    Manifests m = reader.readString("d.yaml", yaml);

    assertEquals(List.of("first", "other-namespace"),
        m.pods().stream().map(p -> p.getSpec().getContainers().get(0).getName()).toList());
    assertEquals(List.of("d.yaml doc 3: duplicate Pod a/p (first at d.yaml doc 1), ignored"), m.errors());
  }

  @Test
  void yamlAnchorsAndMergeKeysWork() {
    String yaml = """
        apiVersion: v1
        kind: List
        items:
        - &node
          apiVersion: v1
          kind: Node
          metadata: {name: n1}
          status:
            allocatable: &res {cpu: "8", metax-tech.com/gpu: "8"}
        - <<: *node
          metadata: {name: n2}
        """;

    ClusterObjects c = reader.readString(yaml).toModel();

    assertEquals(List.of("n1", "n2"), c.nodes().stream().map(Node::name).toList());
    assertEquals(8, c.nodes().get(1).allocatable().get(METAX));
  }

  @Test
  void directoryIsReadInNameOrderWithContinuingPositions(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("20-pods.yml"), """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec: {containers: [{name: c, resources: {limits: {metax-tech.com/gpu: 1}}}]}
        """);
    Files.writeString(dir.resolve("10-nodes.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: a}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: b}
        """);
    Files.writeString(dir.resolve("30-queue.json"), """
        {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue",
         "metadata": {"name": "q"}, "spec": {"capability": {"cpu": 1.5}}}
        """);
    Files.writeString(dir.resolve("notes.txt"), "not: [a manifest");

    Manifests m = reader.read(dir);
    ClusterObjects c = m.toModel();

    assertEquals(List.of("a", "b"), c.nodes().stream().map(Node::name).toList());
    assertEquals("10-nodes.yaml doc 2", m.origin(m.nodes().get(1)));
    assertEquals(BASE.plusSeconds(2), c.pods().get(0).creationTimestamp());
    assertEquals(1500, c.queues().get(0).capability().get("cpu"));
    assertEquals("30-queue.json doc 1", m.origin(m.queues().get(0)));
  }

  @Test
  void malformedFileInADirectoryIsNamed(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("a.yaml"), "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n");
    Files.writeString(dir.resolve("b.yaml"), "apiVersion: v1\n---\nkind: : Pod\n");

    ManifestException e = assertThrows(ManifestException.class, () -> reader.read(dir));

    assertEquals("b.yaml", e.source());
    assertEquals(2, e.document());
  }

  @Test
  void singleFileAndSeveralPaths(@TempDir Path dir) throws IOException {
    Path one = Files.writeString(dir.resolve("one.yaml"), "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");
    Path sub = Files.createDirectory(dir.resolve("more"));
    Files.writeString(sub.resolve("two.yaml"), "apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n");

    assertEquals(1, reader.read(one).nodes().size());
    Manifests both = reader.read(List.of(one, sub));
    assertEquals(List.of("n1", "n2"), both.nodes().stream().map(n -> n.getMetadata().getName()).toList());
    assertEquals(OffsetDateTime.parse("2024-01-01T00:00:01Z"), both.nodes().get(1).getMetadata().getCreationTimestamp());
  }

  @Test
  void volcanoKindsOfOtherVersionsAreSkipped() {
    String yaml = """
        apiVersion: scheduling.volcano.sh/v1alpha1
        kind: PodGroup
        metadata: {name: old, namespace: ml}
        """;

    Manifests m = reader.readString("v.yaml", yaml);

    assertEquals(List.of("v.yaml doc 1: skipped kind PodGroup scheduling.volcano.sh/v1alpha1 'ml/old'"), m.skipped());
    assertTrue(m.podGroups().isEmpty());
  }

  @Test
  void crdsReadWithUnknownFieldsIgnored() {
    String yaml = """
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        metadata: {name: g, namespace: ml}
        spec:
          minMember: 3
          networkTopology: {mode: hard, highestTierAllowed: 1}
        status:
          phase: Running
          running: 3
          conditions:
          - type: Scheduled
            status: "True"
            transitionID: 4a1c
            lastTransitionTime: "2024-03-01T08:00:00Z"
            reason: tasks in gang are ready to be scheduled
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: Queue
        metadata: {name: q}
        spec:
          weight: 2
          dequeueStrategy: fifo
          affinity: {nodeGroupAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [g1]}}
        status:
          state: Closed
          allocated: {cpu: "2", pods: "3"}
        """;

    Manifests m = reader.readString(yaml);

    V1beta1PodGroup g = m.podGroups().get(0);
    assertEquals(3, g.getSpec().minMember());
    assertEquals(3, g.getStatus().running());
    assertEquals("4a1c", g.getStatus().conditions().get(0).transitionID());
    assertEquals(OffsetDateTime.parse("2024-03-01T08:00:00Z"),
        g.getStatus().conditions().get(0).lastTransitionTime());
    V1beta1Queue q = m.queues().get(0);
    assertEquals("fifo", q.getSpec().dequeueStrategy());
    assertEquals(new Quantity("2"), q.getStatus().allocated().get("cpu"));
    assertEquals("Closed", m.toModel().queues().get(0).state());
    assertEquals(List.of(), m.errors());
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = ManifestReaderTest.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
