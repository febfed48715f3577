package io.basalt.kube.fake;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The three PATCH body formats of the API server, applied to JSON trees:
 * <ul>
 *   <li>{@code application/merge-patch+json}: RFC 7386 (objects merge, null deletes, everything else replaces);</li>
 *   <li>{@code application/strategic-merge-patch+json}: apimachinery util/strategicpatch semantics for the parts
 *       clients use: maps merge recursively, null deletes, lists replace unless the field has a merge key
 *       ({@code status.conditions} by {@code type}, containers by {@code name}, ...) or is a merged primitive set
 *       ({@code metadata.finalizers}); directives {@code $patch: replace|delete} (map and list element),
 *       {@code $deleteFromPrimitiveList/FIELD}; {@code $setElementOrder/FIELD} and {@code $retainKeys} are accepted and
 *       ignored;</li>
 *   <li>{@code application/json-patch+json}: RFC 6902 (add, remove, replace, move, copy, test).</li>
 * </ul>
 * Failures throw {@link PatchException}. Inputs are never modified.
 */
final class Patches {
  /** Merge-key marker for lists of scalars with {@code patchStrategy:"merge"} (merged as a set). */
  static final String PRIMITIVE_SET = "<primitive>";

  private Patches() {
  }

  /** A patch that cannot be applied; the server answers 422 (json-patch) or 400 (malformed). */
  static final class PatchException extends RuntimeException {
    PatchException(String message) {
      super(message);
    }
  }

  // ---- RFC 7386 -------------------------------------------------------------------------------------------------

  static JsonElement mergePatch(JsonElement target, JsonElement patch) {
    if (!patch.isJsonObject()) {
      return patch.deepCopy();
    }
    JsonObject result = target != null && target.isJsonObject() ? target.getAsJsonObject().deepCopy()
        : new JsonObject();
    for (Map.Entry<String, JsonElement> e : patch.getAsJsonObject().entrySet()) {
      if (e.getValue().isJsonNull()) {
        result.remove(e.getKey());
      } else {
        result.add(e.getKey(), mergePatch(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }

  // ---- strategic merge patch ------------------------------------------------------------------------------------

  static JsonObject strategicMerge(JsonObject target, JsonObject patch, Map<String, String> mergeKeys) {
    JsonObject result = smpObject(target.deepCopy(), patch, "", mergeKeys);
    return result == null ? new JsonObject() : result;
  }

  /** Merges {@code patch} into {@code target} (owned); null means "delete this map" ({@code $patch: delete}). */
  private static JsonObject smpObject(JsonObject target, JsonObject patch, String path, Map<String, String> keys) {
    JsonElement directive = patch.get("$patch");
    if (directive != null) {
      String d = directive.getAsString();
      if (d.equals("delete")) {
        return null;
      }
      if (d.equals("replace")) {
        return stripDirectives(patch).getAsJsonObject();
      }
      throw new PatchException("Unsupported strategic merge patch format: $patch: " + d);
    }
    for (Map.Entry<String, JsonElement> e : patch.entrySet()) {
      String key = e.getKey();
      JsonElement value = e.getValue();
      if (key.startsWith("$setElementOrder/") || key.equals("$retainKeys")) {
        continue;
      }
      if (key.startsWith("$deleteFromPrimitiveList/")) {
        String field = key.substring("$deleteFromPrimitiveList/".length());
        JsonElement current = target.get(field);
        if (current != null && current.isJsonArray() && value.isJsonArray()) {
          JsonArray kept = new JsonArray();
          for (JsonElement item : current.getAsJsonArray()) {
            if (!value.getAsJsonArray().contains(item)) {
              kept.add(item);
            }
          }
          target.add(field, kept);
        }
        continue;
      }
      String child = path.isEmpty() ? key : path + "." + key;
      JsonElement current = target.get(key);
      if (value.isJsonNull()) {
        target.remove(key);
      } else if (value.isJsonObject()) {
        JsonObject base = current != null && current.isJsonObject() ? current.getAsJsonObject() : new JsonObject();
        JsonObject merged = smpObject(base, value.getAsJsonObject(), child, keys);
        if (merged == null) {
          target.remove(key);
        } else {
          target.add(key, merged);
        }
      } else if (value.isJsonArray()) {
        target.add(key, smpList(current, value.getAsJsonArray(), child, keys));
      } else {
        target.add(key, value.deepCopy());
      }
    }
    return target;
  }

  private static JsonArray smpList(JsonElement current, JsonArray patch, String path, Map<String, String> keys) {
    String mergeKey = keys.get(path);
    JsonArray base = current != null && current.isJsonArray() ? current.getAsJsonArray().deepCopy() : new JsonArray();
    if (mergeKey == null) {
      return stripDirectives(patch).getAsJsonArray();
    }
    if (mergeKey.equals(PRIMITIVE_SET)) {
      for (JsonElement item : patch) {
        if (!base.contains(item)) {
          base.add(item.deepCopy());
        }
      }
      return base;
    }
    for (JsonElement item : patch) {
      if (item.isJsonObject() && item.getAsJsonObject().has("$patch")
          && "replace".equals(item.getAsJsonObject().get("$patch").getAsString())) {
        JsonArray replaced = new JsonArray();
        for (JsonElement other : patch) {
          if (other != item) {
            replaced.add(stripDirectives(other));
          }
        }
        return replaced;
      }
    }
    for (JsonElement item : patch) {
      if (!item.isJsonObject() || !item.getAsJsonObject().has(mergeKey)) {
        throw new PatchException("map: " + item + " does not contain declared merge key: " + mergeKey);
      }
      JsonObject element = item.getAsJsonObject();
      int index = indexOf(base, mergeKey, element.get(mergeKey));
      boolean delete = element.has("$patch") && "delete".equals(element.get("$patch").getAsString());
      if (delete) {
        if (index >= 0) {
          base.remove(index);
        }
      } else if (index >= 0) {
        JsonObject merged = smpObject(base.get(index).getAsJsonObject(), element, path, keys);
        base.set(index, merged == null ? JsonNull.INSTANCE : merged);
      } else {
        base.add(stripDirectives(element));
      }
    }
    return base;
  }

  private static int indexOf(JsonArray list, String key, JsonElement value) {
    for (int i = 0; i < list.size(); i++) {
      JsonElement e = list.get(i);
      if (e.isJsonObject() && value.equals(e.getAsJsonObject().get(key))) {
        return i;
      }
    }
    return -1;
  }

  private static JsonElement stripDirectives(JsonElement e) {
    if (e.isJsonObject()) {
      JsonObject out = new JsonObject();
      for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet()) {
        if (!m.getKey().startsWith("$") && !m.getValue().isJsonNull()) {
          out.add(m.getKey(), stripDirectives(m.getValue()));
        }
      }
      return out;
    }
    if (e.isJsonArray()) {
      JsonArray out = new JsonArray();
      e.getAsJsonArray().forEach(x -> out.add(stripDirectives(x)));
      return out;
    }
    return e.deepCopy();
  }

  // ---- RFC 6902 -------------------------------------------------------------------------------------------------

  static JsonElement jsonPatch(JsonElement target, JsonArray ops) {
    JsonObject holder = new JsonObject();
    holder.add("", target.deepCopy());
    for (JsonElement opElement : ops) {
      if (!opElement.isJsonObject() || !opElement.getAsJsonObject().has("op")) {
        throw new PatchException("invalid json patch operation: " + opElement);
      }
      JsonObject op = opElement.getAsJsonObject();
      String name = op.get("op").getAsString();
      String path = string(op, "path");
      switch (name) {
        case "add" -> add(holder, path, value(op));
        case "remove" -> remove(holder, path);
        case "replace" -> {
          remove(holder, path);
          add(holder, path, value(op));
        }
        case "move" -> {
          JsonElement moved = get(holder, string(op, "from"));
          remove(holder, string(op, "from"));
          add(holder, path, moved);
        }
        case "copy" -> add(holder, path, get(holder, string(op, "from")).deepCopy());
        case "test" -> {
          if (!get(holder, path).equals(value(op))) {
            throw new PatchException("testing value " + path + " failed: test failed");
          }
        }
        default -> throw new PatchException("Unexpected kind: " + name);
      }
    }
    return holder.get("");
  }

  private static String string(JsonObject op, String field) {
    if (!op.has(field) || !op.get(field).isJsonPrimitive()) {
      throw new PatchException("operation missing " + field + " field: " + op);
    }
    return op.get(field).getAsString();
  }

  private static JsonElement value(JsonObject op) {
    if (!op.has("value")) {
      throw new PatchException("missing value for operation " + op);
    }
    return op.get("value").deepCopy();
  }

  /** "" is the whole document, held under key "" of the holder so every op has a parent. */
  private static List<String> tokens(String pointer) {
    List<String> out = new ArrayList<>();
    out.add("");
    if (pointer.isEmpty()) {
      return out;
    }
    if (!pointer.startsWith("/")) {
      throw new PatchException("JSON pointer must start with /: " + pointer);
    }
    for (String raw : pointer.substring(1).split("/", -1)) {
      out.add(raw.replace("~1", "/").replace("~0", "~"));
    }
    return out;
  }

  private static JsonElement walk(JsonObject holder, List<String> tokens, int count, String pointer) {
    JsonElement node = holder;
    for (int i = 0; i < count; i++) {
      node = child(node, tokens.get(i));
      if (node == null) {
        throw new PatchException("doc is missing path: \"" + pointer + "\": missing value");
      }
    }
    return node;
  }

  private static JsonElement child(JsonElement node, String token) {
    if (node.isJsonObject()) {
      return node.getAsJsonObject().get(token);
    }
    if (node.isJsonArray()) {
      int i = index(token, node.getAsJsonArray().size() - 1);
      return node.getAsJsonArray().get(i);
    }
    return null;
  }

  private static int index(String token, int max) {
    try {
      int i = Integer.parseInt(token);
      if (i < 0 || i > max) {
        throw new PatchException("Unable to access invalid index: " + i);
      }
      return i;
    } catch (NumberFormatException e) {
      throw new PatchException("Unable to access invalid index: " + token);
    }
  }

  private static JsonElement get(JsonObject holder, String pointer) {
    List<String> t = tokens(pointer);
    return walk(holder, t, t.size(), pointer);
  }

  private static void add(JsonObject holder, String pointer, JsonElement value) {
    List<String> t = tokens(pointer);
    JsonElement parent = walk(holder, t, t.size() - 1, pointer);
    String last = t.get(t.size() - 1);
    if (parent.isJsonObject()) {
      parent.getAsJsonObject().add(last, value);
    } else if (parent.isJsonArray()) {
      JsonArray array = parent.getAsJsonArray();
      int at = last.equals("-") ? array.size() : index(last, array.size());
      List<JsonElement> items = new ArrayList<>(array.asList());
      items.add(at, value);
      while (array.size() > 0) {
        array.remove(0);
      }
      items.forEach(array::add);
    } else {
      throw new PatchException("add operation does not apply: doc is missing path: \"" + pointer + "\"");
    }
  }

  private static void remove(JsonObject holder, String pointer) {
    List<String> t = tokens(pointer);
    JsonElement parent = walk(holder, t, t.size() - 1, pointer);
    String last = t.get(t.size() - 1);
    if (parent.isJsonObject() && parent.getAsJsonObject().has(last)) {
      parent.getAsJsonObject().remove(last);
    } else if (parent.isJsonArray()) {
      parent.getAsJsonArray().remove(index(last, parent.getAsJsonArray().size() - 1));
    } else {
      throw new PatchException("doc is missing path: \"" + pointer + "\": missing value");
    }
  }
}
