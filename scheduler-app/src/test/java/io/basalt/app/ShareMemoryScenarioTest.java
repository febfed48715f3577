package io.basalt.app;

import static io.basalt.app.CliRun.basalt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: a share that names no memory (HAMi {@code gpucores} alone, MetaX {@code sgpu} with {@code vcore} alone) is
 * written with the device's whole memory, as HAMi's device plugins count it, so no second share may join it on that
 * device. Under {@code config/gpu-cluster.conf} a second share used to be packed beside it: 86,016 of 81,920 MiB on an
 * H100, 80 of 64 GiB on a MetaX GPU.
 */
class ShareMemoryScenarioTest {
  private static final String HAMI_NODE = """
      apiVersion: v1
      kind: Node
      metadata:
        name: h100
        annotations:
          hami.io/node-nvidia-register: '[{"id":"GPU-h0","index":0,"count":10,"devmem":81920,"devcore":100,"type":"NVIDIA-H100","health":true}]'
      status:
        allocatable: {cpu: "64", memory: 512Gi, nvidia.com/gpu: "10"}
      """;
  private static final String METAX_NODE = """
      apiVersion: v1
      kind: Node
      metadata:
        name: mxc500
        annotations:
          metax-tech.com/node-gpu-devices: '[{"uuid":"GPU-mx-0","model":"MXC500","totalVRam":65536,"linkZone":1}]'
      status:
        allocatable: {cpu: "96", memory: 1Ti, metax-tech.com/sgpu: "4"}
      """;

  private static String pod(String name, String limits) {
    return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml}\nspec:\n"
        + "  schedulerName: basalt-scheduler\n  containers:\n"
        + "  - {name: c, image: x, resources: {limits: {cpu: 1, " + limits + "}}}\n";
  }

  private static JsonObject simulate(Path dir, String cluster) throws Exception {
    Path file = Files.writeString(dir.resolve("cluster.yaml"), cluster);
    CliRun run = basalt("simulate", "--cluster", file.toString(), "--config",
        Scenarios.fixture("../config/gpu-cluster.conf").normalize().toString(), "--output", "json");
    assertEquals(0, run.exit(), run.err());
    return JsonParser.parseString(run.out()).getAsJsonObject();
  }

  private static JsonObject binding(JsonObject out, String pod) {
    for (JsonElement b : out.getAsJsonArray("bindings")) {
      if (b.getAsJsonObject().get("pod").getAsString().equals(pod)) {
        return b.getAsJsonObject();
      }
    }
    return null;
  }

  @Test
  void hamiCoresOnlyShareHoldsTheWholeMemorySoNoShareJoinsIt(@TempDir Path dir) throws Exception {
    JsonObject out = simulate(dir, HAMI_NODE + pod("cores-only", "nvidia.com/gpu: 1, nvidia.com/gpucores: 50")
        + pod("with-memory", "nvidia.com/gpu: 1, nvidia.com/gpucores: 30, nvidia.com/gpumem: 4096"));
    JsonObject first = binding(out, "ml/cores-only");
    assertNotNull(first, out.toString());
    assertEquals("GPU-h0,NVIDIA,81920,50:;",
        first.getAsJsonObject("annotations").get("hami.io/vgpu-devices-to-allocate").getAsString());
    assertNull(binding(out, "ml/with-memory"), "81,920 + 4,096 MiB on an 81,920 MiB GPU: " + out);
  }

  @Test
  void metaxShareWithoutVmemoryHoldsTheWholeMemorySoNoShareJoinsIt(@TempDir Path dir) throws Exception {
    JsonObject out = simulate(dir, METAX_NODE + pod("vcore-only", "metax-tech.com/sgpu: 1, metax-tech.com/vcore: 50")
        + pod("with-memory", "metax-tech.com/sgpu: 1, metax-tech.com/vcore: 30, metax-tech.com/vmemory: 16"));
    assertNotNull(binding(out, "ml/vcore-only"), out.toString());
    assertNull(binding(out, "ml/with-memory"), "64 + 16 GiB on a 64 GiB GPU: " + out);
  }

  @Test
  void metaxShareWithoutVcoreHoldsTheWholeCompute(@TempDir Path dir) throws Exception {
    JsonObject out = simulate(dir, METAX_NODE + pod("no-vcore", "metax-tech.com/sgpu: 1, metax-tech.com/vmemory: 8")
        + pod("with-vcore", "metax-tech.com/sgpu: 1, metax-tech.com/vcore: 30, metax-tech.com/vmemory: 8"));
    assertNotNull(binding(out, "ml/no-vcore"), out.toString());
    assertNull(binding(out, "ml/with-vcore"), "HAMi writes 100% for the first, so 130% with the second: " + out);
  }

  @Test
  void sharesNamingTheirMemoryStillShareOneDevice(@TempDir Path dir) throws Exception {
    JsonObject out = simulate(dir, HAMI_NODE + pod("a", "nvidia.com/gpu: 1, nvidia.com/gpucores: 50, nvidia.com/gpumem: 40960")
        + pod("b", "nvidia.com/gpu: 1, nvidia.com/gpucores: 30, nvidia.com/gpumem: 40960"));
    assertNotNull(binding(out, "ml/a"), out.toString());
    assertNotNull(binding(out, "ml/b"), "40 + 40 GiB fit 80 GiB: " + out);
    assertFalse(out.getAsJsonArray("bindings").isEmpty());
  }

  @Test
  void hamiGpumemPercentageHoldsThatShareOfTheDevice(@TempDir Path dir) throws Exception {
    JsonObject out = simulate(dir, HAMI_NODE
        + pod("half", "nvidia.com/gpu: 1, nvidia.com/gpumem-percentage: 50")
        + pod("sixty", "nvidia.com/gpu: 1, nvidia.com/gpucores: 10, nvidia.com/gpumem-percentage: 60")
        + pod("other-half", "nvidia.com/gpu: 1, nvidia.com/gpucores: 20, nvidia.com/gpumem-percentage: 50"));
    JsonObject half = binding(out, "ml/half");
    assertNotNull(half, "a pod asking gpumem-percentage is placed as a share: " + out);
    assertEquals("GPU-h0,NVIDIA,40960,0:;",
        half.getAsJsonObject("annotations").get("hami.io/vgpu-devices-to-allocate").getAsString());
    JsonObject other = binding(out, "ml/other-half");
    assertNotNull(other, out.toString());
    assertEquals("GPU-h0,NVIDIA,40960,20:;",
        other.getAsJsonObject("annotations").get("hami.io/vgpu-devices-to-allocate").getAsString());
    assertNull(binding(out, "ml/sixty"), "40,960 + 49,152 MiB on an 81,920 MiB GPU: " + out);
  }

  @Test
  void hamiShareAskingAllTheComputeTakesTheDeviceAlone(@TempDir Path dir) throws Exception {
    JsonObject out = simulate(dir, HAMI_NODE
        + pod("all-compute", "nvidia.com/gpu: 1, nvidia.com/gpucores: 100, nvidia.com/gpumem: 4096")
        + pod("no-compute", "nvidia.com/gpu: 1, nvidia.com/gpumem: 4096"));
    boolean all = binding(out, "ml/all-compute") != null;
    boolean none = binding(out, "ml/no-compute") != null;
    assertTrue(all || none, out.toString());
    assertFalse(all && none, "100% compute shares its device with nobody, as in HAMi: " + out);
  }
}
