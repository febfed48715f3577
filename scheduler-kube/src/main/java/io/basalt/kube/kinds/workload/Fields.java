package io.basalt.kube.kinds.workload;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;

/**
 * Typed reads of a workload's JSON tree. Why not Gson binding: these kinds have no client-java model, and a wrong
 * type must become an error naming the field ({@code spec.tasks[1].replicas}), not an exception.
 */
final class Fields {
  private Fields() {}

  /** The mapping at {@code key}, or null when absent or null; {@link Malformed} when it is something else. */
  static JsonObject object(JsonObject o, String key, String path) {
    JsonElement e = o == null ? null : o.get(key);
    if (e == null || e.isJsonNull()) {
      return null;
    }
    if (!e.isJsonObject()) {
      throw new Malformed(path, "expected a mapping");
    }
    return e.getAsJsonObject();
  }

  /** The list at {@code key}, or null when absent or null; {@link Malformed} when it is something else. */
  static JsonArray array(JsonObject o, String key, String path) {
    JsonElement e = o == null ? null : o.get(key);
    if (e == null || e.isJsonNull()) {
      return null;
    }
    if (!e.isJsonArray()) {
      throw new Malformed(path, "expected a list");
    }
    return e.getAsJsonArray();
  }

  /** The scalar at {@code key} as text; null when absent, null or not a scalar. */
  static String string(JsonObject o, String key) {
    JsonElement e = o == null ? null : o.get(key);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
  }

  /** True only for a YAML/JSON boolean {@code true}. */
  static boolean isTrue(JsonObject o, String key) {
    JsonElement e = o == null ? null : o.get(key);
    return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isBoolean() && e.getAsBoolean();
  }

  /**
   * A count (replicas, parallelism, minAvailable): null when absent; {@link Malformed} when not a whole number (the
   * API server rejects {@code "3"} and {@code 1.5} for these int32 fields) or negative.
   */
  static Integer count(JsonObject o, String key, String path) {
    JsonElement e = o == null ? null : o.get(key);
    if (e == null || e.isJsonNull()) {
      return null;
    }
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
      throw new Malformed(path, "not a number (" + e + ")");
    }
    BigDecimal n;
    try {
      n = new BigDecimal(((JsonPrimitive) e).getAsString());
    } catch (NumberFormatException ex) {
      throw new Malformed(path, "not a number (" + e + ")");
    }
    if (n.signum() < 0) {
      throw new Malformed(path, "must not be negative (" + n + ")");
    }
    try {
      return n.intValueExact();
    } catch (ArithmeticException ex) {
      throw new Malformed(path, "not a whole number of at most 2^31-1 (" + n + ")");
    }
  }

  /**
   * A count of pods to create ({@code replicas}, {@code parallelism}): as {@link #count}, and at most
   * {@link Sink#MAX_PODS}, so a workload asking for a billion pods is one error line, not a hang.
   */
  static Integer pods(JsonObject o, String key, String path) {
    Integer n = count(o, key, path);
    if (n != null && n > Sink.MAX_PODS) {
      throw new Malformed(path, n + " pods: more than the " + Sink.MAX_PODS + " one workload is expanded to");
    }
    return n;
  }
}
