package io.basalt.kube;

import com.google.gson.stream.JsonToken;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parser's complaint in the words of a manifest's author: "spec.taints: expected a list, got a mapping", never
 * Gson's "Expected BEGIN_ARRAY but was BEGIN_OBJECT at path $.spec.taints", a class name, or a Java stack message.
 * docs/RELIABILITY.md promises that a bad manifest or config is reported naming the object and field; the readers
 * pass what their parsers throw through here.
 */
final class ParserWords {
  private static final Pattern EXPECTED =
      Pattern.compile("Expected (\\w+) but was (\\w+)(?: at line \\d+ column \\d+)?(?: at)?(?: path)? \\$?\\.?(\\S*)");
  /** Gson reading a field typed as a JSON mapping or list (the DRA and Kueue kinds keep their spec so) from another. */
  private static final Pattern TREE = Pattern.compile(
      "Expected a (?:[\\w.]+\\.)?(Json\\w+) but was (?:[\\w.]+\\.)?(Json\\w+);? at path \\$?\\.?(\\S*)");
  private static final Pattern MALFORMED =
      Pattern.compile("(?:[\\w.]+Exception: )?(.*?) at line (\\d+) column (\\d+) path \\$\\.?(\\S*)");

  private ParserWords() {}

  /** What a value of {@code t} is: "a mapping", "a list", "a string", ... */
  static String token(JsonToken t) {
    if (t == null) {
      return "nothing";
    }
    return switch (t) {
      case BEGIN_OBJECT -> "a mapping";
      case BEGIN_ARRAY -> "a list";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case NAME -> "a field name";
      case END_OBJECT -> "the end of a mapping";
      case END_ARRAY -> "the end of a list";
      case END_DOCUMENT -> "the end of the document";
    };
  }

  /** A JSON path as a field: {@code $.spec.containers[0]} is {@code spec.containers[0]}; a trailing dot is dropped. */
  static String field(String path) {
    String p = path.startsWith("$") ? path.substring(1) : path;
    p = p.startsWith(".") ? p.substring(1) : p;
    return p.endsWith(".") ? p.substring(0, p.length() - 1) : p;
  }

  /**
   * What went wrong reading a document, in the author's words: "FIELD: expected a list, got a mapping" for a value of
   * the wrong shape, "unterminated array at line 1, column 102 (in spec.containers[1])" for broken JSON, and for
   * anything else that names no field, "a value of the wrong type or a missing one" rather than a Java message.
   */
  static String problem(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? "" : t.getMessage();
    int see = m.indexOf("\nSee ");
    m = see >= 0 ? m.substring(0, see) : m;
    Matcher x = EXPECTED.matcher(m);
    if (x.find()) {
      String field = field(x.group(3));
      String what = "expected " + token(x.group(1)) + ", got " + token(x.group(2));
      return field.isEmpty() ? what : field + ": " + what;
    }
    Matcher tree = TREE.matcher(m);
    if (tree.find()) {
      String field = field(tree.group(3));
      String what = "expected " + tree(tree.group(1)) + ", got " + tree(tree.group(2));
      return field.isEmpty() ? what : field + ": " + what;
    }
    Matcher bad = MALFORMED.matcher(m);
    if (bad.find()) {
      String field = field(bad.group(4));
      String what = bad.group(1);
      what = what.isEmpty() ? "malformed" : Character.toLowerCase(what.charAt(0)) + what.substring(1);
      return what + " at line " + bad.group(2) + ", column " + bad.group(3)
          + (field.isEmpty() ? "" : " (in " + field + ")");
    }
    if (t instanceof NullPointerException || t instanceof ClassCastException || t instanceof IndexOutOfBoundsException
        || t instanceof UnsupportedOperationException || m.isEmpty() || looksLikeJava(m)) {
      return "a value of the wrong type, or a missing one, where the object needs one";
    }
    return m;
  }

  private static String token(String gsonName) {
    try {
      return token(JsonToken.valueOf(gsonName));
    } catch (IllegalArgumentException e) {
      return gsonName.toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** What a Gson tree class holds: "a mapping" for JsonObject, ... */
  private static String tree(String gsonClass) {
    return switch (gsonClass) {
      case "JsonObject" -> "a mapping";
      case "JsonArray" -> "a list";
      case "JsonNull" -> "null";
      case "JsonPrimitive" -> "a string, number or boolean";
      default -> "a value";
    };
  }

  /** Gson's and the JDK's own words: a class name, "Not a JSON ...", "For input string". */
  private static boolean looksLikeJava(String m) {
    return m.contains("Exception") || m.startsWith("Not a JSON") || m.contains("JsonPrimitive")
        || m.contains("JsonObject") || m.contains("JsonArray") || m.contains("JsonNull")
        || m.startsWith("For input string") || m.contains("java.") || m.contains("com.google.");
  }
}
