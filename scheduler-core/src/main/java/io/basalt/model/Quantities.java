package io.basalt.model;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Kubernetes quantity strings to the integer units a {@link ResourceVector} stores: CPU in millicores (rounded up, as
 * the kubelet does), everything else in base units (bytes, devices).
 */
public final class Quantities {
  /**
   * Most significant digits a quantity may carry: a stored amount has at most 19, and a tenant's 100,000-digit
   * number must be refused, not worked through.
   */
  static final int MAX_DIGITS = 40;
  /** Longest quantity text read: room for {@value #MAX_DIGITS} digits, a sign, a point, an exponent and a suffix. */
  public static final int MAX_LENGTH = MAX_DIGITS + 16;

  private Quantities() {}

  /**
   * Parses {@code quantity} for resource {@code name}, rounding up (what a pod asks for).
   *
   * @throws IllegalArgumentException naming the resource and the text when it is not a Kubernetes quantity
   * @throws ArithmeticException when it is one but does not fit the model's units
   */
  public static long parse(String name, String quantity) {
    return toUnits(name, parseDecimal(name, quantity), true);
  }

  /**
   * An exact decimal in base units to the model's units: millicores for CPU, base units otherwise. A request rounds
   * up (the pod holds at least what it asks); a capacity rounds down (a node never offers more than it has). Works
   * from the number's precision and scale, so {@code 1e999999999} or {@code 1e-999999999} cost nothing: the first is
   * out of range, the second a fraction of a unit.
   *
   * @throws ArithmeticException when the amount does not fit the model's units or carries more than
   *     {@value #MAX_DIGITS} significant digits
   * @throws IllegalArgumentException when it is negative
   */
  public static long toUnits(String name, BigDecimal value, boolean roundUp) {
    if (value.signum() < 0) {
      throw new IllegalArgumentException("resource " + name + ": negative quantity");
    }
    if (value.signum() == 0) {
      return 0;
    }
    long digitsBeforePoint = (long) value.precision() - value.scale()
        + (ResourceNames.CPU_NAME.equals(name) ? 3 : 0); // millicores; moving the point could overflow the scale
    if (digitsBeforePoint > 19) {
      throw outOfRange(name);
    }
    if (digitsBeforePoint < -MAX_DIGITS) {
      return roundUp ? 1 : 0;
    }
    if (value.precision() > MAX_DIGITS) {
      throw new ArithmeticException("resource " + name + ": more than " + MAX_DIGITS + " significant digits");
    }
    if (ResourceNames.CPU_NAME.equals(name)) {
      value = value.movePointRight(3); // the scale is within 3 + MAX_DIGITS + 19 of zero here
    }
    BigDecimal whole = value.setScale(0, roundUp ? RoundingMode.CEILING : RoundingMode.FLOOR);
    if (whole.unscaledValue().bitLength() > 63) { // 19 digits may still be above Long.MAX_VALUE
      throw outOfRange(name);
    }
    return whole.longValueExact();
  }

  private static ArithmeticException outOfRange(String name) {
    return new ArithmeticException("resource " + name + ": quantity out of range");
  }

  /** Parses a quantity to its exact decimal value in base units. */
  public static BigDecimal parseDecimal(String name, String quantity) {
    String q = quantity == null ? "" : quantity.trim();
    if (q.isEmpty()) {
      throw new IllegalArgumentException("resource " + name + ": empty quantity");
    }
    if (q.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("resource " + name + ": quantity of " + q.length() + " characters is too long");
    }
    for (int i = 0; i < q.length(); i++) {
      if (q.charAt(i) > 127) {
        throw bad(name, quantity); // BigDecimal would read full-width digits; Kubernetes reads ASCII only
      }
    }
    int end = q.length();
    while (end > 0 && Character.isLetter(q.charAt(end - 1))) {
      end--;
    }
    String number = q.substring(0, end);
    String suffix = q.substring(end);
    // "1e3" style exponents stay in the number (the letter run stops at a digit); a bare "e" is no suffix below.
    BigDecimal base;
    try {
      base = new BigDecimal(number);
    } catch (NumberFormatException e) {
      throw bad(name, quantity);
    }
    BigDecimal multiplier = switch (suffix) {
      case "" -> BigDecimal.ONE;
      case "n" -> new BigDecimal("1e-9");
      case "u" -> new BigDecimal("1e-6");
      case "m" -> new BigDecimal("1e-3");
      case "k" -> new BigDecimal("1e3");
      case "M" -> new BigDecimal("1e6");
      case "G" -> new BigDecimal("1e9");
      case "T" -> new BigDecimal("1e12");
      case "P" -> new BigDecimal("1e15");
      case "E" -> new BigDecimal("1e18");
      case "Ki" -> BigDecimal.valueOf(1L << 10);
      case "Mi" -> BigDecimal.valueOf(1L << 20);
      case "Gi" -> BigDecimal.valueOf(1L << 30);
      case "Ti" -> BigDecimal.valueOf(1L << 40);
      case "Pi" -> BigDecimal.valueOf(1L << 50);
      case "Ei" -> BigDecimal.valueOf(1L << 60);
      default -> throw bad(name, quantity);
    };
    if (base.signum() < 0) {
      throw new IllegalArgumentException("resource " + name + ": negative quantity '" + quantity + "'");
    }
    try {
      return base.multiply(multiplier);
    } catch (ArithmeticException e) { // the exponent and the suffix together overflow the scale: 1e2147483647k
      throw outOfRange(name);
    }
  }

  private static IllegalArgumentException bad(String name, String quantity) {
    return new IllegalArgumentException(
        "resource " + name + ": '" + quantity + "' is not a Kubernetes quantity (e.g. 500m, 2, 4Gi)");
  }

  /** Formats a stored amount back into a readable quantity. */
  public static String format(int index, long amount) {
    if (index == ResourceNames.CPU) {
      return amount % 1000 == 0 ? Long.toString(amount / 1000) : amount + "m";
    }
    if (index == ResourceNames.MEMORY) {
      String[] units = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
      int[] shifts = {60, 50, 40, 30, 20, 10};
      for (int i = 0; i < units.length; i++) {
        long unit = 1L << shifts[i];
        if (amount != 0 && amount % unit == 0) {
          return amount / unit + units[i];
        }
      }
    }
    return Long.toString(amount);
  }
}
