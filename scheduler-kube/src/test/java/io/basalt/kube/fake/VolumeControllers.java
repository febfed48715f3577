package io.basalt.kube.fake;

import com.google.gson.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stand-ins for the PV controller and a provisioner against a {@link FakeApiServer}, as the cluster runs them beside
 * a scheduler: a PV whose {@code spec.claimRef} names an unbound claim binds it; an unbound claim annotated
 * {@code volume.kubernetes.io/selected-node} gets a new PV on that node, bound to it. Claims are bound only through
 * these updates, never by the scheduler. Runs on its own thread until closed.
 */
public final class VolumeControllers extends PollingController {
  private final FakeApiServer server;
  private final AtomicInteger provisioned = new AtomicInteger();

  private VolumeControllers(FakeApiServer server) {
    super("fake-volume-controllers");
    this.server = server;
  }

  public static VolumeControllers start(FakeApiServer server) {
    VolumeControllers c = new VolumeControllers(server);
    c.startPolling();
    return c;
  }

  /** How many PVs the provisioner created. */
  public int provisioned() {
    return provisioned.get();
  }

  /** One round over the unbound claims. */
  @Override
  public void once() {
    for (JsonObject pvc : server.list(Resources.PERSISTENT_VOLUME_CLAIMS, null)) {
      JsonObject spec = pvc.getAsJsonObject("spec");
      if (spec.has("volumeName") && !spec.get("volumeName").getAsString().isEmpty()) {
        continue;
      }
      JsonObject meta = pvc.getAsJsonObject("metadata");
      String ns = meta.get("namespace").getAsString();
      String name = meta.get("name").getAsString();
      String reserved = null;
      for (JsonObject pv : server.list(Resources.PERSISTENT_VOLUMES, null)) {
        JsonObject ref = pv.getAsJsonObject("spec").getAsJsonObject("claimRef");
        if (ref != null && ns.equals(ref.get("namespace").getAsString())
            && name.equals(ref.get("name").getAsString())) {
          reserved = pv.getAsJsonObject("metadata").get("name").getAsString();
        }
      }
      JsonObject annotations = meta.getAsJsonObject("annotations");
      String node = annotations == null || !annotations.has("volume.kubernetes.io/selected-node") ? null
          : annotations.get("volume.kubernetes.io/selected-node").getAsString();
      if (reserved == null && node != null) {
        reserved = "pvc-" + meta.get("uid").getAsString();
        String storage = spec.getAsJsonObject("resources").getAsJsonObject("requests").get("storage").getAsString();
        server.seed("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"" + reserved
            + "\"},\"spec\":{\"storageClassName\":\"" + spec.get("storageClassName").getAsString()
            + "\",\"capacity\":{\"storage\":\"" + storage + "\"},\"accessModes\":" + spec.get("accessModes")
            + ",\"claimRef\":{\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\"},\"nodeAffinity\":{"
            + "\"required\":{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"kubernetes.io/hostname\","
            + "\"operator\":\"In\",\"values\":[\"" + node + "\"]}]}]}}},\"status\":{\"phase\":\"Bound\"}}");
        provisioned.incrementAndGet();
      }
      if (reserved != null) {
        server.mergePatch(Resources.PERSISTENT_VOLUMES, "", reserved, "{\"status\":{\"phase\":\"Bound\"}}");
        server.mergePatch(Resources.PERSISTENT_VOLUME_CLAIMS, ns, name,
            "{\"spec\":{\"volumeName\":\"" + reserved + "\"},\"status\":{\"phase\":\"Bound\"}}");
      }
    }
  }
}
