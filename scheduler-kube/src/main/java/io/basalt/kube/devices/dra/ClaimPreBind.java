package io.basalt.kube.devices.dra;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.dra.AllocatedDevice;
import io.basalt.dra.Allocation;
import io.basalt.dra.ClaimBinding;
import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.session.SessionResult;
import java.util.Map;

/**
 * DRA's pre-bind: before a pod is bound, each of its claims gets the allocation the session chose
 * ({@code status.allocation}) and the pod in {@code status.reservedFor}, as kube-scheduler's dynamicresources plugin
 * writes them, so the kubelet prepares the devices. A claim allocated in the meantime by someone else fails the bind
 * (the pod is tried again next cycle); {@link #unreserve} takes the pod out of {@code reservedFor} again and drops an
 * allocation this step wrote once no pod holds it.
 */
public final class ClaimPreBind implements PreBindStep {
  @Override
  public boolean writesBefore(SessionResult.Binding binding, Map<String, String> annotations) {
    return !binding.claims().isEmpty();
  }

  @Override
  public Result preBind(SessionResult.Binding binding, ApiObjects api) {
    for (ClaimBinding c : binding.claims()) {
      ApiObjects.ClaimStatus read = api.readClaimStatus(c.namespace(), c.name());
      if (read.status() == null) {
        return new Result(State.FAILED, "claim " + c.key() + ": " + read.reply().body(), read.reply());
      }
      JsonObject status = read.status().deepCopy();
      JsonObject mine = allocationJson(c.allocation());
      JsonElement current = status.get("allocation");
      if (current != null && !current.isJsonNull() && !sameDevices(current, mine)) {
        return new Result(State.FAILED, "claim " + c.key() + " was allocated other devices meanwhile",
            new ApiReply(409, "allocated meanwhile"));
      }
      if (current == null || current.isJsonNull()) {
        if (!c.allocated()) {
          return new Result(State.FAILED, "claim " + c.key() + " lost its allocation", new ApiReply(409, ""));
        }
        status.add("allocation", mine);
      }
      JsonArray reserved = status.has("reservedFor") ? status.getAsJsonArray("reservedFor") : new JsonArray();
      if (indexOf(reserved, binding.pod().uid()) < 0) {
        JsonObject ref = new JsonObject();
        ref.addProperty("resource", "pods");
        ref.addProperty("name", binding.pod().name());
        ref.addProperty("uid", binding.pod().uid());
        reserved.add(ref);
      }
      status.add("reservedFor", reserved);
      ApiReply r = api.writeClaimStatus(c.namespace(), c.name(), status, read.resourceVersion());
      if (r.code() == 409) {
        return new Result(State.WAIT, "claim " + c.key() + " changed while being written", r);
      }
      if (!r.ok()) {
        return new Result(State.FAILED, "claim " + c.key() + ": " + r.body(), r);
      }
    }
    return Result.DONE;
  }

  @Override
  public boolean unreserve(SessionResult.Binding binding, ApiObjects api) {
    boolean all = true;
    for (ClaimBinding c : binding.claims()) {
      boolean done = false;
      for (int attempt = 0; attempt < 3 && !done; attempt++) {
        ApiObjects.ClaimStatus read = api.readClaimStatus(c.namespace(), c.name());
        if (read.status() == null) {
          break;
        }
        JsonObject status = read.status().deepCopy();
        JsonArray reserved = status.has("reservedFor") ? status.getAsJsonArray("reservedFor") : new JsonArray();
        int at = indexOf(reserved, binding.pod().uid());
        if (at >= 0) {
          reserved.remove(at);
        }
        if (c.allocated() && reserved.isEmpty() && status.has("allocation")
            && sameDevices(status.get("allocation"), allocationJson(c.allocation()))) {
          status.remove("allocation");
        }
        if (reserved.isEmpty()) {
          status.remove("reservedFor");
        } else {
          status.add("reservedFor", reserved);
        }
        done = api.writeClaimStatus(c.namespace(), c.name(), status, read.resourceVersion()).ok();
      }
      all &= done;
    }
    return all;
  }

  /** {@code status.allocation} as the API states it: the devices, and the node when they are node-local. */
  static JsonObject allocationJson(Allocation a) {
    JsonArray results = new JsonArray();
    for (AllocatedDevice d : a.devices()) {
      JsonObject r = new JsonObject();
      r.addProperty("request", d.request());
      r.addProperty("driver", d.device().driver());
      r.addProperty("pool", d.device().pool());
      r.addProperty("device", d.device().device());
      if (d.adminAccess()) {
        r.addProperty("adminAccess", true);
      }
      results.add(r);
    }
    JsonObject devices = new JsonObject();
    devices.add("results", results);
    JsonObject out = new JsonObject();
    out.add("devices", devices);
    if (a.nodeName() != null) {
      JsonArray values = new JsonArray();
      values.add(a.nodeName());
      JsonObject field = new JsonObject();
      field.addProperty("key", "metadata.name");
      field.addProperty("operator", "In");
      field.add("values", values);
      JsonArray fields = new JsonArray();
      fields.add(field);
      JsonObject term = new JsonObject();
      term.add("matchFields", fields);
      JsonArray terms = new JsonArray();
      terms.add(term);
      JsonObject selector = new JsonObject();
      selector.add("nodeSelectorTerms", terms);
      out.add("nodeSelector", selector);
    }
    return out;
  }

  private static boolean sameDevices(JsonElement current, JsonObject mine) {
    return current.isJsonObject() && mine.get("devices").equals(current.getAsJsonObject().get("devices"));
  }

  private static int indexOf(JsonArray reserved, String uid) {
    for (int i = 0; i < reserved.size(); i++) {
      JsonElement e = reserved.get(i);
      if (e.isJsonObject() && e.getAsJsonObject().has("uid") && uid.equals(e.getAsJsonObject().get("uid").getAsString())) {
        return i;
      }
    }
    return -1;
  }
}
