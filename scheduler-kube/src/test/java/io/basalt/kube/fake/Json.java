package io.basalt.kube.fake;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** JSON tree helpers: one Gson for the wire, metadata accessors and null stripping. */
final class Json {
  /** Writes explicit nulls (Go writes {@code "lastProbeTime": null}) and leaves '=' and '<' unescaped. */
  static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();
  /** apimachinery ObjectMeta field order. */
  private static final List<String> META_ORDER = List.of("name", "generateName", "namespace", "uid",
      "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
      "labels", "annotations", "ownerReferences", "finalizers");

  private Json() {
  }

  static JsonElement parse(String text) {
    try {
      return JsonParser.parseString(text);
    } catch (JsonParseException | IllegalStateException e) {
      throw Statuses.badRequest("the object provided is unrecognized (must be of type JSON): " + e.getMessage());
    }
  }

  static JsonObject parseObject(String text) {
    JsonElement e = parse(text);
    if (!e.isJsonObject()) {
      throw Statuses.badRequest("the object provided is unrecognized (must be a JSON object)");
    }
    return e.getAsJsonObject();
  }

  static String write(JsonElement e) {
    return GSON.toJson(e);
  }

  static JsonObject meta(JsonObject obj) {
    JsonElement m = obj.get("metadata");
    if (m == null || !m.isJsonObject()) {
      JsonObject fresh = new JsonObject();
      obj.add("metadata", fresh);
      return fresh;
    }
    return m.getAsJsonObject();
  }

  static String str(JsonObject obj, String field) {
    if (obj == null) {
      return "";
    }
    JsonElement e = obj.get(field);
    return e == null || e.isJsonNull() || !e.isJsonPrimitive() ? "" : e.getAsString();
  }

  static String name(JsonObject obj) {
    return str(meta(obj), "name");
  }

  static String namespace(JsonObject obj) {
    return str(meta(obj), "namespace");
  }

  static String resourceVersion(JsonObject obj) {
    return str(meta(obj), "resourceVersion");
  }

  static JsonObject child(JsonObject obj, String field) {
    JsonElement e = obj == null ? null : obj.get(field);
    return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
  }

  static JsonObject childOrCreate(JsonObject obj, String field) {
    JsonObject c = child(obj, field);
    if (c == null) {
      c = new JsonObject();
      obj.add(field, c);
    }
    return c;
  }

  static boolean hasFinalizers(JsonObject obj) {
    JsonElement f = meta(obj).get("finalizers");
    return f != null && f.isJsonArray() && !f.getAsJsonArray().isEmpty();
  }

  /** Field order as a real server writes it: kind, apiVersion, metadata (Go struct order), then the rest. */
  static JsonObject canonical(JsonObject obj) {
    JsonObject out = new JsonObject();
    out.add("kind", obj.get("kind"));
    out.add("apiVersion", obj.get("apiVersion"));
    JsonObject meta = Json.meta(obj);
    JsonObject orderedMeta = new JsonObject();
    META_ORDER.stream().filter(meta::has).forEach(f -> orderedMeta.add(f, meta.get(f)));
    meta.entrySet().stream().filter(e -> !orderedMeta.has(e.getKey()))
        .forEach(e -> orderedMeta.add(e.getKey(), e.getValue()));
    out.add("metadata", orderedMeta);
    obj.entrySet().stream().filter(e -> !out.has(e.getKey())).forEach(e -> out.add(e.getKey(), e.getValue()));
    return out;
  }

  /** Removes null members recursively (a stored object never holds them; patches use null to delete). */
  static JsonElement stripNulls(JsonElement e) {
    if (e.isJsonObject()) {
      Iterator<Map.Entry<String, JsonElement>> it = e.getAsJsonObject().entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonElement> m = it.next();
        if (m.getValue().isJsonNull()) {
          it.remove();
        } else {
          stripNulls(m.getValue());
        }
      }
    } else if (e.isJsonArray()) {
      for (JsonElement x : e.getAsJsonArray()) {
        stripNulls(x);
      }
    }
    return e;
  }

  /**
   * Removes empty arrays and empty objects recursively. For built-in kinds this is what a Go round trip does to
   * omitempty slices and maps (client-java sends {@code "env": []}, {@code "nodeSelector": {}} for unset fields);
   * it lets an unchanged object read back through client-java compare equal to the stored one.
   */
  static JsonElement pruneEmpty(JsonElement e) {
    if (e.isJsonObject()) {
      Iterator<Map.Entry<String, JsonElement>> it = e.getAsJsonObject().entrySet().iterator();
      while (it.hasNext()) {
        JsonElement v = pruneEmpty(it.next().getValue());
        if ((v.isJsonArray() && v.getAsJsonArray().isEmpty()) || (v.isJsonObject() && v.getAsJsonObject().isEmpty())) {
          it.remove();
        }
      }
    } else if (e.isJsonArray()) {
      for (JsonElement x : e.getAsJsonArray()) {
        pruneEmpty(x);
      }
    }
    return e;
  }

  /** RFC 3339 with second precision, as metav1.Time marshals. */
  static String now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
  }

  static String timestamp(Instant at) {
    return at.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  static JsonArray array(JsonElement... items) {
    JsonArray a = new JsonArray();
    for (JsonElement i : items) {
      a.add(i);
    }
    return a;
  }
}
