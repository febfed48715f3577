package io.basalt.kube.fabric;

import static io.basalt.kube.fabric.Fixtures.node;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import io.basalt.model.Node;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelTopologyReaderTest {
  static final String BLOCK = "topology.example.com/block";
  static final String RACK = "topology.example.com/rack";

  @Test
  void lastKeyIsTierOneAndRepeatedValuesAreQualified() {
    List<Node> nodes = List.of(
        node("n1", Map.of(BLOCK, "block-a", RACK, "rack-1")), node("n2", Map.of(BLOCK, "block-a", RACK, "rack-1")),
        node("n3", Map.of(BLOCK, "block-a", RACK, "rack-2")), node("n4", Map.of(BLOCK, "block-b", RACK, "rack-1")));
    FabricBuilder.Result r = LabelTopologyReader.read(List.of(BLOCK, RACK), nodes);
    assertEquals(List.of(), r.problems());
    Fabric f = r.fabric();
    assertArrayEquals(new int[] {1, 2}, f.tiers());
    assertEquals(List.of("block-a", "block-b"), f.domains(2));
    assertEquals(List.of("block-a/rack-1", "block-b/rack-1", "rack-2"), f.domains(1));
    assertEquals(List.of("n1", "n2"), f.nodesOf("block-a/rack-1"));
    assertEquals("block-a", f.domainOf("n3", 2));
    assertEquals("rack-2", f.domainOf("n3", 1));
    assertEquals(2, f.tierOf(BLOCK).getAsInt());
    assertEquals(1, f.tierOf(RACK).getAsInt());
  }

  /** TopologyDocumentFuzzTest seed 35: a blank value was a domain without a name, reported without the label. */
  @Test
  void aBlankValueIsAMissingLabel() {
    FabricBuilder.Result r = LabelTopologyReader.read(List.of(RACK), List.of(node("n1", Map.of(RACK, " ")),
        node("n2", Map.of(RACK, "r"))));
    assertEquals(1, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().get(0).startsWith("label " + RACK + ": 1 of 2 nodes do not have it (n1)"),
        r.problems().get(0));
  }

  @Test
  void nodesMissingALabelAreLeftOutOfThatTierReportedOnce() {
    List<Node> nodes = List.of(node("n1", Map.of(BLOCK, "b", RACK, "r")), node("n2", Map.of(BLOCK, "b")),
        node("n3", Map.of(BLOCK, "b")), node("n4", Map.of(BLOCK, "b")), node("n5", Map.of(BLOCK, "b")),
        node("n6", Map.of()));
    FabricBuilder.Result r = LabelTopologyReader.read(List.of(BLOCK, RACK), nodes);
    assertEquals(List.of("label " + BLOCK + ": 1 of 6 nodes do not have it (n6), left out of tier 2",
        "label " + RACK + ": 5 of 6 nodes do not have it (n2, n3, n4, ...), left out of tier 1"), r.problems());
    Fabric f = r.fabric();
    assertEquals(List.of("n2", "n3", "n4", "n5"), f.domain("b").nodes());
    assertEquals("b/r", f.path("n1"));
    assertNull(f.domainOf("n2", 1));
    assertEquals(List.of("n6"), f.domain(Fabric.ROOT).nodes());
  }

  @Test
  void aNarrowerDomainWithoutItsWiderLabelHangsFromTheRoot() {
    List<Node> nodes = List.of(node("n1", Map.of(RACK, "x")), node("n2", Map.of(BLOCK, "x", RACK, "y")));
    FabricBuilder.Result r = LabelTopologyReader.read(List.of(BLOCK, RACK), nodes);
    assertEquals(List.of("x", "x@tier1"), List.of(r.fabric().domainOf("n2", 2), r.fabric().domainOf("n1", 1)));
    assertEquals(Fabric.ROOT, r.fabric().parent("x@tier1"));
  }

  @Test
  void noKeysIsAnEmptyFabric() {
    assertEquals(true, LabelTopologyReader.read(List.of(), List.of(node("n1"))).fabric().isEmpty());
  }
}
