package io.basalt.kube.kinds.workload;

import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The object a generated pod, Job or PodGroup belongs to: its controller reference. Fixtures rarely carry
 * {@code metadata.uid}, so a missing one is derived from kind and name (a name-based UUID): the same YAML always
 * expands to the same objects, and {@code controller-uid} labels still tell two Jobs apart.
 *
 * @param explicitUid whether {@code uid} came from the object rather than being derived
 */
record Owner(String apiVersion, String kind, String namespace, String name, String uid, boolean explicitUid) {
  static final String DEFAULT_NAMESPACE = "default";

  /** The owner as a workload document states it; the caller has checked apiVersion and kind. */
  static Owner of(JsonObject o) {
    JsonObject meta = o.get("metadata") != null && o.get("metadata").isJsonObject() ? o.getAsJsonObject("metadata")
        : new JsonObject();
    String ns = Fields.string(meta, "namespace");
    ns = ns == null || ns.isEmpty() ? DEFAULT_NAMESPACE : ns;
    String name = Fields.string(meta, "name");
    if (name == null || name.isEmpty()) {
      throw new Malformed("metadata.name", "missing: the controller names every object after it");
    }
    return of(Fields.string(o, "apiVersion"), Fields.string(o, "kind"), ns, name, Fields.string(meta, "uid"));
  }

  static Owner of(String apiVersion, String kind, String namespace, String name, String uid) {
    if (uid != null && !uid.isEmpty()) {
      return new Owner(apiVersion, kind, namespace, name, uid, true);
    }
    String seed = apiVersion + "/" + kind + "/" + namespace + "/" + name;
    return new Owner(apiVersion, kind, namespace, name,
        UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString(), false);
  }

  /** {@code Kind namespace/name}, how errors and document labels name it. */
  String display() {
    return kind + " " + namespace + "/" + name;
  }

  /** The ownerReference a controller sets on what it creates ({@code controller: true}). */
  JsonObject reference() {
    JsonObject r = new JsonObject();
    r.addProperty("apiVersion", apiVersion);
    r.addProperty("kind", kind);
    r.addProperty("name", name);
    r.addProperty("uid", uid);
    r.addProperty("controller", true);
    r.addProperty("blockOwnerDeletion", true);
    return r;
  }
}
