package io.basalt.kube.kinds.workload;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * Builds the documents controllers create: a pod from a pod template (as every controller here does: the template's
 * labels, annotations and spec, deep-copied, then the controller's own keys on top), and the metadata they share.
 */
final class Docs {
  private Docs() {}

  /**
   * A pod of {@code template} ({@code path} names it in errors): {@link Malformed} when the template has no spec or
   * no containers, which the API server would reject for every pod the controller tried to create.
   */
  static JsonObject pod(JsonObject template, String path, String name, Owner owner) {
    if (template == null) {
      throw new Malformed(path, "missing");
    }
    JsonObject spec = Fields.object(template, "spec", path + ".spec");
    JsonArray containers = spec == null ? null : Fields.array(spec, "containers", path + ".spec.containers");
    if (containers == null || containers.isEmpty()) {
      throw new Malformed(path + ".spec.containers", "a pod template needs at least one container");
    }
    JsonObject templateMeta = Fields.object(template, "metadata", path + ".metadata");
    JsonObject pod = new JsonObject();
    pod.addProperty("apiVersion", "v1");
    pod.addProperty("kind", "Pod");
    JsonObject meta = metadata(name, owner);
    copyMap(templateMeta, "labels", meta, path);
    copyMap(templateMeta, "annotations", meta, path);
    pod.add("metadata", meta);
    pod.add("spec", spec.deepCopy());
    return pod;
  }

  /** Metadata of an object {@code owner}'s controller creates: name, the owner's namespace, the owner reference. */
  static JsonObject metadata(String name, Owner owner) {
    JsonObject meta = new JsonObject();
    meta.addProperty("name", name);
    meta.addProperty("namespace", owner.namespace());
    JsonArray refs = new JsonArray();
    refs.add(owner.reference());
    meta.add("ownerReferences", refs);
    return meta;
  }

  static void label(JsonObject doc, String key, String value) {
    map(doc, "labels").addProperty(key, value);
  }

  static void annotate(JsonObject doc, String key, String value) {
    map(doc, "annotations").addProperty(key, value);
  }

  /** Sets {@code spec.<key>} unless the template already set it (non-empty), as controllers fill defaults. */
  static void specDefault(JsonObject pod, String key, String value) {
    if (value == null || value.isEmpty()) {
      return;
    }
    JsonObject spec = pod.getAsJsonObject("spec");
    String current = Fields.string(spec, key);
    if (current == null || current.isEmpty()) {
      spec.addProperty(key, value);
    }
  }

  /** {@code doc.metadata.<which>}, created when missing. */
  static JsonObject map(JsonObject doc, String which) {
    JsonObject meta = doc.getAsJsonObject("metadata");
    JsonElement m = meta.get(which);
    if (m == null || !m.isJsonObject()) {
      JsonObject created = new JsonObject();
      meta.add(which, created);
      return created;
    }
    return m.getAsJsonObject();
  }

  private static void copyMap(JsonObject from, String which, JsonObject toMeta, String path) {
    JsonObject m = Fields.object(from, which, path + ".metadata." + which);
    if (m != null) {
      toMeta.add(which, m.deepCopy());
    }
  }
}
