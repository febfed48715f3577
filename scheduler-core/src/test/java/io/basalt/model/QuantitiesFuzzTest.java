package io.basalt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.basalt.testing.FuzzQuantities;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Quantities} fed seeded absurd quantity text (exponents at and past every int bound, 100,000 digits, every
 * suffix, stray signs and points, non-ASCII digits, random characters): each returns an amount within the model's
 * range or throws one of its two documented exceptions naming the resource; none expands a number or hangs. Where the
 * text is a quantity of the Kubernetes grammar with a small exponent, the amount must equal an exact value worked
 * out here with integers. Bounded by the number of cases (the time limit only catches a hang); set
 * {@code -Dbasalt.fuzz.seed} and {@code -Dbasalt.fuzz.count} to explore further.
 */
class QuantitiesFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 35L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 8000);
  private static final List<String> NAMES = List.of(ResourceNames.CPU_NAME, ResourceNames.MEMORY_NAME,
      ResourceNames.PODS_NAME, "nvidia.com/gpu");

  @Test
  void absurdQuantitiesAreAnAmountOrANamedErrorNeverAHang() {
    Random r = new Random(SEED);
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      int refused = 0;
      int checked = 0;
      for (int i = 0; i < COUNT; i++) {
        FuzzQuantities.Case c = FuzzQuantities.next(r);
        String name = NAMES.get(r.nextInt(NAMES.size()));
        Long up = null;
        try {
          up = Quantities.parse(name, c.text());
          assertTrue(up >= 0, at(i, c, "negative amount " + up));
        } catch (IllegalArgumentException | ArithmeticException e) {
          refused++;
          String m = String.valueOf(e.getMessage());
          if (!m.startsWith("resource " + name + ": ") || m.length() > 300) {
            fail(at(i, c, "a message not naming the resource, or too long: " + m));
          }
        } catch (Throwable t) {
          throw new AssertionError(at(i, c, "threw " + t), t);
        }
        if (up != null) {
          // rounding down (a node's capacity) is never above rounding up, and at most one unit below
          long down = Quantities.toUnits(name, Quantities.parseDecimal(name, c.text()), false);
          assertTrue(down <= up && up - down <= 1, at(i, c, "down " + down + ", up " + up));
        }
        if (c.exact() != null) {
          checked++;
          BigDecimal units = ResourceNames.CPU_NAME.equals(name) ? c.exact().movePointRight(3) : c.exact();
          BigInteger ceil = units.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
          boolean fits = c.exact().signum() >= 0 && ceil.bitLength() < 64;
          if (fits) {
            assertEquals(Long.valueOf(ceil.longValueExact()), up, at(i, c, name + " exact value " + c.exact()));
          } else if (up != null) {
            fail(at(i, c, name + " of " + c.exact() + " accepted as " + up));
          }
        }
      }
      System.out.println("fuzz cases: QuantitiesFuzzTest " + COUNT + " (quantities)");
      assertTrue(refused > COUNT / 5 && refused < COUNT * 4 / 5, "the mix should both parse and refuse: " + refused);
      assertTrue(checked > COUNT / 4, "the exact oracle should check many cases: " + checked);
    });
  }

  private static String at(int i, FuzzQuantities.Case c, String problem) {
    String shown = c.text().length() > 200 ? c.text().substring(0, 200) + "... (" + c.text().length() + " chars)" : c.text();
    return "case " + i + " of seed " + SEED + " '" + shown + "': " + problem;
  }
}
