package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HAMi's protocol as a real cluster showed it going wrong (issue 31), against the fake API server: a pod waiting for
 * HAMi's node lock was told nothing.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class HamiRealServerRunTest {
  private static final Duration WAIT = Duration.ofSeconds(40);
  private static final String LOCK = "hami.io/mutex.lock";
  private static final String DEVICESHARE_TIERS = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: nodeorder}, {name: deviceshare}, {name: gpu-aware}]
      """;

  /** A node with HAMi's NVIDIA inventory: {@code gpus} 80 GiB GPUs, each 10 vGPUs. */
  static String hamiNode(String name, int gpus) {
    StringBuilder register = new StringBuilder("[");
    for (int i = 0; i < gpus; i++) {
      register.append(i == 0 ? "" : ",").append("{\"id\":\"GPU-").append(name).append(i).append("\",\"index\":")
          .append(i).append(",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"NVIDIA-H100\",")
          .append("\"health\":true}");
    }
    JsonObject a = new JsonObject();
    a.addProperty("hami.io/node-nvidia-register", register.append("]").toString());
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\",\"annotations\":" + a
        + "},\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\""
        + gpus * 10 + "\"}}}";
  }

  /** A pending pod of ours asking for {@code gpus} whole GPUs. */
  static String wholeGpuPod(String name, int gpus) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\"},"
        + "\"spec\":{\"schedulerName\":\"basalt-scheduler\",\"containers\":[{\"name\":\"c\",\"image\":\"x\","
        + "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"" + gpus + "\"}}}]}}";
  }

  static String annotation(JsonObject obj, String key) {
    JsonObject a = obj.getAsJsonObject("metadata").getAsJsonObject("annotations");
    return a == null || !a.has(key) ? null : a.get(key).getAsString();
  }

  @Test
  void withTheDefaultTiersAWholeGpuPodOnAHamiNodeGetsHamisAnnotationsAndTheNodeLock(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(hamiNode("h1", 2));
      server.seed(wholeGpuPod("whole", 1));
      // No --config: Volcano's default tiers, as the chart ships them (no gpu-aware, no deviceshare).
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("whole bound", WAIT, () -> LiveRun.nodeOf(server, "whole") != null);
        JsonObject pod = server.get(Resources.PODS, "ml", "whole");
        assertEquals("GPU-h10,NVIDIA,81920,0:;", annotation(pod, "hami.io/vgpu-devices-allocated"),
            "HAMi's device plugin allocates what this names: " + pod);
        assertEquals("GPU-h10,NVIDIA,81920,0:;", annotation(pod, "hami.io/vgpu-devices-to-allocate"));
        assertEquals("allocating", annotation(pod, "hami.io/bind-phase"));
        assertTrue(annotation(server.get(Resources.NODES, null, "h1"), LOCK).endsWith(",ml,whole"),
            "the device plugin finds the pod through the lock");
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aPodWaitingForTheNodeLockIsToldWhoHoldsItThenBindsWhenItIsReleased(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(hamiNode("h1", 2));
      // Another scheduler's pod holds the lock: HAMi's device plugin has not allocated for it yet.
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"holder\",\"namespace\":\"ml\"},"
          + "\"spec\":{\"schedulerName\":\"hami-scheduler\",\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
      String held = Instant.now().truncatedTo(ChronoUnit.SECONDS) + ",ml,holder";
      server.mergePatch(Resources.NODES, null, "h1", "{\"metadata\":{\"annotations\":{\"" + LOCK + "\":\"" + held
          + "\"}}}");
      server.seed(wholeGpuPod("p", 1));
      Path conf = Files.writeString(dir.resolve("basalt.conf"), DEVICESHARE_TIERS);
      try (LiveRun run = LiveRun.start(server, dir, "--config", conf.toString())) {
        Await.until("p told it waits for the lock", WAIT, () -> {
          JsonObject status = server.get(Resources.PODS, "ml", "p").getAsJsonObject("status");
          return status != null && status.toString().contains("WaitingToBind");
        });
        JsonObject condition = server.get(Resources.PODS, "ml", "p").getAsJsonObject("status")
            .getAsJsonArray("conditions").get(0).getAsJsonObject();
        assertEquals("PodScheduled", condition.get("type").getAsString());
        assertEquals("False", condition.get("status").getAsString());
        assertTrue(condition.get("message").getAsString().contains("hami.io/mutex.lock is held by pod ml/holder"),
            condition.toString());
        Await.until("an event naming the holder", WAIT, () -> server.list(Resources.EVENTS, "ml").stream()
            .anyMatch(e -> e.toString().contains("WaitingToBind") && e.toString().contains("ml/holder")));
        assertNull(LiveRun.nodeOf(server, "p"), "not bound while another pod holds the lock");

        // HAMi's device plugin allocated for the holder and released the lock.
        server.mergePatch(Resources.NODES, null, "h1", "{\"metadata\":{\"annotations\":{\"" + LOCK + "\":null}}}");
        Await.until("p bound", WAIT, () -> LiveRun.nodeOf(server, "p") != null);
        assertTrue(annotation(server.get(Resources.NODES, null, "h1"), LOCK).endsWith(",ml,p"));
        assertEquals(0, run.stop());
      }
    }
  }
}
