package io.basalt.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The manifest reproductions of the hardening issue: each a named error, none a crash or a hang. */
class ManifestHardeningTest {
  private final ManifestReader reader = new ManifestReader();

  private static final String NODE = """
      apiVersion: v1
      kind: Node
      metadata: {name: n1}
      status: {allocatable: {cpu: "8"}}
      """;

  @Test
  void aNullContainerIsNamedAndThePodLeftOutNotACrash() {
    ClusterObjects o = reader.readString("c.yaml", NODE + """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p1}
        spec: {containers: [null]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p2}
        spec: {initContainers: [null], containers: [{name: c}]}
        """).toModel();
    assertEquals(List.of("c.yaml doc 2: Pod default/p1: spec.containers[0]: null, expected a container",
        "c.yaml doc 3: Pod default/p2: spec.initContainers[0]: null, expected a container"), o.errors());
    assertEquals(1, o.nodes().size(), "the rest still loads");
  }

  /** Hardening II: a tenant's PodGroup with such a quantity took every replica down with an OutOfMemoryError. */
  @Test
  void aQuantityWithAHugeExponentIsNamedNotExpanded() {
    ClusterObjects o = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> reader.readString("q.yaml", NODE + """
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        metadata: {name: pg, namespace: t}
        spec: {minMember: 1, minResources: {memory: "1e999999999"}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: t}
        spec: {containers: [{name: c, resources: {requests: {cpu: "1e-999999999"}}}]}
        """).toModel());
    assertEquals(1, o.errors().size(), o.errors().toString());
    assertTrue(o.errors().get(0).contains("PodGroup t/pg: spec.minResources.memory: quantity '"), o.errors().get(0));
    assertTrue(o.errors().get(0).contains("is out of range"), o.errors().get(0));
    assertEquals(1, o.pods().get(0).request().get(io.basalt.model.ResourceNames.CPU), "a sliver of cpu asks 1m");
  }

  /** Hardening II: such a pod was dropped with a warning, and its node's GPUs given to the next pod. */
  @Test
  void aRunningPodAskingMoreThanBasaltCanCountStaysInItsNodesAccounting() {
    ClusterObjects o = reader.readString("big.yaml", NODE + """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: t}
        spec:
          nodeName: n1
          containers: [{name: c, resources: {limits: {memory: 10E, nvidia.com/gpu: "8"}}}]
        status: {phase: Running}
        """).toModel();
    assertEquals(List.of(), o.errors());
    io.basalt.model.ResourceVector r = o.pods().get(0).request();
    assertEquals(8, r.get(io.basalt.model.ResourceNames.index("nvidia.com/gpu")));
    assertEquals(io.basalt.kube.kinds.Conversion.MAX_REQUEST, r.get(io.basalt.model.ResourceNames.MEMORY));
  }

  @Test
  void aNodeOfferingAFractionOfAUnitOffersNone() {
    ClusterObjects o = reader.readString("n.yaml", """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status: {allocatable: {cpu: "8", nvidia.com/gpu: "1m", pods: "0.5"}}
        """).toModel();
    io.basalt.model.ResourceVector a = o.nodes().get(0).allocatable();
    assertEquals(0, a.get(io.basalt.model.ResourceNames.index("nvidia.com/gpu")));
    assertEquals(0, a.get(io.basalt.model.ResourceNames.PODS));
  }

  /** 25 KB of anchors each aliasing the last six times: 6^k values, which once ran for minutes. */
  @Test
  void aliasFanOutIsRefusedQuicklyWithItsLine() {
    StringBuilder yaml = new StringBuilder("a0: &a0 [x, x, x, x, x, x]\n");
    for (int i = 1; i < 9; i++) {
      yaml.append('a').append(i).append(": &a").append(i).append(" [")
          .append(String.join(", ", Collections.nCopies(6, "*a" + (i - 1)))).append("]\n");
    }
    String doc = "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns, labels: {x: y}}\n" + yaml;
    StringBuilder text = new StringBuilder();
    while (text.length() < 25_000) {
      text.append(doc).append("---\n");
    }
    ManifestException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
        () -> assertThrows(ManifestException.class, () -> reader.readString("fan.yaml", text.toString())));
    assertTrue(e.getMessage().startsWith("fan.yaml doc 1: malformed YAML at line "), e.getMessage());
    assertTrue(e.getMessage().contains("aliases expand to more than 100000 values"), e.getMessage());
  }

  @Test
  void manySmallFanOutsAddUpPerFile() {
    StringBuilder text = new StringBuilder();
    for (int d = 0; d < 100; d++) { // each about 12,000 values, under the per-document limit
      text.append("apiVersion: v1\nkind: Namespace\nmetadata: {name: ns").append(d).append("}\n")
          .append("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
      for (int i = 1; i < 4; i++) {
        text.append('a').append(i).append(": &a").append(i).append(" [")
            .append(String.join(", ", Collections.nCopies(10, "*a" + (i - 1)))).append("]\n");
      }
      text.append("---\n");
    }
    ManifestException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> assertThrows(ManifestException.class, () -> reader.readString("many.yaml", text.toString())));
    assertTrue(e.getMessage().contains("more than 1000000 values in this source's documents together"),
        e.getMessage());
  }

  @Test
  void aRecursiveAliasIsNamedWithItsLineInTheFile() {
    ManifestException e = assertThrows(ManifestException.class,
        () -> reader.readString("r.yaml", NODE + "---\napiVersion: v1\nkind: Namespace\nmetadata: &m {x: *m}\n"));
    assertEquals("r.yaml doc 2: malformed YAML at line 8, column 11: alias 'm' refers to a value that contains it "
        + "(recursive alias)", e.getMessage());
  }

  @Test
  void aControlCharacterIsNamedWithItsLine() {
    ManifestException e = assertThrows(ManifestException.class,
        () -> reader.readString("c.yaml", NODE + "---\nkind: x\u0000\n"));
    assertEquals("c.yaml doc 2: malformed YAML at line 6: character U+0000 is not allowed", e.getMessage());
  }

  /** ManifestQuantityFuzzTest seed 35: client-java worked 2^60 out in 16 digits, and quoted 100,000 digits whole. */
  @Test
  void exbibytesAreExactAndAHugeQuantityIsQuotedShortAndRefusedAtOnce() {
    ClusterObjects o = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> reader.readString("e.yaml", NODE + """
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: t}
        spec: {containers: [{name: c, resources: {requests: {memory: 1Ei}}}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: q, namespace: t}
        spec: {containers: [{name: c, resources: {requests: {memory: "%s"}}}]}
        """.formatted("9".repeat(100_000))).toModel());
    assertEquals(1L << 60, o.pods().get(0).request().get(io.basalt.model.ResourceNames.MEMORY));
    assertEquals(List.of("e.yaml doc 3: Pod t/q: spec.containers[0].resources.requests.memory: '"
        + "9".repeat(30) + "...(100000 characters)' is not a Kubernetes quantity"), o.errors());
  }
}
