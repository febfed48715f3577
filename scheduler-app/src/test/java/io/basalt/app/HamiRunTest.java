package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.LogCapture;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Switching from hami-scheduler to {@code basalt run --scheduler-name hami-scheduler}, against the fake API server:
 * pods hami-scheduler placed before the switch carry only HAMi's {@code hami.io/vgpu-devices-allocated}, which the
 * informer-fed cache reads, so their devices are never handed out again; a malformed one is named in a warning and
 * its pod still counted (on the lowest free GPUs), and scheduling goes on. The exact requests of a bind are
 * {@link HamiBindContractTest}'s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HamiRunTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String ALLOCATED = "hami.io/vgpu-devices-allocated";
  private static final String CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: nodeorder}, {name: deviceshare}, {name: gpu-aware}]
      """;

  private final LogCapture inventoryLog = LogCapture.warnings("io.basalt.cache.GpuInventory");
  private final List<String> warnings = inventoryLog.messages();

  @AfterEach
  void release() {
    inventoryLog.close();
  }

  /** A node with HAMi's NVIDIA inventory: {@code gpus} 80 GiB GPUs {@code <prefix>0..}, each 10 vGPUs. */
  private static String node(String name, String prefix, int gpus) {
    StringBuilder register = new StringBuilder("[");
    for (int i = 0; i < gpus; i++) {
      register.append(i == 0 ? "" : ",").append("{\"id\":\"").append(prefix).append(i).append("\",\"index\":")
          .append(i).append(",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"NVIDIA-H100\",")
          .append("\"health\":true}");
    }
    JsonObject a = new JsonObject();
    a.addProperty("hami.io/node-nvidia-register", register.append("]").toString());
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{"
        + "\"kubernetes.io/hostname\":\"" + name + "\"},\"annotations\":" + a + "},\"status\":{\"allocatable\":{"
        + "\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"" + gpus * 10 + "\"}}}";
  }

  /** A running pod hami-scheduler placed on {@code node}: only HAMi's allocated annotation says which GPUs. */
  private static String placed(String name, String node, String limits, String allocated) {
    JsonObject a = new JsonObject();
    a.addProperty(ALLOCATED, allocated);
    a.addProperty("hami.io/vgpu-node", node);
    a.addProperty("hami.io/bind-phase", "success");
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"annotations\":" + a + "},\"spec\":{\"schedulerName\":\"hami-scheduler\",\"nodeName\":\"" + node + "\","
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":" + limits + "}}]},"
        + "\"status\":{\"phase\":\"Running\"}}";
  }

  /** A pending whole-GPU pod of hami-scheduler pinned to {@code node}. */
  private static String pending(String name, String node) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\"},"
        + "\"spec\":{\"schedulerName\":\"hami-scheduler\",\"nodeSelector\":{\"kubernetes.io/hostname\":\"" + node
        + "\"},\"containers\":[{\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}"
        + "]}}";
  }

  private static String annotation(FakeApiServer server, String pod, String key) {
    JsonObject a = server.get(Resources.PODS, "ml", pod).getAsJsonObject("metadata").getAsJsonObject("annotations");
    return a == null || !a.has(key) ? null : a.get(key).getAsString();
  }

  private static boolean unschedulable(FakeApiServer server, String pod) {
    JsonObject status = server.get(Resources.PODS, "ml", pod).getAsJsonObject("status");
    return status != null && status.has("conditions") && status.toString().contains("Unschedulable");
  }

  private static LiveRun start(FakeApiServer server, Path dir) throws Exception {
    Path conf = Files.writeString(dir.resolve("basalt.conf"), CONF);
    return LiveRun.start(server, dir, "--scheduler-name", "hami-scheduler", "--config", conf.toString());
  }

  @Test
  void podsHamiSchedulerPlacedKeepTheirGpusSoANewPodGetsTheFreeOne(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("held", "GPU-h", 3));
      // GPU-h1 whole and a 30% share of GPU-h0: the lowest free indices would wrongly leave GPU-h1 free.
      server.seed(placed("old-whole", "held", "{\"nvidia.com/gpu\":\"1\"}", "GPU-h1,NVIDIA,81920,0:;"));
      server.seed(placed("old-share", "held", "{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpucores\":\"30\","
          + "\"nvidia.com/gpumem\":\"4096\"}", "GPU-h0,NVIDIA,4096,30:;"));
      server.seed(pending("next", "held"));

      try (LiveRun run = start(server, dir)) {
        Await.until("next bound", WAIT, () -> LiveRun.nodeOf(server, "next") != null);
        assertEquals("GPU-h2,NVIDIA,81920,0:;", annotation(server, "next", ALLOCATED));
        assertEquals("GPU-h2,NVIDIA,81920,0:;", annotation(server, "next", "hami.io/vgpu-devices-to-allocate"));
        assertEquals("allocating", annotation(server, "next", "hami.io/bind-phase"));
        assertTrue(server.get(Resources.NODES, null, "held").getAsJsonObject("metadata")
            .getAsJsonObject("annotations").get("hami.io/mutex.lock").getAsString().endsWith(",ml,next"));

        server.seed(pending("more", "held"));
        Await.until("more told why it waits", WAIT, () -> unschedulable(server, "more"));
        assertNull(LiveRun.nodeOf(server, "more"), "GPU-h0 is shared and GPU-h1 held: no whole GPU left");
        assertEquals(0, run.stop());
      }
    }
    assertEquals(List.of(), warnings, "well-formed HAMi annotations warn of nothing");
  }

  @Test
  void aMalformedHamiAnnotationIsNamedAndItsPodStillCountedOnTheLowestFreeGpus(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("bad", "GPU-b", 5));
      String gpu = "{\"nvidia.com/gpu\":\"1\"}";
      server.seed(placed("bad-number", "bad", gpu, "GPU-b3,NVIDIA,notanumber,30:;"));
      server.seed(placed("bad-fields", "bad", gpu, "GPU-b3,NVIDIA:;"));
      server.seed(placed("bad-uuid", "bad", gpu, "GPU-x,NVIDIA,81920,0:;"));
      server.seed(placed("bad-empty", "bad", gpu, ";"));
      server.seed(pending("after", "bad"));

      try (LiveRun run = start(server, dir)) {
        Await.until("after bound", WAIT, () -> LiveRun.nodeOf(server, "after") != null);
        assertEquals("GPU-b4,NVIDIA,81920,0:;", annotation(server, "after", ALLOCATED),
            "the four malformed pods are assumed on GPU-b0..3, never dropped");
        assertEquals(0, run.stop(), "no crash");
      }
    }
    String tail = "; assuming it holds the lowest free 1 GPU";
    assertEquals(List.of(
        "pod ml/bad-number on node bad: annotation " + ALLOCATED + ": container 0: memory 'notanumber' is not a whole"
            + " number" + tail,
        "pod ml/bad-fields on node bad: annotation " + ALLOCATED + ": container 0: 'GPU-b3,NVIDIA' is not UUID,TYPE,"
            + "MEMORY,CORES" + tail,
        "pod ml/bad-uuid on node bad: annotation " + ALLOCATED + ": device GPU-x is not among the node's 5 GPUs"
            + tail,
        "pod ml/bad-empty on node bad: annotation " + ALLOCATED + ": lists no devices" + tail),
        warnings.stream().sorted(HamiRunTest::byPod).toList());
  }

  private static final List<String> ORDER = List.of("bad-number", "bad-fields", "bad-uuid", "bad-empty");

  private static int byPod(String a, String b) {
    return Integer.compare(rank(a), rank(b));
  }

  private static int rank(String warning) {
    for (int i = 0; i < ORDER.size(); i++) {
      if (warning.startsWith("pod ml/" + ORDER.get(i) + " ")) {
        return i;
      }
    }
    return ORDER.size();
  }
}
