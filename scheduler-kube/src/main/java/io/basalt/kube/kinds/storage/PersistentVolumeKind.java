package io.basalt.kube.kinds.storage;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.PersistentVolume;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeList;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;
import java.util.List;

/** v1 PersistentVolumes: capacity, class, access modes, node affinity and the claim they are bound to. */
public final class PersistentVolumeKind extends KindAdapter<V1PersistentVolume> {
  public PersistentVolumeKind() {
    super("", "v1", "PersistentVolume", "persistentvolumes", false, V1PersistentVolume.class,
        V1PersistentVolumeList.class);
  }

  public static PersistentVolume toVolume(V1PersistentVolume pv) {
    V1ObjectMeta meta = pv.getMetadata();
    Ctx ctx = Ctx.clusterScoped("PersistentVolume", meta);
    V1PersistentVolumeSpec spec = pv.getSpec();
    if (spec == null) {
      throw ctx.fail("spec", "missing");
    }
    List<NodeSelectorTerm> affinity = List.of();
    if (spec.getNodeAffinity() != null && spec.getNodeAffinity().getRequired() != null) {
      affinity = StorageConversion.terms(spec.getNodeAffinity().getRequired().getNodeSelectorTerms(),
          "spec.nodeAffinity.required.nodeSelectorTerms", ctx);
    }
    String claimNamespace = spec.getClaimRef() == null ? null : spec.getClaimRef().getNamespace();
    String claimName = spec.getClaimRef() == null ? null : spec.getClaimRef().getName();
    return new PersistentVolume(meta.getName(), spec.getStorageClassName(),
        StorageConversion.storage(spec.getCapacity(), "spec.capacity", ctx), spec.getAccessModes(),
        spec.getVolumeMode(), affinity, meta.getLabels(), claimNamespace, claimName,
        pv.getStatus() == null ? null : pv.getStatus().getPhase(), driver(spec), handle(spec));
  }

  /** The PV's CSI driver, or the one kube's CSI migration translates its in-tree source to; null for neither. */
  private static String driver(V1PersistentVolumeSpec spec) {
    if (spec.getCsi() != null) {
      return spec.getCsi().getDriver();
    }
    if (spec.getAwsElasticBlockStore() != null) {
      return PersistentVolume.migratedDriver("kubernetes.io/aws-ebs");
    }
    if (spec.getGcePersistentDisk() != null) {
      return PersistentVolume.migratedDriver("kubernetes.io/gce-pd");
    }
    if (spec.getAzureDisk() != null) {
      return PersistentVolume.migratedDriver("kubernetes.io/azure-disk");
    }
    if (spec.getCinder() != null) {
      return PersistentVolume.migratedDriver("kubernetes.io/cinder");
    }
    return null;
  }

  /** The volume's handle (CSI) or id (in-tree), or null (the PV's name stands for it). */
  private static String handle(V1PersistentVolumeSpec spec) {
    if (spec.getCsi() != null) {
      return spec.getCsi().getVolumeHandle();
    }
    if (spec.getAwsElasticBlockStore() != null) {
      return spec.getAwsElasticBlockStore().getVolumeID();
    }
    if (spec.getGcePersistentDisk() != null) {
      return spec.getGcePersistentDisk().getPdName();
    }
    if (spec.getAzureDisk() != null) {
      return spec.getAzureDisk().getDiskURI();
    }
    if (spec.getCinder() != null) {
      return spec.getCinder().getVolumeID();
    }
    return null;
  }

  @Override
  public void put(V1PersistentVolume pv, Records out) {
    out.persistentVolume(toVolume(pv));
  }

  @Override
  public void remove(V1PersistentVolume pv, String key, Records.Removals out) {
    out.persistentVolumeGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1PersistentVolume.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.IF_LISTABLE;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    CoreV1Api core = new CoreV1Api(client);
    return p -> core.listPersistentVolume().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
