package io.basalt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
  private static final List<String> SUFFIXES = List.of("", "", "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki",
      "Mi", "Gi", "Ti", "Pi", "Ei");
  private static final List<String> ODD = List.of("", " ", ".", "e", "E", "1e", "1e+", "-", "+", "+1", "-0", "0.",
      ".5", "1.2.3", "1ee3", "1e3e3", "0x10", "1_000", "NaN", "Infinity", "-Infinity", "1 Gi", "1gi", "1KI", "1iK",
      "\u0661", "\uff11", "1\u00a0", "\t2\n", "1e2147483647", "1e-2147483648", "1e2147483648", "1e999999999k",
      "1e-999999999m", "9e2147483647Ei", "1e2147483647m", "0.000000001n", "1E", "1Ee3", "1e3Ki", "1e-3E");
  private static final String CHARS = "0123456789.eE+-kMGTPEimnuKi \t_x\u0660\uff11";
  private static final List<String> NAMES = List.of(ResourceNames.CPU_NAME, ResourceNames.MEMORY_NAME,
      ResourceNames.PODS_NAME, "nvidia.com/gpu");

  /** A quantity of the grammar with a known exact value, or {@code null} value when not worth an oracle. */
  private record Case(String text, BigDecimal exact) {}

  @Test
  void absurdQuantitiesAreAnAmountOrANamedErrorNeverAHang() {
    Random r = new Random(SEED);
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      int refused = 0;
      int checked = 0;
      for (int i = 0; i < COUNT; i++) {
        Case c = next(r);
        String name = NAMES.get(r.nextInt(NAMES.size()));
        Long up = null;
        try {
          up = Quantities.parse(name, c.text);
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
          long down = Quantities.toUnits(name, Quantities.parseDecimal(name, c.text), false);
          assertTrue(down <= up && up - down <= 1, at(i, c, "down " + down + ", up " + up));
        }
        if (c.exact != null) {
          checked++;
          BigDecimal units = ResourceNames.CPU_NAME.equals(name) ? c.exact.movePointRight(3) : c.exact;
          BigInteger ceil = units.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
          boolean fits = c.exact.signum() >= 0 && ceil.bitLength() < 64;
          if (fits) {
            assertEquals(Long.valueOf(ceil.longValueExact()), up, at(i, c, name + " exact value " + c.exact));
          } else if (up != null) {
            fail(at(i, c, name + " of " + c.exact + " accepted as " + up));
          }
        }
      }
      assertTrue(refused > COUNT / 5 && refused < COUNT * 4 / 5, "the mix should both parse and refuse: " + refused);
      assertTrue(checked > COUNT / 4, "the exact oracle should check many cases: " + checked);
    });
  }

  private static String at(int i, Case c, String problem) {
    String shown = c.text.length() > 200 ? c.text.substring(0, 200) + "... (" + c.text.length() + " chars)" : c.text;
    return "case " + i + " of seed " + SEED + " '" + shown + "': " + problem;
  }

  private static Case next(Random r) {
    return switch (r.nextInt(8)) {
      case 0 -> new Case(ODD.get(r.nextInt(ODD.size())), null);
      case 1 -> new Case(chars(r, r.nextInt(24)), null);
      case 2 -> new Case(huge(r), null);
      case 3 -> new Case(mutate(r, grammar(r).text), null);
      default -> grammar(r);
    };
  }

  /** A quantity of the Kubernetes grammar: sign, digits, point, exponent or suffix, with its value worked out. */
  private static Case grammar(Random r) {
    boolean negative = r.nextInt(12) == 0;
    String whole = digits(r, r.nextInt(4) == 0 ? r.nextInt(30) : r.nextInt(6));
    String fraction = r.nextInt(3) == 0 ? digits(r, r.nextInt(12)) : null;
    if (whole.isEmpty() && (fraction == null || fraction.isEmpty())) {
      whole = "0";
    }
    StringBuilder text = new StringBuilder(negative ? "-" : r.nextInt(20) == 0 ? "+" : "");
    text.append(whole);
    if (fraction != null) {
      text.append('.').append(fraction);
    }
    BigInteger mantissa = new BigInteger((whole + (fraction == null ? "" : fraction)).isEmpty() ? "0"
        : whole + (fraction == null ? "" : fraction));
    int scale = fraction == null ? 0 : fraction.length();
    BigDecimal value = new BigDecimal(negative ? mantissa.negate() : mantissa, scale);
    if (r.nextInt(4) == 0) {
      int exp = r.nextInt(6) == 0 ? r.nextInt() : r.nextInt(61) - 30;
      text.append(r.nextBoolean() ? 'e' : 'E').append(exp);
      boolean small = Math.abs((long) exp) <= 60;
      return new Case(text.toString(), small ? value.scaleByPowerOfTen(exp) : null);
    }
    String suffix = SUFFIXES.get(r.nextInt(SUFFIXES.size()));
    text.append(suffix);
    return new Case(text.toString(), value.multiply(multiplier(suffix)));
  }

  /** The suffix's factor, worked out from its definition rather than read from the code under test. */
  private static BigDecimal multiplier(String suffix) {
    if (suffix.endsWith("i")) {
      int shift = 10 * (1 + "KMGTPE".indexOf(suffix.charAt(0)));
      return new BigDecimal(BigInteger.ONE.shiftLeft(shift));
    }
    int power = switch (suffix) {
      case "" -> 0;
      case "n" -> -9;
      case "u" -> -6;
      case "m" -> -3;
      default -> 3 * (1 + "kMGTPE".indexOf(suffix.charAt(0)));
    };
    return BigDecimal.ONE.scaleByPowerOfTen(power);
  }

  private static String digits(Random r, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append((char) ('0' + r.nextInt(10)));
    }
    return sb.toString();
  }

  private static String chars(Random r, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(CHARS.charAt(r.nextInt(CHARS.length())));
    }
    return sb.toString();
  }

  /** Long text: 100,000 digits, a long exponent, a long run of zeros behind the point. */
  private static String huge(Random r) {
    int n = 50 + r.nextInt(r.nextInt(10) == 0 ? 100_000 : 200);
    return switch (r.nextInt(4)) {
      case 0 -> digits(r, n);
      case 1 -> "1e" + digits(r, n);
      case 2 -> "0." + "0".repeat(n) + "1";
      default -> "9".repeat(n) + SUFFIXES.get(r.nextInt(SUFFIXES.size()));
    };
  }

  /** A character inserted, deleted or replaced, or the text cut or doubled. */
  private static String mutate(Random r, String s) {
    int at = s.isEmpty() ? 0 : r.nextInt(s.length());
    return switch (r.nextInt(5)) {
      case 0 -> s.substring(0, at) + CHARS.charAt(r.nextInt(CHARS.length())) + s.substring(at);
      case 1 -> s.isEmpty() ? s : s.substring(0, at) + s.substring(at + 1);
      case 2 -> s.isEmpty() ? s : s.substring(0, at) + CHARS.charAt(r.nextInt(CHARS.length())) + s.substring(at + 1);
      case 3 -> s.substring(0, at);
      default -> s + s;
    };
  }
}
