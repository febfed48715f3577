package io.basalt.kube.kinds.volcano;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;

/**
 * Volcano's network-topology {@code topology.volcano.sh/v1alpha1} HyperNode. Its record is its document, checked
 * field by field when the fabric is built from all HyperNodes and the nodes together; so a manifest's document is
 * kept whole rather than parsed, and a wrong field is a problem naming it, never an object dropped. Live mode watches
 * it only while the fabric comes from the cluster's HyperNodes.
 */
public final class HyperNodeKind extends KindAdapter<HyperNode> {
  public HyperNodeKind() {
    super(HyperNode.GROUP, HyperNode.VERSION, HyperNode.KIND, HyperNode.PLURAL, false, HyperNode.class,
        HyperNode.List.class);
  }

  @Override
  public void put(HyperNode hyperNode, Records out) {
    out.hyperNode(hyperNode.getMetadata() == null ? null : hyperNode.getMetadata().getName(),
        hyperNode.toDocument());
  }

  @Override
  public void remove(HyperNode hyperNode, String key, Records.Removals out) {
    out.hyperNodeGone(key);
  }

  @Override
  public HyperNode fromDocument(JsonObject document, Gson gson) {
    return HyperNode.ofDocument(document);
  }

  @Override
  public String project() {
    return "Volcano";
  }

  @Override
  public boolean fabric() {
    return true;
  }
}
