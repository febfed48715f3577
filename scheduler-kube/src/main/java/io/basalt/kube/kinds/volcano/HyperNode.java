package io.basalt.kube.kinds.volcano;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;

/**
 * Volcano's network-topology {@code topology.volcano.sh/v1alpha1 HyperNode}, for the live informer. The spec stays a
 * JSON tree because {@link io.basalt.kube.fabric.HyperNodeReader} checks it field by field (a wrong field is a problem
 * naming it, never a parse failure that would drop the whole object); the status is not read.
 */
public final class HyperNode extends CustomObject<HyperNode, JsonObject, JsonObject> {
  public static final String GROUP = "topology.volcano.sh";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "HyperNode";
  public static final String PLURAL = "hypernodes";

  /** The document {@link io.basalt.kube.fabric.HyperNodeReader} reads: the name and a copy of the spec. */
  public JsonObject toDocument() {
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
