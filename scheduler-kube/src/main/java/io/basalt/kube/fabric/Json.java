package io.basalt.kube.fabric;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;

/**
 * Typed reads of a topology document's JSON tree. A wrong shape throws {@link Bad} naming the field, which the
 * readers turn into one problem line and skip that part; callers never see the exception.
 */
final class Json {
  private Json() {}

  /** A value of the wrong shape at {@code field}. */
  static final class Bad extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String field;

    /** Problems quote the value found; a longer one is cut here so a problem stays one readable line. */
    private static final int MAX_PROBLEM = 200;

    Bad(String field, String problem) {
      super(problem.length() <= MAX_PROBLEM ? problem : problem.substring(0, MAX_PROBLEM) + "...");
      this.field = field;
    }
  }

  static boolean present(JsonObject o, String key) {
    JsonElement e = o == null ? null : o.get(key);
    return e != null && !e.isJsonNull();
  }

  /** The mapping at {@code key}, or null when absent. */
  static JsonObject object(JsonObject o, String key, String field) {
    if (!present(o, key)) {
      return null;
    }
    JsonElement e = o.get(key);
    if (!e.isJsonObject()) {
      throw new Bad(field, "expected a mapping, got " + e);
    }
    return e.getAsJsonObject();
  }

  /** The list at {@code key}, or null when absent. */
  static JsonArray array(JsonObject o, String key, String field) {
    if (!present(o, key)) {
      return null;
    }
    JsonElement e = o.get(key);
    if (!e.isJsonArray()) {
      throw new Bad(field, "expected a list, got " + e);
    }
    return e.getAsJsonArray();
  }

  /** The text at {@code key}, or null when absent; a mapping or list there is {@link Bad}. */
  static String string(JsonObject o, String key, String field) {
    if (!present(o, key)) {
      return null;
    }
    JsonElement e = o.get(key);
    if (!e.isJsonPrimitive()) {
      throw new Bad(field, "expected text, got " + e);
    }
    return e.getAsString();
  }

  /** The whole number at {@code key}, or null when absent; text, a fraction or an overflow is {@link Bad}. */
  static Integer integer(JsonObject o, String key, String field) {
    if (!present(o, key)) {
      return null;
    }
    JsonElement e = o.get(key);
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
      throw new Bad(field, "expected a whole number, got " + e);
    }
    try {
      return new BigDecimal(((JsonPrimitive) e).getAsString()).intValueExact();
    } catch (NumberFormatException | ArithmeticException ex) {
      throw new Bad(field, "expected a whole number, got " + e);
    }
  }

  /** The mapping at index {@code i} of {@code a}. */
  static JsonObject item(JsonArray a, int i, String field) {
    JsonElement e = a.get(i);
    if (e == null || !e.isJsonObject()) {
      throw new Bad(field, "expected a mapping, got " + e);
    }
    return e.getAsJsonObject();
  }
}
