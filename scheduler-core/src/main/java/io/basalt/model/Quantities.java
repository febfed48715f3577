package io.basalt.model;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Kubernetes quantity strings to the integer units a {@link ResourceVector} stores: CPU in millicores (rounded up, as
 * the kubelet does), everything else in base units (bytes, devices).
 */
public final class Quantities {
  private Quantities() {}

  /**
   * Parses {@code quantity} for resource {@code name}.
   *
   * @throws IllegalArgumentException naming the resource and the text when it is not a Kubernetes quantity
   */
  public static long parse(String name, String quantity) {
    BigDecimal value = parseDecimal(name, quantity);
    if (ResourceNames.CPU_NAME.equals(name)) {
      value = value.multiply(BigDecimal.valueOf(1000));
    }
    return value.setScale(0, RoundingMode.CEILING).longValueExact();
  }

  /** Parses a quantity to its exact decimal value in base units. */
  public static BigDecimal parseDecimal(String name, String quantity) {
    String q = quantity == null ? "" : quantity.trim();
    if (q.isEmpty()) {
      throw new IllegalArgumentException("resource " + name + ": empty quantity");
    }
    int end = q.length();
    while (end > 0 && Character.isLetter(q.charAt(end - 1))) {
      end--;
    }
    String number = q.substring(0, end);
    String suffix = q.substring(end);
    // "1e3" style exponents: the trailing letter run would swallow the 'e' only if digits are missing after it.
    if (suffix.startsWith("e") || suffix.startsWith("E")) {
      if (suffix.length() > 1) {
        throw bad(name, quantity);
      }
    }
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
    return base.multiply(multiplier);
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
