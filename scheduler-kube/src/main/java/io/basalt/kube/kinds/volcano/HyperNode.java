package io.basalt.kube.kinds.volcano;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Volcano's network-topology {@code topology.volcano.sh/v1alpha1 HyperNode}. The spec stays a JSON tree because
 * {@link io.basalt.kube.fabric.HyperNodeReader} checks it field by field (a wrong field is a problem naming it, never
 * a parse failure that would drop the whole object); the status is not read.
 */
public final class HyperNode extends CustomObject<HyperNode, JsonObject, JsonObject> {
  public static final String GROUP = "topology.volcano.sh";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "HyperNode";
  public static final String PLURAL = "hypernodes";

  /** A manifest's document, kept whole (not a copy) as the document this HyperNode reads as. */
  private transient JsonObject document;

  /** The HyperNode a manifest document states, its name read as the fabric reader reads it. */
  public static HyperNode ofDocument(JsonObject document) {
    JsonElement meta = document.get("metadata");
    JsonElement name = meta != null && meta.isJsonObject() ? meta.getAsJsonObject().get("name") : null;
    HyperNode h = new HyperNode();
    h.setApiVersion(API_VERSION);
    h.setKind(KIND);
    h.setMetadata(new V1ObjectMeta().name(name != null && name.isJsonPrimitive() ? name.getAsString() : null));
    h.document = document;
    return h;
  }

  /**
   * The document {@link io.basalt.kube.fabric.HyperNodeReader} reads: a manifest's as written, else the name and a
   * copy of the spec.
   */
  public JsonObject toDocument() {
    if (document != null) {
      return document;
    }
    JsonObject metadata = new JsonObject();
    if (getMetadata() != null && getMetadata().getName() != null) {
      metadata.addProperty("name", getMetadata().getName());
    }
    JsonObject doc = new JsonObject();
    doc.addProperty("apiVersion", API_VERSION);
    doc.addProperty("kind", KIND);
    doc.add("metadata", metadata);
    if (getSpec() != null) {
      doc.add("spec", getSpec().deepCopy());
    }
    return doc;
  }

  /** {@code HyperNodeList}, for client-java's generic API and informers. */
  public static final class List extends CustomObjectList<HyperNode> {}
}
