package io.basalt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A flood of distinct made-up extended resource names (5,000 per test: plain, 10,000 characters long, non-ASCII,
 * blank) against the name table. The table is process-wide, so the flood meets a bound set at the table's current
 * size ({@link ResourceNames#index(String, int)}): every new name is refused naming it, the table does not grow, and
 * zero amounts of new names (what most made-up names in a resource list are) intern nothing at all. The shipped bound
 * itself is {@link ResourceNames#MAX_NAMES}. Bounded by the number of cases; {@code -Dbasalt.fuzz.seed},
 * {@code -Dbasalt.fuzz.count}.
 */
class ResourceNameFloodFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 35L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 5000);

  private static String name(Random r, int i) {
    return switch (r.nextInt(6)) {
      case 0 -> "example.com/" + "r".repeat(10_000) + i;
      case 1 -> "vendor\u00e9.io/gpu-\uD83D\uDE00-" + i;
      case 2 -> " ".repeat(1 + r.nextInt(3)) + i;
      default -> "flood" + r.nextInt(1_000_000) + ".example.com/res-" + i;
    };
  }

  @Test
  void aFloodOfNewNamesIsRefusedNamingEachAndTheTableDoesNotGrow() {
    Random r = new Random(SEED);
    ResourceNames.index("nvidia.com/gpu");
    int before = ResourceNames.count();
    for (int i = 0; i < COUNT; i++) {
      String name = name(r, i);
      try {
        ResourceNames.index(name, before);
        fail("case " + i + " of seed " + SEED + ": a new name was counted past the bound");
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage().startsWith("resource " + name + ": "), e.getMessage());
      }
      assertEquals(-1, ResourceNames.indexIfKnown(name));
      assertEquals(before, ResourceNames.count(), "case " + i);
      // known names still resolve, at their slots
      assertEquals(ResourceNames.CPU, ResourceNames.index(ResourceNames.CPU_NAME, before));
    }
    System.out.println("fuzz cases: ResourceNameFloodFuzzTest names " + COUNT + " (name floods)");
  }

  @Test
  void zeroAmountsOfAFloodOfNamesInternNothing() {
    Random r = new Random(SEED + 1);
    int before = ResourceNames.count();
    ResourceVector.Builder b = ResourceVector.builder();
    for (int i = 0; i < COUNT; i++) {
      b.add(name(r, i), 0);
    }
    System.out.println("fuzz cases: ResourceNameFloodFuzzTest zeros " + COUNT + " (name floods)");
    b.add(ResourceNames.CPU_NAME, 500);
    ResourceVector v = b.build();
    assertEquals(before, ResourceNames.count(), "zeros of new names took slots");
    assertEquals(500, v.get(ResourceNames.CPU));
  }
}
