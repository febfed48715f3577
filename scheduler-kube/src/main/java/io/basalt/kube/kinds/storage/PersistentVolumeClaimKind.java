package io.basalt.kube.kinds.storage;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.VolumeClaim;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimList;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;
import java.util.Map;

/** v1 PersistentVolumeClaims: what the volume filters match against PVs and classes, and what the binder binds. */
public final class PersistentVolumeClaimKind extends KindAdapter<V1PersistentVolumeClaim> {
  public PersistentVolumeClaimKind() {
    super("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", true, V1PersistentVolumeClaim.class,
        V1PersistentVolumeClaimList.class);
  }

  /** The claim a v1 object states; fails naming the field for values the API server would reject. */
  public static VolumeClaim toClaim(V1PersistentVolumeClaim pvc) {
    V1ObjectMeta meta = pvc.getMetadata();
    Ctx ctx = Ctx.namespaced("PersistentVolumeClaim", meta);
    V1PersistentVolumeClaimSpec spec = pvc.getSpec();
    if (spec == null) {
      throw ctx.fail("spec", "missing");
    }
    long request = spec.getResources() == null ? 0
        : StorageConversion.storage(spec.getResources().getRequests(), "spec.resources.requests", ctx);
    Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    String phase = pvc.getStatus() == null ? null : pvc.getStatus().getPhase();
    return new VolumeClaim(Conversion.namespaceOf(meta), meta.getName(), meta.getUid(), spec.getStorageClassName(),
        spec.getVolumeName(), spec.getAccessModes(), request, spec.getVolumeMode(),
        StorageConversion.selector(spec.getSelector(), "spec.selector", ctx),
        annotations.get(VolumeClaim.SELECTED_NODE), phase, meta.getDeletionTimestamp() != null,
        spec.getStorageClassName() == null, controllerUid(meta));
  }

  /** The uid of the claim's controlling owner ({@code ownerReferences[]} with {@code controller: true}), or null. */
  private static String controllerUid(V1ObjectMeta meta) {
    if (meta.getOwnerReferences() != null) {
      for (var r : meta.getOwnerReferences()) {
        if (Boolean.TRUE.equals(r.getController())) {
          return r.getUid();
        }
      }
    }
    return null;
  }

  @Override
  public void put(V1PersistentVolumeClaim pvc, Records out) {
    out.volumeClaim(toClaim(pvc));
  }

  @Override
  public void remove(V1PersistentVolumeClaim pvc, String key, Records.Removals out) {
    out.volumeClaimGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1PersistentVolumeClaim.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.IF_LISTABLE;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    CoreV1Api core = new CoreV1Api(client);
    return p -> core.listPersistentVolumeClaimForAllNamespaces().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
