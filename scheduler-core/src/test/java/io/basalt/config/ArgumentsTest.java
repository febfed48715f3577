package io.basalt.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Range-checked reads: a value out of range is a problem naming the argument, and the default is used. */
class ArgumentsTest {
  private static Arguments args(Map<String, Object> values) {
    return new Arguments(values, "tiers[0].plugins[0] (p)");
  }

  @Test
  void aNumberBelowItsMinimumIsAProblemAndTheDefaultStands() {
    Arguments a = args(Map.of("ok", 2.5, "negative", -1, "low", 0.5, "word", "x"));
    assertEquals(2.5, a.getDouble("ok", 1, 0));
    assertEquals(1, a.getDouble("negative", 1, 0));
    assertEquals(3, a.getDouble("low", 3, 1));
    assertEquals(7, a.getDouble("word", 7, 0));
    assertEquals(4, a.getDouble("absent", 4, 0));
    assertEquals(3, a.problems().size(), a.problems().toString());
    assertEquals("tiers[0].plugins[0] (p): argument 'negative' must not be negative, got -1.0", a.problems().get(0));
    assertEquals("tiers[0].plugins[0] (p): argument 'low' must be at least 1.0, got 0.5", a.problems().get(1));
  }

  @Test
  void aWholeNumberOutsideItsRangeIsAProblemAndTheDefaultStands() {
    Arguments a = args(Map.of("ok", 50, "high", 101, "zero", 0, "half", 2.5));
    assertEquals(50, a.getInt("ok", 25, 1, 100));
    assertEquals(25, a.getInt("high", 25, 1, 100));
    assertEquals(64, a.getInt("zero", 64, 1, Integer.MAX_VALUE));
    assertEquals(6, a.getInt("half", 6, 0, 100));
    assertEquals(List.of(
        "tiers[0].plugins[0] (p): argument 'high' must be from 1 to 100, got 101",
        "tiers[0].plugins[0] (p): argument 'zero' must be at least 1, got 0",
        "tiers[0].plugins[0] (p): argument 'half' must be a whole number, got 2.5"), a.problems());
  }
}
