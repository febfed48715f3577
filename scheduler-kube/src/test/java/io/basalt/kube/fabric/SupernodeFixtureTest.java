package io.basalt.kube.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import io.basalt.kube.ClusterObjects;
import io.basalt.kube.ManifestReader;
import io.basalt.kube.Manifests;
import io.basalt.model.Node;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code test-fixtures/supernode}: the same tree stated three ways, and the bad HyperNodes. */
class SupernodeFixtureTest {
  static final Path DIR = Fixtures.supernode();

  static ClusterObjects read(Path... paths) throws IOException {
    return new ManifestReader().read(List.of(paths)).toModel();
  }

  /** Every domain's name, tier, parent and nodes below, for comparing fabrics. */
  static String shape(Fabric f) {
    StringBuilder b = new StringBuilder();
    for (int t : f.tiers()) {
      for (String d : f.domains(t)) {
        b.append(t).append(' ').append(d).append(" < ").append(f.parent(d)).append(": ").append(f.nodesOf(d))
            .append('\n');
      }
    }
    return b.toString();
  }

  @Test
  void hyperNodesAndNodeGroupBuildTheSameTree() throws IOException {
    Manifests m = new ManifestReader().read(DIR);
    assertEquals(6, m.hyperNodes().size());
    assertTrue(m.skipped().isEmpty(), m.skipped().toString());
    ClusterObjects c = m.toModel();
    assertEquals(List.of(), c.errors());
    assertEquals(32, c.nodes().size());
    Fabric fromHyperNodes = c.fabric();
    assertArrayEquals(new int[] {1, 2}, fromHyperNodes.tiers());
    assertEquals(List.of("sb1-df1", "sb1-df2", "sb2-df1", "sb2-df2"), fromHyperNodes.domains(1));
    assertEquals(16, fromHyperNodes.nodesOf("sb2").size());
    assertEquals("sb2/sb2-df1", fromHyperNodes.path("sb2-df1-n7"));
    assertEquals(2, fromHyperNodes.tierOf("switchbox").getAsInt());

    FabricBuilder.Result fromJson = NodeGroupReader.read(DIR.resolve("topology/node_group.json"),
        c.nodes().stream().map(Node::name).toList());
    assertEquals(List.of(), fromJson.problems());
    assertEquals(shape(fromHyperNodes), shape(fromJson.fabric()));
    assertEquals(32, fromJson.fabric().nodesOf(Fabric.ROOT).size());
  }

  @Test
  void nodeLabelsBuildTheSameTreeUpToNames() throws IOException {
    ClusterObjects c = read(DIR.resolve("00-cluster.yaml"));
    FabricBuilder.Result r = LabelTopologyReader.read(
        List.of("topology.example.com/switchbox", "topology.example.com/dragonfly"), c.nodes());
    assertEquals(List.of(), r.problems());
    String renamed = shape(r.fabric()).replace("sb1/df", "sb1-df").replace("sb2/df", "sb2-df");
    assertEquals(shape(c.fabric().isEmpty() ? read(DIR).fabric() : c.fabric()), renamed);
  }

  @Test
  void aNodeInTwoDragonflies() throws IOException {
    ClusterObjects c = read(DIR.resolve("00-cluster.yaml"), DIR.resolve("bad/node-in-two-dragonflies.yaml"));
    assertEquals(List.of("HyperNode sb1-df2: node 'sb1-df1-n8' is already in HyperNode 'sb1-df1' of tier 1, ignored"),
        c.errors());
    assertEquals(List.of("sb1-df1"), c.fabric().domains(1));
  }

  @Test
  void aCycle() throws IOException {
    ClusterObjects c = read(DIR.resolve("00-cluster.yaml"), DIR.resolve("bad/cycle.yaml"));
    assertEquals(List.of("HyperNode loop-a: cycle loop-a -> loop-b -> loop-a, all 2 ignored"), c.errors());
    assertEquals(Fabric.ROOT, c.fabric().parent("sb1-df1"));
  }

  @Test
  void membersNamingNothing() throws IOException {
    ClusterObjects c = read(DIR.resolve("00-cluster.yaml"), DIR.resolve("bad/unknown-member.yaml"));
    assertEquals(List.of("HyperNode sb1-df1: spec.members[1].selector.exactMatch.name: no node 'sb9-df9-n9'",
        "HyperNode sb1: spec.members[1].selector.exactMatch.name: no HyperNode 'sb1-df7'"), c.errors());
    assertEquals(List.of("sb1-df1-n1"), c.fabric().nodesOf("sb1"));
  }

  @Test
  void badSelectors() throws IOException {
    ClusterObjects c = read(DIR.resolve("00-cluster.yaml"), DIR.resolve("bad/bad-selector.yaml"));
    assertEquals(List.of(
        "HyperNode s0: spec.members[1].selector: exactly one of exactMatch, regexMatch, labelMatch",
        "HyperNode s0: spec.members[2].selector: exactly one of exactMatch, regexMatch, labelMatch",
        "HyperNode s0: spec.members[3].selector.regexMatch.pattern: 'sb1-df1-n(3' is not a regular expression: "
            + "missing closing )",
        "HyperNode s1: spec.members[1].selector.labelMatch: only for Node members"), c.errors());
    assertEquals("s1/s0", c.fabric().path("sb1-df1-n1"));
  }

  @Test
  void aDuplicateHyperNodeIsAManifestError() throws IOException {
    ClusterObjects c = read(DIR.resolve("hypernodes.yaml"), DIR.resolve("hypernodes.yaml"));
    assertTrue(c.errors().get(0).startsWith("hypernodes.yaml doc 1: duplicate HyperNode sb1-df1 (first at "),
        c.errors().get(0));
  }
}
