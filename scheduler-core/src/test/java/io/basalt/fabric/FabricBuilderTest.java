package io.basalt.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FabricBuilderTest {
  static final List<String> NODES = List.of("n1", "n2", "n3", "n4");

  static DomainSpec leaf(String name, String... nodes) {
    return new DomainSpec(name, 1, null, List.of(), List.of(nodes));
  }

  static DomainSpec group(String name, int tier, String... children) {
    return new DomainSpec(name, tier, null, List.of(children), List.of());
  }

  @Test
  void aNodeInTwoDomainsOfOneTierKeepsTheFirstByName() {
    FabricBuilder.Result r = FabricBuilder.build("HyperNode",
        List.of(leaf("df-b", "n2", "n3"), leaf("df-a", "n1", "n2")),
        NODES, List.of());
    assertEquals(List.of("HyperNode df-b: node 'n2' is already in HyperNode 'df-a' of tier 1, ignored"), r.problems());
    assertEquals(List.of("df-a"), r.fabric().domains(1));
    assertNull(r.fabric().domainOf("n3", 1));
  }

  @Test
  void aNodeInTwoWiderDomainsThroughChildrenIsReported() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(leaf("df1", "n1"), leaf("df2", "n1"), group("sb", 2, "df1")),
        NODES);
    assertEquals(List.of("domain df2: node 'n1' is already in domain 'df1' of tier 1, ignored"), r.problems());
    FabricBuilder.Result twoParents = FabricBuilder.build(
        List.of(leaf("df1", "n1"), group("sb1", 2, "df1"), group("sb2", 2, "df1")), NODES);
    assertEquals(List.of("domain sb2: child 'df1' is already in domain 'sb1', ignored"), twoParents.problems());
  }

  @Test
  void aNodeInANarrowerDomainOutsideThisOneIsReported() {
    FabricBuilder.Result r = FabricBuilder.build(
        List.of(leaf("df1", "n1"), new DomainSpec("sb", 2, null, List.of(), List.of("n1", "n2"))), NODES);
    assertEquals(List.of("domain sb: node 'n1' is already in domain 'df1' (tier 1), which is not inside this one, "
        + "ignored"), r.problems());
  }

  @Test
  void aNodeRepeatedThroughAChildIsFine() {
    FabricBuilder.Result r = FabricBuilder.build(
        List.of(leaf("df1", "n1"), new DomainSpec("sb", 2, null, List.of("df1"), List.of("n1", "n2"))), NODES);
    assertEquals(List.of(), r.problems());
    assertEquals(List.of("n2"), r.fabric().domain("sb").nodes());
    assertEquals("sb/df1", r.fabric().path("n1"));
  }

  @Test
  void aCycleIsReportedAndItsDomainsIgnored() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(group("a", 2, "b"), group("b", 3, "c"), group("c", 4, "a"),
        leaf("d", "n1"), group("e", 2, "d", "a")), NODES);
    assertEquals(List.of("domain a: cycle a -> b -> c -> a, all 3 ignored"), r.problems());
    assertEquals(List.of("d"), r.fabric().domains(1));
    assertEquals(List.of("d"), r.fabric().children("e"));
    assertNull(r.fabric().domain("a"));
  }

  @Test
  void aDomainHoldingItselfIsReported() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(new DomainSpec("a", 1, null, List.of("a"), List.of("n1"))),
        NODES);
    assertEquals(List.of("domain a: holds itself, the member dropped"), r.problems());
    assertEquals(List.of("n1"), r.fabric().nodesOf("a"));
  }

  @Test
  void membersNamingNothingAreDropped() {
    FabricBuilder.Result r = FabricBuilder.build(
        List.of(new DomainSpec("sb", 2, null, List.of("df9"), List.of("n1", "ghost"))), NODES);
    assertEquals(List.of("domain sb: no domain 'df9', the member dropped",
        "domain sb: no node 'ghost', the member dropped"),
        r.problems());
    assertEquals(List.of("n1"), r.fabric().nodesOf("sb"));
  }

  @Test
  void aChildOfEqualOrHigherTierIgnoresTheParent() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(leaf("df1", "n1"), leaf("df2", "n2"), group("x", 1, "df1")),
        NODES);
    assertEquals(List.of("domain x: child 'df1' has tier 1, not below this one's 1, ignored"), r.problems());
    assertNull(r.fabric().domain("x"));
    assertEquals(Fabric.ROOT, r.fabric().parent("df1"));
  }

  @Test
  void emptyDomainsAreKeptAndReported() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(leaf("df1"), leaf("df2", "n1")), NODES);
    assertEquals(List.of("domain df1: has no nodes"), r.problems());
    assertNotNull(r.fabric().domain("df1"));
  }

  @Test
  void badNamesTiersAndDuplicatesAreIgnored() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(leaf("a", "n1"), leaf("a", "n2"),
        new DomainSpec("", 1, null, List.of(), List.of("n3")),
        new DomainSpec("neg", -1, null, List.of(), List.of("n3")),
        leaf(Fabric.ROOT, "n4")), NODES);
    assertEquals(List.of("domain a: defined twice, the second ignored", "domain without a name (tier 1): ignored",
        "domain neg: tier -1 is negative, ignored", "domain /: '/' is the root's name, ignored"), r.problems());
    assertEquals(List.of("n1"), r.fabric().nodesOf("a"));
  }

  @Test
  void aTierNameUsedForTwoTiersStaysWithTheLower() {
    FabricBuilder.Result r = FabricBuilder.build("domain", List.of(
        new DomainSpec("a", 1, "rack", List.of(), List.of("n1")),
        new DomainSpec("b", 2, "rack", List.of("a"), List.of()),
        new DomainSpec("c", 2, "rack", List.of(), List.of("n2"))),
        NODES, List.of());
    assertEquals(List.of("domain b: tier name 'rack' already names tier 1, not 2"), r.problems());
    assertEquals(1, r.fabric().tierOf("rack").getAsInt());
  }

  @Test
  void neverThrowsOnNullMembers() {
    FabricBuilder.Result r = FabricBuilder.build(List.of(new DomainSpec("a", 1, null, null, null)), null);
    assertTrue(r.problems().contains("domain a: has no nodes"));
  }
}
