package io.basalt.kube.fake;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Label and field selectors as the API server parses them (apimachinery pkg/labels/selector.go and
 * pkg/fields/selector.go): labels support {@code k=v}, {@code k==v}, {@code k!=v}, {@code k in (a,b)},
 * {@code k notin (a,b)}, {@code k}, {@code !k}, {@code k>n}, {@code k<n}; fields support {@code =}, {@code ==},
 * {@code !=} with backslash escapes. A field the kind does not index is a 400, as on a real server; a missing field
 * value reads as "" so {@code spec.nodeName=} selects unassigned pods.
 */
final class Selectors {
  private static final Pattern SET_REQ = Pattern.compile("^([^\\s!=<>(),]+)\\s+(in|notin)\\s*\\((.*)\\)$");
  private static final Pattern OP_REQ = Pattern.compile("^([^\\s!=<>(),]+)\\s*(==|!=|=|>|<)\\s*([^\\s,()]*)$");
  private static final Pattern KEY = Pattern.compile("^!?\\s*[A-Za-z0-9][-A-Za-z0-9_./]*$");
  /** Selectable fields whose value is not at the same dotted path (event {@code source} is source.component). */
  private static final Map<String, String> ALIASES = Map.of("source", "source.component");
  private static final Set<String> FALSE_WHEN_MISSING = Set.of("spec.hostNetwork", "spec.unschedulable");

  private Selectors() {
  }

  static Predicate<JsonObject> labels(String selector) {
    if (selector == null || selector.isBlank()) {
      return o -> true;
    }
    List<Predicate<JsonObject>> reqs = new ArrayList<>();
    for (String term : splitTopLevel(selector.trim())) {
      reqs.add(labelRequirement(term.trim(), selector));
    }
    return o -> reqs.stream().allMatch(r -> r.test(o));
  }

  private static Predicate<JsonObject> labelRequirement(String term, String whole) {
    Matcher set = SET_REQ.matcher(term);
    if (set.matches()) {
      String key = set.group(1);
      Set<String> values = Arrays.stream(set.group(3).split(",")).map(String::trim).filter(v -> !v.isEmpty())
          .collect(Collectors.toSet());
      if (values.isEmpty()) {
        throw Statuses.badRequest("unable to parse requirement: for 'in', 'notin' operators, values set can't be empty");
      }
      boolean in = set.group(2).equals("in");
      return o -> {
        String v = label(o, key);
        return in ? v != null && values.contains(v) : v == null || !values.contains(v);
      };
    }
    Matcher op = OP_REQ.matcher(term);
    if (op.matches()) {
      String key = op.group(1);
      String value = op.group(3);
      return switch (op.group(2)) {
        case "=", "==" -> o -> value.equals(label(o, key));
        case "!=" -> o -> !value.equals(label(o, key));
        default -> {
          long bound = parseLong(value, whole);
          boolean gt = op.group(2).equals(">");
          yield o -> {
            String v = label(o, key);
            if (v == null) {
              return false;
            }
            try {
              long n = Long.parseLong(v);
              return gt ? n > bound : n < bound;
            } catch (NumberFormatException e) {
              return false;
            }
          };
        }
      };
    }
    if (KEY.matcher(term).matches()) {
      boolean negate = term.startsWith("!");
      String key = negate ? term.substring(1).trim() : term;
      return o -> negate == (label(o, key) == null);
    }
    throw Statuses.badRequest("unable to parse requirement: invalid label selector: \"" + whole + "\"");
  }

  private static long parseLong(String value, String whole) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw Statuses.badRequest("unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer: "
          + whole);
    }
  }

  private static String label(JsonObject o, String key) {
    JsonObject meta = o.getAsJsonObject("metadata");
    if (meta == null || !meta.has("labels") || !meta.get("labels").isJsonObject()) {
      return null;
    }
    JsonElement v = meta.getAsJsonObject("labels").get(key);
    return v == null || v.isJsonNull() ? null : v.getAsString();
  }

  private static List<String> splitTopLevel(String s) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    StringBuilder cur = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      }
      if (c == ',' && depth == 0) {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out;
  }

  static Predicate<JsonObject> fields(String selector, ResourceType type) {
    if (selector == null || selector.isBlank()) {
      return o -> true;
    }
    List<Predicate<JsonObject>> reqs = new ArrayList<>();
    for (String term : splitEscaped(selector)) {
      reqs.add(fieldRequirement(term, type));
    }
    return o -> reqs.stream().allMatch(r -> r.test(o));
  }

  private static Predicate<JsonObject> fieldRequirement(String term, ResourceType type) {
    int at = -1;
    String op = null;
    for (int i = 0; i < term.length(); i++) {
      if (term.charAt(i) == '\\') {
        i++;
        continue;
      }
      if (term.startsWith("!=", i)) {
        op = "!=";
      } else if (term.startsWith("==", i)) {
        op = "==";
      } else if (term.charAt(i) == '=') {
        op = "=";
      }
      if (op != null) {
        at = i;
        break;
      }
    }
    if (op == null) {
      throw Statuses.badRequest("invalid selector: '" + term + "'; can't understand '" + term + "'");
    }
    String field = term.substring(0, at).trim();
    String value = unescape(term.substring(at + op.length()));
    if (!type.selectableField(field)) {
      throw Statuses.badRequest("field label not supported: " + field);
    }
    boolean equal = !op.equals("!=");
    return o -> equal == value.equals(fieldValue(o, field));
  }

  /**
   * What label and field selectors read of {@code o}: its name, namespace and labels and each field the kind can be
   * selected by, at their paths; a selector tests this as it would the whole object.
   */
  static JsonObject selectable(JsonObject o, ResourceType type) {
    JsonObject out = new JsonObject();
    JsonObject meta = new JsonObject();
    JsonObject from = o.getAsJsonObject("metadata");
    if (from != null) {
      for (String f : List.of("name", "namespace", "labels")) {
        if (from.has(f)) {
          meta.add(f, from.get(f).deepCopy());
        }
      }
    }
    out.add("metadata", meta);
    for (String field : type.selectableFields()) {
      String[] path = ALIASES.getOrDefault(field, field).split("\\.");
      JsonElement node = o;
      for (String part : path) {
        node = node != null && node.isJsonObject() ? node.getAsJsonObject().get(part) : null;
      }
      if (node == null) {
        continue;
      }
      JsonObject at = out;
      for (int i = 0; i < path.length - 1; i++) {
        JsonElement next = at.get(path[i]);
        if (next == null || !next.isJsonObject()) {
          next = new JsonObject();
          at.add(path[i], next);
        }
        at = next.getAsJsonObject();
      }
      at.add(path[path.length - 1], node.deepCopy());
    }
    return out;
  }

  /** The string value of a selectable field: missing is "", booleans and numbers print as Go's strconv does. */
  static String fieldValue(JsonObject o, String field) {
    JsonElement node = o;
    for (String part : ALIASES.getOrDefault(field, field).split("\\.")) {
      if (node == null || !node.isJsonObject()) {
        node = null;
        break;
      }
      node = node.getAsJsonObject().get(part);
    }
    if (node == null || node.isJsonNull()) {
      return FALSE_WHEN_MISSING.contains(field) ? "false" : "";
    }
    return node.isJsonPrimitive() ? node.getAsString() : node.toString();
  }

  private static List<String> splitEscaped(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        cur.append(c).append(s.charAt(++i));
      } else if (c == ',') {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out;
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        out.append(s.charAt(++i));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
