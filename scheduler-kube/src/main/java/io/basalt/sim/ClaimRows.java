package io.basalt.sim;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** A written ResourceClaim status as one report row. */
final class ClaimRows {
  private ClaimRows() {}

  static SimulationReport.Claim of(String key, JsonObject status) {
    List<String> devices = new ArrayList<>();
    String node = null;
    JsonObject allocation = status.has("allocation") ? status.getAsJsonObject("allocation") : null;
    if (allocation != null) {
      for (JsonElement e : allocation.getAsJsonObject("devices").getAsJsonArray("results")) {
        JsonObject r = e.getAsJsonObject();
        devices.add(r.get("driver").getAsString() + "/" + r.get("pool").getAsString() + "/"
            + r.get("device").getAsString());
      }
      if (allocation.has("nodeSelector")) {
        node = allocation.getAsJsonObject("nodeSelector").getAsJsonArray("nodeSelectorTerms").get(0)
            .getAsJsonObject().getAsJsonArray("matchFields").get(0).getAsJsonObject().getAsJsonArray("values").get(0)
            .getAsString();
      }
    }
    List<String> reserved = new ArrayList<>();
    if (status.has("reservedFor")) {
      for (JsonElement e : status.getAsJsonArray("reservedFor")) {
        reserved.add(e.getAsJsonObject().get("name").getAsString());
      }
    }
    return new SimulationReport.Claim(key, devices, node, reserved);
  }
}
