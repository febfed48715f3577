package io.basalt.kube.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The patch algorithms on small documents (RFC 7386 and RFC 6902 examples, strategic merge rules). */
class PatchesTest {
  private static JsonObject obj(String json) {
    return Json.parseObject(json);
  }

  private static JsonElement el(String json) {
    return Json.parse(json);
  }

  @Test
  void mergePatchFollowsRfc7386() {
    JsonObject target = obj("{\"a\":\"b\",\"c\":{\"d\":\"e\",\"f\":\"g\"},\"l\":[1,2]}");
    JsonElement result = Patches.mergePatch(target, obj("{\"a\":\"z\",\"c\":{\"f\":null},\"l\":[3]}"));
    assertEquals(obj("{\"a\":\"z\",\"c\":{\"d\":\"e\"},\"l\":[3]}"), result);
    assertEquals(obj("{\"a\":\"b\",\"c\":{\"d\":\"e\",\"f\":\"g\"},\"l\":[1,2]}"), target, "input untouched");
  }

  @Test
  void strategicMergeMergesKeyedListsAndReplacesOthers() {
    Map<String, String> keys = Map.of("status.conditions", "type", "metadata.finalizers", Patches.PRIMITIVE_SET);
    JsonObject pod = obj("{\"metadata\":{\"finalizers\":[\"a\"],\"labels\":{\"x\":\"1\",\"y\":\"2\"}},"
        + "\"spec\":{\"tolerations\":[{\"key\":\"k1\"}]},"
        + "\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"},"
        + "{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":\"Unschedulable\"}]}}");
    JsonObject patch = obj("{\"metadata\":{\"finalizers\":[\"b\"],\"labels\":{\"y\":null}},"
        + "\"spec\":{\"tolerations\":[{\"key\":\"k2\"}]},"
        + "\"status\":{\"$setElementOrder/conditions\":[{\"type\":\"Ready\"},{\"type\":\"PodScheduled\"}],"
        + "\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\"},{\"type\":\"Ready\",\"$patch\":\"delete\"},"
        + "{\"type\":\"Initialized\",\"status\":\"True\"}]}}");

    JsonObject result = Patches.strategicMerge(pod, patch, keys);

    assertEquals(obj("{\"metadata\":{\"finalizers\":[\"a\",\"b\"],\"labels\":{\"x\":\"1\"}},"
        + "\"spec\":{\"tolerations\":[{\"key\":\"k2\"}]},"
        + "\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\",\"reason\":\"Unschedulable\"},"
        + "{\"type\":\"Initialized\",\"status\":\"True\"}]}}"), result);
  }

  @Test
  void strategicMergeDirectives() {
    Map<String, String> keys = Map.of("metadata.finalizers", Patches.PRIMITIVE_SET, "spec.containers", "name");
    JsonObject doc = obj("{\"metadata\":{\"finalizers\":[\"a\",\"b\"]},\"spec\":{\"nodeSelector\":{\"a\":\"1\"},"
        + "\"containers\":[{\"name\":\"c1\",\"image\":\"i1\"},{\"name\":\"c2\",\"image\":\"i2\"}]}}");
    JsonObject result = Patches.strategicMerge(doc, obj("{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\"a\"]},"
        + "\"spec\":{\"nodeSelector\":{\"$patch\":\"replace\",\"b\":\"2\"},"
        + "\"containers\":[{\"name\":\"c3\",\"image\":\"i3\"},{\"$patch\":\"replace\"}]}}"), keys);
    assertEquals(obj("{\"metadata\":{\"finalizers\":[\"b\"]},\"spec\":{\"nodeSelector\":{\"b\":\"2\"},"
        + "\"containers\":[{\"name\":\"c3\",\"image\":\"i3\"}]}}"), result);

    assertThrows(Patches.PatchException.class, () -> Patches.strategicMerge(doc,
        obj("{\"spec\":{\"containers\":[{\"image\":\"no-name\"}]}}"), keys));
  }

  @Test
  void jsonPatchFollowsRfc6902() {
    JsonObject doc = obj("{\"foo\":[\"bar\",\"baz\"],\"a/b\":1,\"m\":{\"x\":1}}");
    JsonElement result = Patches.jsonPatch(doc, el("[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"},"
        + "{\"op\":\"remove\",\"path\":\"/a~1b\"},{\"op\":\"replace\",\"path\":\"/m/x\",\"value\":2},"
        + "{\"op\":\"copy\",\"from\":\"/m\",\"path\":\"/n\"},{\"op\":\"move\",\"from\":\"/foo/0\",\"path\":\"/foo/-\"},"
        + "{\"op\":\"test\",\"path\":\"/n/x\",\"value\":2}]").getAsJsonArray());
    assertEquals(obj("{\"foo\":[\"qux\",\"baz\",\"bar\"],\"m\":{\"x\":2},\"n\":{\"x\":2}}"), result);

    assertThrows(Patches.PatchException.class, () -> Patches.jsonPatch(doc,
        el("[{\"op\":\"test\",\"path\":\"/m/x\",\"value\":5}]").getAsJsonArray()));
    assertThrows(Patches.PatchException.class, () -> Patches.jsonPatch(doc,
        el("[{\"op\":\"replace\",\"path\":\"/missing\",\"value\":5}]").getAsJsonArray()));
  }
}
