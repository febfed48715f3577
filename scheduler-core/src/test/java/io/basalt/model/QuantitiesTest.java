package io.basalt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuantitiesTest {
  @Test
  void parsesCpuInMillicoresRoundingUp() {
    assertEquals(500, Quantities.parse("cpu", "500m"));
    assertEquals(2000, Quantities.parse("cpu", "2"));
    assertEquals(1500, Quantities.parse("cpu", "1.5"));
    assertEquals(1, Quantities.parse("cpu", "100u"));
  }

  @Test
  void parsesBinaryAndDecimalSuffixes() {
    assertEquals(4L << 30, Quantities.parse("memory", "4Gi"));
    assertEquals(1_000_000_000L, Quantities.parse("memory", "1G"));
    assertEquals(8, Quantities.parse("nvidia.com/gpu", "8"));
    assertEquals(1000, Quantities.parse("memory", "1e3"));
    // QuantitiesFuzzTest seed 35: the exbibyte suffix was refused as a malformed exponent
    assertEquals(1L << 60, Quantities.parse("memory", "1Ei"));
    assertEquals(0, Quantities.parse("memory", "0Ei"));
    assertEquals(1_000_000_000_000_000_000L, Quantities.parse("memory", "1E"));
  }

  @Test
  void rejectsGarbageNamingTheResource() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Quantities.parse("cpu", "two"));
    assertTrue(e.getMessage().contains("resource cpu: 'two'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Quantities.parse("memory", "4Gb"));
    assertThrows(IllegalArgumentException.class, () -> Quantities.parse("memory", "-1"));
  }

  /** Hardening II: such quantities were expanded digit by digit until the heap ran out. */
  @Test
  void hugeExponentsAreOutOfRangeWithoutBeingExpanded() {
    assertThrows(ArithmeticException.class, () -> Quantities.parse("memory", "1e999999999"));
    assertThrows(ArithmeticException.class, () -> Quantities.parse("cpu", "1e17"), "1e20 millicores");
    assertEquals(1, Quantities.parse("memory", "1e-999999999"), "a request of a sliver holds one unit");
    assertEquals(0, Quantities.toUnits("memory", new BigDecimal("1e-999999999"), false), "a capacity of a sliver");
    assertEquals(Long.MAX_VALUE, Quantities.parse("memory", Long.toString(Long.MAX_VALUE)));
  }

  /** QuantitiesFuzzTest seed 35: 19 digits above Long.MAX_VALUE, or a scale overflow, threw a bare "Overflow". */
  @Test
  void justBeyondTheRangeIsOutOfRangeNamingTheResource() {
    for (String q : List.of("9566P", "9223372036854775808", "1e2147483647k", "1e2147483647")) {
      ArithmeticException e = assertThrows(ArithmeticException.class, () -> Quantities.parse("pods", q), q);
      assertEquals("resource pods: quantity out of range", e.getMessage(), q);
    }
    ArithmeticException cpu = assertThrows(ArithmeticException.class, () -> Quantities.parse("cpu", "1e2147483647"));
    assertEquals("resource cpu: quantity out of range", cpu.getMessage());
  }

  @Test
  void tooManyDigitsAndNonAsciiDigitsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> Quantities.parse("memory", "9".repeat(100_000)));
    assertThrows(ArithmeticException.class, () -> Quantities.parse("memory", "1." + "1".repeat(45)));
    assertThrows(IllegalArgumentException.class, () -> Quantities.parse("nvidia.com/gpu", "\uFF11"));
  }

  @Test
  void capacitiesRoundDownAndRequestsUp() {
    assertEquals(0, Quantities.toUnits("nvidia.com/gpu", new BigDecimal("0.001"), false));
    assertEquals(1, Quantities.toUnits("nvidia.com/gpu", new BigDecimal("0.001"), true));
    assertEquals(0, Quantities.toUnits("pods", new BigDecimal("0.5"), false));
    assertEquals(1, Quantities.toUnits("cpu", new BigDecimal("0.0015"), false), "1.5 millicores offer 1");
  }

  /** Hardening II: every made-up name of a tenant's pods took a slot in every vector, until the heap ran out. */
  @Test
  void resourceNamesAreBoundedAndAZeroOfANewNameInternsNothing() {
    int count = ResourceNames.count();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ResourceNames.index("example.com/made-up-" + count, count));
    assertTrue(e.getMessage().startsWith("resource example.com/made-up-"), e.getMessage());
    assertEquals(ResourceNames.CPU, ResourceNames.index("cpu", count), "names in use still resolve");
    ResourceVector.builder().add("example.com/zero-only", 0).build();
    assertEquals(-1, ResourceNames.indexIfKnown("example.com/zero-only"));
    assertEquals(count, ResourceNames.count());
  }

  @Test
  void vectorsAddCompareAndFormat() {
    ResourceVector a = ResourceVector.parse(Map.of("cpu", "2", "memory", "4Gi", "nvidia.com/gpu", "1"));
    ResourceVector b = ResourceVector.parse(Map.of("cpu", "500m"));
    assertEquals(2500, a.plus(b).get(ResourceNames.CPU));
    assertTrue(b.lessEqual(a));
    assertEquals(ResourceNames.CPU, a.firstExceeding(b));
    assertEquals(ResourceNames.index("nvidia.com/gpu"), a.firstExceeding(a.minus(ResourceVector.parse(Map.of("nvidia.com/gpu", "1")))));
    assertEquals(Map.of("cpu", "2", "memory", "4Gi", "nvidia.com/gpu", "1"), a.toQuantities());
    assertTrue(ResourceVector.builder().add("pods", 1).build().isBestEffort());
  }
}
