package io.basalt.kube.kinds.storage;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.StorageClass;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.StorageV1Api;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubernetes.client.openapi.models.V1StorageClassList;
import io.kubernetes.client.openapi.models.V1TopologySelectorLabelRequirement;
import io.kubernetes.client.openapi.models.V1TopologySelectorTerm;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** storage.k8s.io/v1 StorageClasses: provisioner, binding mode, allowed topologies. */
public final class StorageClassKind extends KindAdapter<V1StorageClass> {
  public StorageClassKind() {
    super("storage.k8s.io", "v1", "StorageClass", "storageclasses", false, V1StorageClass.class,
        V1StorageClassList.class);
  }

  public static StorageClass toStorageClass(V1StorageClass sc) {
    Ctx ctx = Ctx.clusterScoped("StorageClass", sc.getMetadata());
    List<NodeSelectorTerm> topologies = new ArrayList<>();
    List<V1TopologySelectorTerm> terms = sc.getAllowedTopologies();
    if (terms != null) {
      for (int t = 0; t < terms.size(); t++) {
        List<NodeSelectorRequirement> reqs = new ArrayList<>();
        List<V1TopologySelectorLabelRequirement> in = terms.get(t) == null ? null
            : terms.get(t).getMatchLabelExpressions();
        if (in != null) {
          for (int i = 0; i < in.size(); i++) {
            V1TopologySelectorLabelRequirement r = in.get(i);
            if (r == null || r.getKey() == null || r.getKey().isEmpty()) {
              throw ctx.fail("allowedTopologies[" + t + "].matchLabelExpressions[" + i + "].key", "missing");
            }
            reqs.add(new NodeSelectorRequirement(r.getKey(), "In", r.getValues(), false));
          }
        }
        topologies.add(new NodeSelectorTerm(reqs));
      }
    }
    String mode = sc.getVolumeBindingMode() == null ? "Immediate" : sc.getVolumeBindingMode();
    Map<String, String> annotations = sc.getMetadata().getAnnotations() == null ? Map.of()
        : sc.getMetadata().getAnnotations();
    boolean isDefault = "true".equals(annotations.get(StorageClass.DEFAULT_ANNOTATION))
        || "true".equals(annotations.get(StorageClass.BETA_DEFAULT_ANNOTATION));
    OffsetDateTime created = sc.getMetadata().getCreationTimestamp();
    return new StorageClass(sc.getMetadata().getName(), sc.getProvisioner(), mode, topologies, isDefault,
        created == null ? 0 : created.toInstant().toEpochMilli());
  }

  @Override
  public void put(V1StorageClass sc, Records out) {
    out.storageClass(toStorageClass(sc));
  }

  @Override
  public void remove(V1StorageClass sc, String key, Records.Removals out) {
    out.storageClassGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1StorageClass.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.IF_LISTABLE;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    StorageV1Api storage = new StorageV1Api(client);
    return p -> storage.listStorageClass().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
