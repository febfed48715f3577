package io.basalt.kube.kinds.autoscaling;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.kube.kueue.KueueRecord;
import io.basalt.kube.provisioning.ProvisioningState;
import java.util.ArrayList;
import java.util.List;

/**
 * The cluster autoscaler's {@code ProvisioningRequest} ({@code autoscaling.x-k8s.io}, v1beta1 as Kueue writes it, v1
 * documents too): only its class and where its conditions say it stands matter to Basalt, whose pods consuming it
 * wait until it is {@code Provisioned}. Read with Kueue's objects ({@link Records#kueue}), since Kueue's provisioning
 * check makes them; live mode treats a missing CRD as no requests.
 */
public final class ProvisioningRequestKind extends KindAdapter<ProvisioningRequestKind.ProvisioningRequest> {
  public static final String GROUP = "autoscaling.x-k8s.io";
  public static final String VERSION = "v1beta1";

  /** The object: spec and status stay JSON trees. */
  public static final class ProvisioningRequest extends CustomObject<ProvisioningRequest, JsonObject, JsonObject> {}

  public static final class ProvisioningRequestList extends CustomObjectList<ProvisioningRequest> {}

  public ProvisioningRequestKind() {
    super(GROUP, VERSION, "ProvisioningRequest", "provisioningrequests", true, ProvisioningRequest.class,
        ProvisioningRequestList.class);
  }

  @Override
  public void put(ProvisioningRequest object, Records out) {
    out.kueue(record(object));
  }

  @Override
  public void remove(ProvisioningRequest object, String key, Records.Removals out) {
    out.kueueGone(kind(), key);
  }

  @Override
  public boolean readsDocument(String apiVersion, String kind) {
    return kind().equals(kind) && (apiVersion.equals(GROUP + "/" + VERSION) || apiVersion.equals(GROUP + "/v1"));
  }

  @Override
  public String project() {
    return "the cluster autoscaler";
  }

  static KueueRecord.ProvisioningRequest record(ProvisioningRequest r) {
    Ctx ctx = Ctx.namespaced("ProvisioningRequest", r.getMetadata());
    if (r.getMetadata() == null || Conversion.isBlank(r.getMetadata().getName())) {
      throw ctx.fail("metadata.name", "missing");
    }
    JsonObject spec = r.getSpec() == null ? new JsonObject() : r.getSpec();
    JsonElement cls = spec.get("provisioningClassName");
    String className = cls == null || !cls.isJsonPrimitive() ? null : cls.getAsString();
    ProvisioningState state = ProvisioningState.PENDING;
    String message = null;
    JsonObject status = r.getStatus();
    JsonArray conditions = status == null || !status.has("conditions") || !status.get("conditions").isJsonArray()
        ? new JsonArray() : status.getAsJsonArray("conditions");
    List<String> trueTypes = new ArrayList<>();
    for (JsonElement e : conditions) {
      if (e.isJsonObject() && "True".equals(text(e.getAsJsonObject(), "status"))) {
        trueTypes.add(text(e.getAsJsonObject(), "type"));
      }
    }
    // A lost request stays lost even if it was provisioned once: the nodes are gone.
    String[] order = {"Failed", "CapacityRevoked", "BookingExpired", "Provisioned"};
    ProvisioningState[] states = {ProvisioningState.FAILED, ProvisioningState.CAPACITY_REVOKED,
        ProvisioningState.BOOKING_EXPIRED, ProvisioningState.PROVISIONED};
    for (int i = 0; i < order.length && state == ProvisioningState.PENDING; i++) {
      if (trueTypes.contains(order[i])) {
        state = states[i];
        for (JsonElement e : conditions) {
          if (e.isJsonObject() && order[i].equals(text(e.getAsJsonObject(), "type"))) {
            message = text(e.getAsJsonObject(), "message");
          }
        }
      }
    }
    return new KueueRecord.ProvisioningRequest(Conversion.namespaceOf(r.getMetadata()), r.getMetadata().getName(),
        className, state, message, List.of());
  }

  private static String text(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e == null || !e.isJsonPrimitive() ? null : e.getAsString();
  }
}
