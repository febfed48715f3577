package io.basalt.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class FabricTest {
  /** 2 switchboxes x 2 dragonflies x 2 nodes, plus a node outside every domain. */
  static FabricBuilder.Result sample(List<String> unready) {
    List<DomainSpec> specs = new ArrayList<>();
    List<String> cluster = new ArrayList<>(List.of("loose"));
    for (int sb = 1; sb <= 2; sb++) {
      List<String> dfs = new ArrayList<>();
      for (int df = 1; df <= 2; df++) {
        String d = "sb" + sb + "-df" + df;
        List<String> nodes = List.of(d + "-n1", d + "-n2");
        cluster.addAll(nodes);
        dfs.add(d);
        specs.add(new DomainSpec(d, 1, "dragonfly", List.of(), nodes));
      }
      specs.add(new DomainSpec("sb" + sb, 2, "switchbox", dfs, List.of()));
    }
    return FabricBuilder.build("domain", specs, cluster, unready);
  }

  @Test
  void looksUpDomainsByNodeAndTier() {
    FabricBuilder.Result r = sample(List.of());
    Fabric f = r.fabric();
    assertEquals(List.of(), r.problems());
    assertFalse(f.isEmpty());
    assertArrayEquals(new int[] {1, 2}, f.tiers());
    assertEquals("sb2-df1", f.domainOf("sb2-df1-n2", 1));
    assertEquals("sb2", f.domainOf("sb2-df1-n2", 2));
    assertNull(f.domainOf("sb2-df1-n2", 3));
    assertNull(f.domainOf("loose", 1));
    assertNull(f.domainOf("nobody", 1));
    assertEquals(List.of("sb1-df1", "sb1-df2", "sb2-df1", "sb2-df2"), f.domains(1));
    assertEquals(List.of("sb1", "sb2"), f.domains(2));
    assertEquals(List.of(), f.domains(7));
  }

  @Test
  void nodesOfADomainIncludeItsChildrensNodes() {
    Fabric f = sample(List.of()).fabric();
    assertEquals(List.of("sb1-df1-n1", "sb1-df1-n2", "sb1-df2-n1", "sb1-df2-n2"), f.nodesOf("sb1"));
    assertEquals(List.of("sb1-df2-n1", "sb1-df2-n2"), f.nodesOf("sb1-df2"));
    assertEquals(List.of(), f.nodesOf("unknown"));
    assertEquals(List.of(), f.domain("sb1").nodes());
    assertEquals(List.of("sb1-df1", "sb1-df2"), f.children("sb1"));
  }

  @Test
  void theRootHoldsTheWholeClusterAboveTheWidestTier() {
    Fabric f = sample(List.of()).fabric();
    assertEquals(9, f.nodesOf(Fabric.ROOT).size());
    assertTrue(f.nodesOf(Fabric.ROOT).contains("loose"));
    Domain root = f.domain(Fabric.ROOT);
    assertEquals(3, root.tier());
    assertEquals(List.of("sb1", "sb2"), root.children());
    assertEquals(List.of("loose"), root.nodes());
    assertEquals(Fabric.ROOT, f.parent("sb1"));
    assertEquals("sb1", f.parent("sb1-df2"));
    assertNull(f.parent(Fabric.ROOT));
  }

  @Test
  void pathIsWidestFirstWithoutTheRoot() {
    Fabric f = sample(List.of()).fabric();
    assertEquals("sb1/sb1-df2", f.path("sb1-df2-n1"));
    assertEquals("", f.path("loose"));
  }

  @Test
  void tierNamesGiveTheirTier() {
    Fabric f = sample(List.of()).fabric();
    assertEquals(OptionalInt.of(2), f.tierOf("switchbox"));
    assertEquals(OptionalInt.of(1), f.tierOf("dragonfly"));
    assertEquals(OptionalInt.empty(), f.tierOf("rack"));
    assertEquals(OptionalInt.empty(), f.tierOf(null));
  }

  @Test
  void unreadyNodesStayInTheTreeButNotInReadyNodes() {
    Fabric f = sample(List.of("sb1-df1-n2")).fabric();
    assertTrue(f.unready("sb1-df1-n2"));
    assertFalse(f.unready("sb1-df1-n1"));
    assertEquals(List.of("sb1-df1-n1", "sb1-df1-n2"), f.nodesOf("sb1-df1"));
    assertEquals(List.of("sb1-df1-n1"), f.readyNodes("sb1-df1"));
    assertEquals(3, f.readyNodes("sb1").size());
    assertEquals(8, f.readyNodes(Fabric.ROOT).size());
    assertEquals(f.nodesOf("sb2"), sample(List.of()).fabric().readyNodes("sb2"));
  }

  @Test
  void emptyHasNoDomainsAndARootWithoutNodes() {
    assertTrue(Fabric.EMPTY.isEmpty());
    assertEquals(0, Fabric.EMPTY.tiers().length);
    assertEquals(List.of(), Fabric.EMPTY.nodesOf(Fabric.ROOT));
    assertNull(Fabric.EMPTY.domainOf("n", 1));
    assertEquals("", Fabric.EMPTY.path("n"));
    assertFalse(Fabric.EMPTY.unready("n"));
  }

  @Test
  void tiersMaySkipALevel() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(
        new DomainSpec("pod-a", 1, null, List.of(), List.of("n1")),
        new DomainSpec("zone", 3, null, List.of("pod-a"), List.of("n2"))), List.of("n1", "n2"));
    assertEquals(List.of(), r.problems());
    assertArrayEquals(new int[] {1, 3}, r.fabric().tiers());
    assertEquals("zone/pod-a", r.fabric().path("n1"));
    assertEquals("zone", r.fabric().path("n2"));
    assertNull(r.fabric().domainOf("n1", 2));
  }

  @Test
  void anyNodeNameIsAcceptedWhenTheClusterIsUnknown() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(new DomainSpec("d", 1, null, List.of(), List.of("x"))), null);
    assertEquals(List.of(), r.problems());
    assertEquals(List.of("x"), r.fabric().nodesOf(Fabric.ROOT));
  }
}
