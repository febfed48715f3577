package io.basalt.testing;

import java.util.List;
import java.util.Random;

/**
 * Seeded hostile text for the annotation parsers: JSON of every wrong shape (nulls, objects where numbers belong,
 * numbers beyond every range, deep nesting, arrays of tens of thousands of devices), HAMi-style field lists, and
 * character-level mutants of valid values. The same seed gives the same inputs, so a failure names the seed that
 * reproduces it.
 */
public final class FuzzJson {
  /** Values that once broke a parser or sit on a boundary: every JSON type, every numeric edge. */
  private static final List<String> SCALARS = List.of("null", "true", "false", "0", "-1", "1", "7", "63", "64", "65",
      "0.5", "-0.0", "1e3", "1e400", "-1e400", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
      "9223372036854775808", "99999999999999999999999999999999999999999", "1" + "0".repeat(300), "NaN", "Infinity",
      "\"\"", "\" \"", "\"0\"", "\"1\"", "\"-1\"", "\"1e400\"", "\"X\"", "\"NV18\"", "\"NV0\"", "\"NV99999999\"",
      "\"NV-1\"", "\"MX4\"", "\"PHB\"", "\"SYS\"", "\"nv\"", "\"GPU-0\"", "\"GPU-1\"", "\"\\u0000\"", "\"\\uD800\"",
      "\"true\"", "\"null\"", "[]", "{}", "[null]", "[[]]", "{\"a\":1}");
  /** Keys the GPU annotations read, so random objects hit real fields with wrong values. */
  private static final List<String> KEYS = List.of("index", "uuid", "model", "memoryMiB", "devices", "links",
      "totalVRam", "linkZone", "id", "count", "devmem", "devcore", "type", "numa", "health", "mode", "compute",
      "vRam", "x");
  private static final String CHARS = ",:;[]{}\"\\ -.0123456789eE+NVXnulltrfasGPU\u0000\u00e9\u2028\uD800\t\n";

  private final Random random;
  /** Values {@link #value} may still make: keeps random nesting of wide lists from growing without bound. */
  private int budget;

  public FuzzJson(long seed) {
    this.random = new Random(seed);
  }

  public Random random() {
    return random;
  }

  /** One of: random JSON, a deep or huge value, a mutant of one of {@code valid}, or random characters. */
  public String next(List<String> valid) {
    budget = 300;
    return switch (random.nextInt(10)) {
      case 0 -> deep();
      case 1 -> huge();
      case 2 -> chars(random.nextInt(64));
      case 3, 4, 5 -> mutate(valid.get(random.nextInt(valid.size())));
      default -> value(0);
    };
  }

  /** A random JSON value, biased towards lists of objects with the annotations' keys. */
  public String value(int depth) {
    int pick = depth > 4 || --budget < 0 ? 0 : random.nextInt(6);
    if (pick <= 1) {
      return SCALARS.get(random.nextInt(SCALARS.size()));
    }
    StringBuilder sb = new StringBuilder();
    int n = random.nextInt(random.nextInt(10) == 0 ? 100 : 9);
    if (pick <= 3) {
      sb.append('[');
      for (int i = 0; i < n; i++) {
        sb.append(i > 0 ? "," : "").append(value(depth + 1));
      }
      return sb.append(']').toString();
    }
    sb.append('{');
    for (int i = 0; i < n; i++) {
      String key = random.nextInt(8) == 0 ? "\"" + chars(3).replace("\"", "") + "\""
          : "\"" + KEYS.get(random.nextInt(KEYS.size())) + "\"";
      sb.append(i > 0 ? "," : "").append(key.replace("\\", "")).append(':').append(value(depth + 1));
    }
    return sb.append('}').toString();
  }

  /** Nesting far beyond any parser's recursion (Gson stops at 255): lists, objects or both. */
  public String deep() {
    int n = 300 + random.nextInt(5_000);
    return switch (random.nextInt(3)) {
      case 0 -> "[".repeat(n) + "]".repeat(n);
      case 1 -> "{\"devices\":".repeat(n) + "1" + "}".repeat(n);
      default -> "[{\"index\":".repeat(n);
    };
  }

  /** Arrays of thousands of devices or link codes (the n x n matrix once made before the bounds check). */
  public String huge() {
    int n = 65 + random.nextInt(random.nextBoolean() ? 200 : 5_000);
    String item = switch (random.nextInt(4)) {
      case 0 -> "{}";
      case 1 -> "{\"id\":\"g\",\"health\":true}";
      case 2 -> "{\"index\":0}";
      default -> "\"NV1\"";
    };
    StringBuilder sb = new StringBuilder(random.nextBoolean() ? "[" : "{\"devices\":[");
    for (int i = 0; i < n; i++) {
      sb.append(i > 0 ? "," : "").append(item);
    }
    sb.append(']');
    return sb.charAt(0) == '{' ? sb.append(",\"links\":[]}").toString() : sb.toString();
  }

  /** {@code n} random characters, JSON and HAMi separators among them. */
  public String chars(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(CHARS.charAt(random.nextInt(CHARS.length())));
    }
    return sb.toString();
  }

  /** {@code text} with one to four edits: a character inserted, deleted, a span cut or repeated, a value swapped. */
  public String mutate(String text) {
    String t = text;
    for (int n = 1 + random.nextInt(4); n > 0; n--) {
      int at = random.nextInt(t.length() + 1);
      int end = Math.min(t.length(), at + random.nextInt(12));
      t = switch (random.nextInt(5)) {
        case 0 -> t.substring(0, at) + chars(1) + t.substring(at);
        case 1 -> t.substring(0, at) + t.substring(end);
        case 2 -> t.substring(0, at) + t.substring(at, end).repeat(random.nextInt(200)) + t.substring(end);
        case 3 -> t.substring(0, at) + SCALARS.get(random.nextInt(SCALARS.size())) + t.substring(end);
        default -> t.substring(0, at);
      };
    }
    return t;
  }
}
