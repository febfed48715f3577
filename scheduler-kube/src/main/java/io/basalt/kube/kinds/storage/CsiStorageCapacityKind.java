package io.basalt.kube.kinds.storage;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.StorageCapacity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.StorageV1Api;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacityList;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;

/** storage.k8s.io/v1 CSIStorageCapacities: what a class can still provision for the nodes of a topology. */
public final class CsiStorageCapacityKind extends KindAdapter<V1CSIStorageCapacity> {
  public CsiStorageCapacityKind() {
    super("storage.k8s.io", "v1", "CSIStorageCapacity", "csistoragecapacities", true, V1CSIStorageCapacity.class,
        V1CSIStorageCapacityList.class);
  }

  public static StorageCapacity toCapacity(V1CSIStorageCapacity c) {
    Ctx ctx = Ctx.namespaced("CSIStorageCapacity", c.getMetadata());
    if (c.getStorageClassName() == null || c.getStorageClassName().isEmpty()) {
      throw ctx.fail("storageClassName", "missing");
    }
    long capacity = c.getCapacity() == null ? 0 : StorageConversion.bytes(c.getCapacity(), "capacity", ctx);
    long max = c.getMaximumVolumeSize() == null ? -1
        : StorageConversion.bytes(c.getMaximumVolumeSize(), "maximumVolumeSize", ctx);
    return new StorageCapacity(Conversion.namespaceOf(c.getMetadata()), c.getMetadata().getName(),
        c.getStorageClassName(), StorageConversion.selector(c.getNodeTopology(), "nodeTopology", ctx), capacity, max);
  }

  @Override
  public void put(V1CSIStorageCapacity c, Records out) {
    out.storageCapacity(toCapacity(c));
  }

  @Override
  public void remove(V1CSIStorageCapacity c, String key, Records.Removals out) {
    out.storageCapacityGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1CSIStorageCapacity.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.IF_LISTABLE;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    StorageV1Api storage = new StorageV1Api(client);
    return p -> storage.listCSIStorageCapacityForAllNamespaces().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
