package io.basalt.kube.kinds.storage;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.VolumeAttachment;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.StorageV1Api;
import io.kubernetes.client.openapi.models.V1VolumeAttachment;
import io.kubernetes.client.openapi.models.V1VolumeAttachmentList;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;

/**
 * storage.k8s.io/v1 VolumeAttachments: the CSI volumes attached to each node, which attach limits count even when no
 * pod there uses them any more, as kube-scheduler's NodeVolumeLimits does.
 */
public final class VolumeAttachmentKind extends KindAdapter<V1VolumeAttachment> {
  public VolumeAttachmentKind() {
    super("storage.k8s.io", "v1", "VolumeAttachment", "volumeattachments", false, V1VolumeAttachment.class,
        V1VolumeAttachmentList.class);
  }

  /** The attachment a v1 object states; fails naming the field the API server requires. */
  public static VolumeAttachment toAttachment(V1VolumeAttachment va) {
    Ctx ctx = Ctx.clusterScoped("VolumeAttachment", va.getMetadata());
    if (va.getSpec() == null) {
      throw ctx.fail("spec", "missing");
    }
    String attacher = va.getSpec().getAttacher();
    String node = va.getSpec().getNodeName();
    if (attacher == null || attacher.isEmpty()) {
      throw ctx.fail("spec.attacher", "missing");
    }
    if (node == null || node.isEmpty()) {
      throw ctx.fail("spec.nodeName", "missing");
    }
    String pv = va.getSpec().getSource() == null ? null : va.getSpec().getSource().getPersistentVolumeName();
    return new VolumeAttachment(va.getMetadata().getName(), attacher, node, pv == null || pv.isEmpty() ? null : pv);
  }

  @Override
  public void put(V1VolumeAttachment va, Records out) {
    out.volumeAttachment(toAttachment(va));
  }

  @Override
  public void remove(V1VolumeAttachment va, String key, Records.Removals out) {
    out.volumeAttachmentGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1VolumeAttachment.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.IF_LISTABLE;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    StorageV1Api storage = new StorageV1Api(client);
    return p -> storage.listVolumeAttachment().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
