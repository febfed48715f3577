package io.basalt.testing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;

/**
 * Seeded absurd Kubernetes quantity text for the quantity fuzzers: exponents at and past every int bound, 100,000
 * digits, every suffix, stray signs and points, non-ASCII digits, random characters, and quantities of the grammar
 * whose exact value is worked out here with integers (an oracle independent of the parsers under test).
 */
public final class FuzzQuantities {
  private FuzzQuantities() {}

  /** Quantity text, and its exact value in base units when it is a quantity of the grammar worth checking. */
  public record Case(String text, BigDecimal exact) {}

  private static final List<String> SUFFIXES = List.of("", "", "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki",
      "Mi", "Gi", "Ti", "Pi", "Ei");
  private static final List<String> ODD = List.of("", " ", ".", "e", "E", "1e", "1e+", "-", "+", "+1", "-0", "0.",
      ".5", "1.2.3", "1ee3", "1e3e3", "0x10", "1_000", "NaN", "Infinity", "-Infinity", "1 Gi", "1gi", "1KI", "1iK",
      "\u0661", "\uff11", "1\u00a0", "\t2\n", "1e2147483647", "1e-2147483648", "1e2147483648", "1e999999999k",
      "1e-999999999m", "9e2147483647Ei", "1e2147483647m", "0.000000001n", "1E", "1Ee3", "1e3Ki", "1e-3E");
  private static final String CHARS = "0123456789.eE+-kMGTPEimnuKi \t_x\u0660\uff11";

  /** One case: mostly quantities of the grammar, else odd, random, huge or mutated text. */
  public static Case next(Random r) {
    return switch (r.nextInt(8)) {
      case 0 -> new Case(ODD.get(r.nextInt(ODD.size())), null);
      case 1 -> new Case(chars(r, r.nextInt(24)), null);
      case 2 -> new Case(huge(r), null);
      case 3 -> new Case(mutate(r, grammar(r).text), null);
      default -> grammar(r);
    };
  }

  /** A quantity of the Kubernetes grammar: sign, digits, point, exponent or suffix, with its value worked out. */
  public static Case grammar(Random r) {
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
