package io.basalt.kube.devices.dra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.dra.AllocatedDevice;
import io.basalt.dra.Allocation;
import io.basalt.dra.ClaimBinding;
import io.basalt.dra.DeviceId;
import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.model.Pod;
import io.basalt.model.ResourceVector;
import io.basalt.session.SessionResult;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The claim's status written before the binding, and taken back when the bind fails. */
class ClaimPreBindTest {
  /** Claims' statuses in memory, each write guarded by a version. */
  static final class Claims implements ApiObjects {
    final Map<String, JsonObject> status = new HashMap<>();
    final Map<String, Integer> version = new HashMap<>();

    @Override
    public Meta read(Kind kind, String namespace, String name) {
      return new Meta(Map.of(), "0", new ApiReply(200, ""));
    }

    @Override
    public ApiReply annotate(Kind kind, String namespace, String name, String key, String value, String rv) {
      return new ApiReply(200, "");
    }

    @Override
    public ClaimStatus readClaimStatus(String namespace, String name) {
      String k = namespace + "/" + name;
      return new ClaimStatus(status.getOrDefault(k, new JsonObject()).deepCopy(),
          Integer.toString(version.getOrDefault(k, 0)), new ApiReply(200, ""));
    }

    @Override
    public ApiReply writeClaimStatus(String namespace, String name, JsonObject s, String rv) {
      String k = namespace + "/" + name;
      if (!rv.equals(Integer.toString(version.getOrDefault(k, 0)))) {
        return new ApiReply(409, "conflict");
      }
      status.put(k, s.deepCopy());
      version.merge(k, 1, Integer::sum);
      return new ApiReply(200, "");
    }
  }

  static Pod pod(String name) {
    return new Pod(name + "-uid", "ml", name, "basalt-scheduler", null, "Pending", false, 0, null, null,
        ResourceVector.ZERO, Map.of(), Map.of(), Map.of(), List.of(), List.of(), Instant.EPOCH);
  }

  static final Allocation ALLOCATION = new Allocation(
      List.of(new AllocatedDevice("gpu", new DeviceId("gpu.example.com", "node-1", "gpu-0"), false)), "node-1");

  @Test
  void writesAllocationAndReservationThenUndoesThem() {
    Claims api = new Claims();
    ClaimPreBind step = new ClaimPreBind();
    SessionResult.Binding first = new SessionResult.Binding(pod("a"), "node-1", Map.of(),
        List.of(new ClaimBinding("ml", "c", "cu", ALLOCATION, true)));
    SessionResult.Binding second = new SessionResult.Binding(pod("b"), "node-1", Map.of(),
        List.of(new ClaimBinding("ml", "c", "cu", ALLOCATION, false)));
    assertTrue(step.writesBefore(first, Map.of()));
    assertFalse(step.writesBefore(new SessionResult.Binding(pod("x"), "node-1", Map.of()), Map.of()));
    assertEquals(PreBindStep.State.DONE, step.preBind(first, api).state());
    assertEquals(PreBindStep.State.DONE, step.preBind(second, api).state());
    JsonObject s = api.status.get("ml/c");
    assertEquals("gpu-0", s.getAsJsonObject("allocation").getAsJsonObject("devices").getAsJsonArray("results")
        .get(0).getAsJsonObject().get("device").getAsString());
    assertEquals("node-1", s.getAsJsonObject("allocation").getAsJsonObject("nodeSelector")
        .getAsJsonArray("nodeSelectorTerms").get(0).getAsJsonObject().getAsJsonArray("matchFields").get(0)
        .getAsJsonObject().getAsJsonArray("values").get(0).getAsString());
    assertEquals(2, s.getAsJsonArray("reservedFor").size());

    assertTrue(step.unreserve(second, api));
    assertTrue(api.status.get("ml/c").has("allocation"), "still reserved for a");
    assertEquals(1, api.status.get("ml/c").getAsJsonArray("reservedFor").size());
    assertTrue(step.unreserve(first, api));
    assertEquals(new JsonObject(), api.status.get("ml/c"), "the allocation went with its last pod");
  }

  @Test
  void aClaimAllocatedOtherDevicesMeanwhileFailsTheBind() {
    Claims api = new Claims();
    Allocation other = new Allocation(
        List.of(new AllocatedDevice("gpu", new DeviceId("gpu.example.com", "node-1", "gpu-5"), false)), "node-1");
    api.status.put("ml/c", new JsonObject());
    api.status.get("ml/c").add("allocation", ClaimPreBind.allocationJson(other));
    SessionResult.Binding b = new SessionResult.Binding(pod("a"), "node-1", Map.of(),
        List.of(new ClaimBinding("ml", "c", "cu", ALLOCATION, true)));
    assertEquals(PreBindStep.State.FAILED, new ClaimPreBind().preBind(b, api).state());
  }
}
