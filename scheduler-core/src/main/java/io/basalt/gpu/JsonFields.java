package io.basalt.gpu;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;

/**
 * Typed reads of one field of a device object in a node annotation. Gson's own getters throw four different
 * unchecked exceptions for a null, an object or a fraction where a number belongs; these check the shape first, so
 * every bad value becomes one {@link IllegalArgumentException} naming the annotation, the device and the field.
 */
final class JsonFields {
  /** Longer than any long's digits: a number this long is not read at all (BigDecimal's parse is quadratic). */
  private static final int MAX_NUMBER_CHARS = 32;

  private final String annotation;
  private final String where;

  /** @param where the device, e.g. {@code devices[3]}, as messages name it */
  JsonFields(String annotation, String where) {
    this.annotation = annotation;
    this.where = where;
  }

  /** A string (or a number, read as its text), "" when absent or null. */
  String text(JsonObject o, String field) {
    JsonElement e = o.get(field);
    if (e == null || e.isJsonNull()) {
      return "";
    }
    if (!e.isJsonPrimitive() || e.getAsJsonPrimitive().isBoolean()) {
      throw bad(field, "must be a string, not " + shape(e));
    }
    return e.getAsString();
  }

  /** A whole number in {@code min..max}; {@code absent} when the field is missing or null. */
  long whole(JsonObject o, String field, long min, long max, long absent) {
    JsonElement e = o.get(field);
    if (e == null || e.isJsonNull()) {
      return absent;
    }
    if (!e.isJsonPrimitive() || e.getAsJsonPrimitive().isBoolean()) {
      throw bad(field, "must be a whole number, not " + shape(e));
    }
    String text = e.getAsString().trim();
    long v;
    try {
      if (text.length() > MAX_NUMBER_CHARS) {
        throw new NumberFormatException();
      }
      v = new BigDecimal(text).longValueExact();
    } catch (NumberFormatException | ArithmeticException x) {
      throw bad(field, "'" + clip(text) + "' is not a whole number");
    }
    if (v < min || v > max) {
      throw bad(field, v + " is out of range " + min + ".." + max);
    }
    return v;
  }

  IllegalArgumentException bad(String field, String problem) {
    return GpuAnnotations.bad(annotation, where + "." + field + ": " + problem);
  }

  /** What a JSON value is, for messages: "an object", "a list", "true". */
  static String shape(JsonElement e) {
    if (e.isJsonObject()) {
      return "an object";
    }
    if (e.isJsonArray()) {
      return "a list";
    }
    if (e.isJsonNull()) {
      return "null";
    }
    JsonPrimitive p = e.getAsJsonPrimitive();
    return p.isBoolean() ? p.getAsString() : p.isNumber() ? "the number " + clip(p.getAsString())
        : "the string '" + clip(p.getAsString()) + "'";
  }

  static String clip(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
