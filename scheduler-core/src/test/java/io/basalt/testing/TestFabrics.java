package io.basalt.testing;

import io.basalt.fabric.DomainSpec;
import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import java.util.List;

/** A small two-tier network fabric for tests of what is kept per domain. */
public final class TestFabrics {
  private TestFabrics() {}

  /** The nodes of {@link #twoSwitchboxes}, in order: three per dragonfly, then {@code loose}, in no domain. */
  public static final List<String> NODES =
      List.of("a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "loose");

  /** sb1 {df1 {a1..a3}, df2 {b1..b3}}, sb2 {df3 {c1..c3}}. */
  public static final List<DomainSpec> SPECS = List.of(
      new DomainSpec("df1", 1, "dragonfly", List.of(), List.of("a1", "a2", "a3")),
      new DomainSpec("df2", 1, "dragonfly", List.of(), List.of("b1", "b2", "b3")),
      new DomainSpec("df3", 1, "dragonfly", List.of(), List.of("c1", "c2", "c3")),
      new DomainSpec("sb1", 2, "switchbox", List.of("df1", "df2"), List.of()),
      new DomainSpec("sb2", 2, "switchbox", List.of("df3"), List.of()));

  /** The fabric of {@link #SPECS} over {@link #NODES}, with c3 not Ready. */
  public static Fabric twoSwitchboxes() {
    return FabricBuilder.build("domain", SPECS, NODES, List.of("c3")).fabric();
  }
}
