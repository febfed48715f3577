package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through {@code basalt run --scheduler-name hami-scheduler} against the fake API server: Basalt stands
 * in for hami-scheduler on nodes running HAMi's device plugins. Each pod kind of issue 16 is bound with HAMi's exact
 * annotations and its node locked for the device plugin; a pod hami-scheduler placed before the switch (only HAMi's
 * annotations) keeps its GPU, so the 2-GPU pod gets the other NVLink pair.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HamiRunTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: nodeorder}, {name: deviceshare}, {name: gpu-aware}]
      """;

  private static String register(String prefix) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < 4; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"id\":\"").append(prefix).append(i).append("\",\"index\":").append(i)
          .append(",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"NVIDIA-H100\",\"health\":true}");
    }
    return sb.append("]").toString();
  }

  /** NVLink pairs 0-1 and 2-3, PCIe otherwise, in Basalt's topology annotation. */
  private static final String PAIRS = "{\"devices\":[" + String.join(",", List.of(gpu(0), gpu(1), gpu(2), gpu(3)))
      + "],\"links\":[[\"X\",\"NV4\",\"PHB\",\"PHB\"],[\"NV4\",\"X\",\"PHB\",\"PHB\"],[\"PHB\",\"PHB\",\"X\",\"NV4\"],"
      + "[\"PHB\",\"PHB\",\"NV4\",\"X\"]]}";

  private static String gpu(int i) {
    return "{\"index\":" + i + ",\"uuid\":\"GPU-p" + i + "\",\"model\":\"NVIDIA-H100\",\"memoryMiB\":81920}";
  }

  private static String node(String name, Map<String, String> annotations, String resource, int count) {
    JsonObject meta = new JsonObject();
    meta.addProperty("name", name);
    JsonObject labels = new JsonObject();
    labels.addProperty("kubernetes.io/hostname", name);
    meta.add("labels", labels);
    JsonObject a = new JsonObject();
    annotations.forEach(a::addProperty);
    meta.add("annotations", a);
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":" + meta + ",\"status\":{\"allocatable\":{"
        + "\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"" + resource + "\":\"" + count + "\"}}}";
  }

  /** A pod pinned to {@code node}; each container is {name: limits-json}, init containers prefixed "init:". */
  private static String pod(String name, String node, String extra, Map<String, String> containers) {
    StringBuilder init = new StringBuilder();
    StringBuilder apps = new StringBuilder();
    containers.forEach((c, limits) -> {
      StringBuilder to = c.startsWith("init:") ? init : apps;
      to.append(to.length() == 0 ? "" : ",").append("{\"name\":\"").append(c.replace("init:", ""))
          .append("\",\"image\":\"x\",\"resources\":{\"limits\":").append(limits).append("}}");
    });
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\""
        + extra + "},\"spec\":{\"schedulerName\":\"hami-scheduler\",\"nodeSelector\":{\"kubernetes.io/hostname\":\""
        + node + "\"}," + (init.length() == 0 ? "" : "\"initContainers\":[" + init + "],")
        + "\"containers\":[" + apps + "]}}";
  }

  private static Map<String, String> annotations(FakeApiServer server, String pod) {
    JsonObject a = server.get(Resources.PODS, "ml", pod).getAsJsonObject("metadata").getAsJsonObject("annotations");
    Map<String, String> out = new TreeMap<>();
    if (a != null) {
      a.entrySet().forEach(e -> out.put(e.getKey(), e.getValue().getAsString()));
    }
    return out;
  }

  private static String lock(FakeApiServer server, String node) {
    JsonObject a = server.get(Resources.NODES, null, node).getAsJsonObject("metadata").getAsJsonObject("annotations");
    return a.has("hami.io/mutex.lock") ? a.get("hami.io/mutex.lock").getAsString() : null;
  }

  /** What the bind wrote, without the three time stamps (checked apart). */
  private static Map<String, String> written(FakeApiServer server, String pod) {
    Map<String, String> a = annotations(server, pod);
    String t = a.remove("hami.io/bind-time");
    assertTrue(t != null && t.matches("\\d{10}"), pod + ": bind-time in Unix seconds: " + t);
    assertEquals(t, a.remove("hami.io/vgpu-time"));
    assertEquals("allocating", a.remove("hami.io/bind-phase"));
    return a;
  }

  @Test
  void podsOfHamiSchedulerAreBoundWithHamisAnnotationsAndTheirNodesLocked(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      for (String n : List.of("nv-whole", "nv-share", "nv-two")) {
        server.seed(node(n, Map.of("hami.io/node-nvidia-register", register("GPU-" + n.substring(3) + "-")),
            "nvidia.com/gpu", 40));
      }
      server.seed(node("nv-pair", Map.of("hami.io/node-nvidia-register", register("GPU-p"),
          "basalt.io/gpu-topology", PAIRS), "nvidia.com/gpu", 40));
      server.seed(node("mx", Map.of("metax-tech.com/node-gpu-devices", "[{\"uuid\":\"GPU-mx-0\",\"model\":\"MXC500\","
          + "\"totalVRam\":65536,\"linkZone\":1},{\"uuid\":\"GPU-mx-1\",\"model\":\"MXC500\",\"totalVRam\":65536,"
          + "\"linkZone\":1}]"), "metax-tech.com/sgpu", 8));
      // Placed by hami-scheduler before the switch: only HAMi's annotations say it holds GPU-p0.
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"old\",\"namespace\":\"ml\","
          + "\"annotations\":{\"hami.io/vgpu-devices-allocated\":\"GPU-p0,NVIDIA,81920,0:;\"}},\"spec\":{"
          + "\"schedulerName\":\"hami-scheduler\",\"nodeName\":\"nv-pair\",\"containers\":[{\"name\":\"c\","
          + "\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},\"status\":{\"phase\":"
          + "\"Running\"}}");
      server.seed(pod("whole", "nv-whole", "", Map.of("c", "{\"nvidia.com/gpu\":\"1\"}")));
      server.seed(pod("pair", "nv-pair", "", Map.of("c", "{\"nvidia.com/gpu\":\"2\"}")));
      server.seed(pod("share", "nv-share", "", Map.of("c",
          "{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpucores\":\"30\",\"nvidia.com/gpumem\":\"4096\"}")));
      server.seed(pod("two", "nv-two", "", new java.util.LinkedHashMap<>(Map.of("init:setup", "{\"cpu\":\"1\"}",
          "a", "{\"nvidia.com/gpu\":\"1\"}", "b", "{\"nvidia.com/gpu\":\"1\"}"))));
      server.seed(pod("sgpu", "mx", "", Map.of("c",
          "{\"metax-tech.com/sgpu\":\"1\",\"metax-tech.com/vcore\":\"60\",\"metax-tech.com/vmemory\":\"4\"}")));
      Path conf = Files.writeString(dir.resolve("basalt.conf"), CONF);

      try (LiveRun run = LiveRun.start(server, dir, "--scheduler-name", "hami-scheduler", "--config",
          conf.toString())) {
        List<String> pods = List.of("whole", "pair", "share", "two", "sgpu");
        Await.until("all five bound", WAIT, () -> pods.stream().allMatch(p -> LiveRun.nodeOf(server, p) != null));

        assertEquals(Map.of("basalt.io/gpu-devices", "0", "basalt.io/gpu-uuids", "GPU-whole-0",
            "hami.io/vgpu-devices-to-allocate", "GPU-whole-0,NVIDIA,81920,0:;",
            "hami.io/vgpu-devices-allocated", "GPU-whole-0,NVIDIA,81920,0:;", "hami.io/vgpu-node", "nv-whole"),
            written(server, "whole"));
        assertEquals(Map.of("basalt.io/gpu-devices", "2,3", "basalt.io/gpu-uuids", "GPU-p2,GPU-p3",
            "hami.io/vgpu-devices-to-allocate", "GPU-p2,NVIDIA,81920,0:GPU-p3,NVIDIA,81920,0:;",
            "hami.io/vgpu-devices-allocated", "GPU-p2,NVIDIA,81920,0:GPU-p3,NVIDIA,81920,0:;",
            "hami.io/vgpu-node", "nv-pair"), written(server, "pair"), "GPU-p0 is the old pod's: the other pair");
        assertEquals("GPU-share-0,NVIDIA,4096,30:;", written(server, "share").get("hami.io/vgpu-devices-allocated"));
        Map<String, String> two = written(server, "two");
        assertTrue(two.get("hami.io/vgpu-devices-to-allocate").matches(
            ";GPU-two-(\\d),NVIDIA,81920,0:;GPU-two-(\\d),NVIDIA,81920,0:;"), two.toString());
        Map<String, String> sgpu = written(server, "sgpu");
        String device = sgpu.get("basalt.io/gpu-uuids");
        assertEquals(Map.of("basalt.io/gpu-devices", device.substring(device.length() - 1), "basalt.io/gpu-uuids",
            device, "hami.io/metax-sgpu-devices-to-allocate", device + ",Metax-SGPU,4096,60:;",
            "hami.io/metax-sgpu-devices-allocated", device + ",Metax-SGPU,4096,60:;",
            "metax-tech.com/gpu-devices-allocated", "[[{\"uuid\":\"" + device + "\",\"compute\":60,\"vRam\":4096}]]",
            "metax-tech.com/predicate-time", annotations(server, "sgpu").get("metax-tech.com/predicate-time"),
            "hami.io/vgpu-node", "mx"), sgpu);

        for (String p : pods) {
          String node = LiveRun.nodeOf(server, p);
          assertTrue(lock(server, node).endsWith(",ml," + p), node + " locked for " + p + "'s device plugin");
        }
        assertEquals(0, run.stop());
      }
    }
  }
}
