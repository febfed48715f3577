package io.basalt.kube.kinds.storage;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.CsiNode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.StorageV1Api;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSINodeDriver;
import io.kubernetes.client.openapi.models.V1CSINodeList;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** storage.k8s.io/v1 CSINodes: each driver's attach limit on the node (named as the node). */
public final class CsiNodeKind extends KindAdapter<V1CSINode> {
  public CsiNodeKind() {
    super("storage.k8s.io", "v1", "CSINode", "csinodes", false, V1CSINode.class, V1CSINodeList.class);
  }

  public static CsiNode toCsiNode(V1CSINode n) {
    Ctx ctx = Ctx.clusterScoped("CSINode", n.getMetadata());
    Map<String, Integer> limits = new HashMap<>();
    if (n.getSpec() != null && n.getSpec().getDrivers() != null) {
      for (int i = 0; i < n.getSpec().getDrivers().size(); i++) {
        V1CSINodeDriver d = n.getSpec().getDrivers().get(i);
        if (d == null || d.getName() == null || d.getName().isEmpty()) {
          throw ctx.fail("spec.drivers[" + i + "].name", "missing");
        }
        if (d.getAllocatable() != null && d.getAllocatable().getCount() != null) {
          if (d.getAllocatable().getCount() < 0) {
            throw ctx.fail("spec.drivers[" + i + "].allocatable.count", "must not be negative");
          }
          limits.put(d.getName(), d.getAllocatable().getCount());
        }
      }
    }
    return new CsiNode(n.getMetadata().getName(), limits);
  }

  @Override
  public void put(V1CSINode n, Records out) {
    out.csiNode(toCsiNode(n));
  }

  @Override
  public void remove(V1CSINode n, String key, Records.Removals out) {
    out.csiNodeGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1CSINode.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.IF_LISTABLE;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    StorageV1Api storage = new StorageV1Api(client);
    return p -> storage.listCSINode().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
