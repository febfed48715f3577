package io.basalt.config;

import java.util.Collection;
import java.util.Date;
import java.util.Map;

/**
 * Short, bounded descriptions of config values for messages. A value straight from YAML may be binary data, a
 * timestamp, or a list that aliases expand to millions of items, so it is never printed with {@code toString}: that
 * would show a Java identity ({@code [B@24a35978}) or run out of memory.
 */
final class Values {
  /** Longest piece of user text quoted in a message. */
  static final int MAX_QUOTE = 80;

  private Values() {}

  /** E.g. {@code 'abc'}, {@code 12}, {@code .inf}, {@code a list}, {@code binary data (5 bytes)}, {@code no value}. */
  static String describe(Object v) {
    if (v == null) {
      return "no value";
    }
    if (v instanceof String s) {
      return "'" + clip(s) + "'";
    }
    if (v instanceof Double d && !Double.isFinite(d)) {
      return d.isNaN() ? ".nan" : d > 0 ? ".inf" : "-.inf";
    }
    if (v instanceof Number || v instanceof Boolean) {
      return clip(v.toString());
    }
    if (v instanceof byte[] b) {
      return "binary data (" + b.length + " bytes)";
    }
    if (v instanceof Date) {
      return "a timestamp";
    }
    if (v instanceof Map<?, ?>) {
      return "a mapping";
    }
    if (v instanceof Collection<?>) {
      return "a list";
    }
    return "a value of another kind";
  }

  /** A mapping key as a name: scalars as written, anything else described. */
  static String key(Object k) {
    return k instanceof String || k instanceof Number || k instanceof Boolean ? clip(k.toString()) : describe(k);
  }

  /** {@code s} cut to {@link #MAX_QUOTE} characters, one line, marking the cut. */
  static String clip(String s) {
    return clip(s, MAX_QUOTE);
  }

  /** {@code s} cut to {@code max} characters, one line, marking the cut. */
  static String clip(String s, int max) {
    if (s == null) {
      return "";
    }
    String line = s.replace('\n', ' ').replace('\r', ' ');
    return line.length() <= max ? line : line.substring(0, max) + "...";
  }
}
