package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Basalt sends the API server when it binds in HAMi's device-plugin protocol, request by request, for the five
 * pod kinds HAMi's plugins must honour. One {@code basalt run --scheduler-name hami-scheduler} schedules each pod on a
 * node of its own carrying HAMi's inventory; each test reads the requests its pod caused: the node read, the lock
 * patch, then one binding POST whose annotations are compared with HAMi's format written out literally ({@code
 * UUID,TYPE,MEMORY_MIB,CORES} and ':' per device, ';' per container), so a drift of the format fails here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HamiBindContractTest {
  private static final String CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: nodeorder}, {name: deviceshare}, {name: gpu-aware}]
      """;
  private static final List<String> PODS = List.of("whole", "pair", "share", "two", "sgpu");

  /** NVLink pairs 0-1 and 2-3, PCIe otherwise, in Basalt's topology annotation (it wins over HAMi's inventory). */
  private static final String PAIRS = "{\"devices\":[" + String.join(",", List.of(gpu(0), gpu(1), gpu(2), gpu(3)))
      + "],\"links\":[[\"X\",\"NV4\",\"PHB\",\"PHB\"],[\"NV4\",\"X\",\"PHB\",\"PHB\"],[\"PHB\",\"PHB\",\"X\",\"NV4\"],"
      + "[\"PHB\",\"PHB\",\"NV4\",\"X\"]]}";

  private FakeApiServer server;
  private LiveRun run;

  /** HAMi's NVIDIA inventory: four 80 GiB GPUs {@code <prefix>0..3}, each split into 10 vGPUs. */
  private static String register(String prefix) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < 4; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"id\":\"").append(prefix).append(i).append("\",\"index\":").append(i)
          .append(",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"NVIDIA-H100\",\"health\":true}");
    }
    return sb.append("]").toString();
  }

  private static String gpu(int i) {
    return "{\"index\":" + i + ",\"uuid\":\"GPU-p" + i + "\",\"model\":\"NVIDIA-H100\",\"memoryMiB\":81920}";
  }

  private static String node(String name, Map<String, String> annotations, String resource, int count) {
    JsonObject a = new JsonObject();
    annotations.forEach(a::addProperty);
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{"
        + "\"kubernetes.io/hostname\":\"" + name + "\"},\"annotations\":" + a + "},\"status\":{\"allocatable\":{"
        + "\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"" + resource + "\":\"" + count + "\"}}}";
  }

  private static String container(String name, String limits) {
    return "{\"name\":\"" + name + "\",\"image\":\"x\",\"resources\":{\"limits\":" + limits + "}}";
  }

  /** A pending pod of hami-scheduler pinned to {@code node}; {@code init} may be empty. */
  private static String pod(String name, String node, String init, String... containers) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\"},"
        + "\"spec\":{\"schedulerName\":\"hami-scheduler\",\"nodeSelector\":{\"kubernetes.io/hostname\":\"" + node
        + "\"}," + (init.isEmpty() ? "" : "\"initContainers\":[" + init + "],") + "\"containers\":["
        + String.join(",", containers) + "]}}";
  }

  @BeforeAll
  void bindAllFive(@TempDir Path dir) throws Exception {
    server = FakeApiServer.start();
    server.seed(node("nv-whole", Map.of("hami.io/node-nvidia-register", register("GPU-w")), "nvidia.com/gpu", 40));
    server.seed(node("nv-pair", Map.of("hami.io/node-nvidia-register", register("GPU-p"),
        "basalt.io/gpu-topology", PAIRS), "nvidia.com/gpu", 40));
    server.seed(node("nv-share", Map.of("hami.io/node-nvidia-register", register("GPU-s")), "nvidia.com/gpu", 40));
    server.seed(node("nv-two", Map.of("hami.io/node-nvidia-register", register("GPU-t")), "nvidia.com/gpu", 40));
    server.seed(node("mx", Map.of("metax-tech.com/node-gpu-devices", "[{\"uuid\":\"GPU-mx-0\",\"model\":\"MXC500\","
        + "\"totalVRam\":65536,\"linkZone\":1},{\"uuid\":\"GPU-mx-1\",\"model\":\"MXC500\",\"totalVRam\":65536,"
        + "\"linkZone\":1}]"), "metax-tech.com/sgpu", 8));
    // GPU 0 of nv-pair is busy, so the NVLink pair 2-3 beats 1+2, which the lowest free indices would give.
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"busy\",\"namespace\":\"ml\","
        + "\"annotations\":{\"basalt.io/gpu-devices\":\"0\"}},\"spec\":{\"schedulerName\":\"hami-scheduler\","
        + "\"nodeName\":\"nv-pair\",\"containers\":[" + container("c", "{\"nvidia.com/gpu\":\"1\"}") + "]},"
        + "\"status\":{\"phase\":\"Running\"}}");
    server.seed(pod("whole", "nv-whole", "", container("c", "{\"nvidia.com/gpu\":\"1\"}")));
    server.seed(pod("pair", "nv-pair", "", container("c", "{\"nvidia.com/gpu\":\"2\"}")));
    server.seed(pod("share", "nv-share", "", container("c",
        "{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpucores\":\"30\",\"nvidia.com/gpumem\":\"4096\"}")));
    server.seed(pod("two", "nv-two", container("setup", "{\"cpu\":\"1\"}"),
        container("a", "{\"nvidia.com/gpu\":\"1\"}"), container("b", "{\"nvidia.com/gpu\":\"2\"}")));
    server.seed(pod("sgpu", "mx", "", container("c",
        "{\"metax-tech.com/sgpu\":\"1\",\"metax-tech.com/vcore\":\"60\",\"metax-tech.com/vmemory\":\"4\"}")));
    Path conf = Files.writeString(dir.resolve("basalt.conf"), CONF);
    run = LiveRun.start(server, dir, "--scheduler-name", "hami-scheduler", "--config", conf.toString());
    Await.until("all five bound", Duration.ofSeconds(30),
        () -> PODS.stream().allMatch(p -> LiveRun.nodeOf(server, p) != null));
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (run != null) {
        assertEquals(0, run.stop());
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  @Test
  void aWholeGpuPod() {
    assertEquals(Map.of("basalt.io/gpu-devices", "0", "basalt.io/gpu-uuids", "GPU-w0",
        "hami.io/vgpu-devices-to-allocate", "GPU-w0,NVIDIA,81920,0:;",
        "hami.io/vgpu-devices-allocated", "GPU-w0,NVIDIA,81920,0:;",
        "hami.io/vgpu-node", "nv-whole"), sent("whole", "nv-whole"));
    lockedThenBound("whole", "nv-whole");
  }

  @Test
  void aTwoGpuPodOnTheNvlinkPairTopologyChose() {
    assertEquals(Map.of("basalt.io/gpu-devices", "2,3", "basalt.io/gpu-uuids", "GPU-p2,GPU-p3",
        "hami.io/vgpu-devices-to-allocate", "GPU-p2,NVIDIA,81920,0:GPU-p3,NVIDIA,81920,0:;",
        "hami.io/vgpu-devices-allocated", "GPU-p2,NVIDIA,81920,0:GPU-p3,NVIDIA,81920,0:;",
        "hami.io/vgpu-node", "nv-pair"), sent("pair", "nv-pair"));
    lockedThenBound("pair", "nv-pair");
  }

  @Test
  void aThirtyPercentFourGibShare() {
    assertEquals(Map.of("basalt.io/gpu-devices", "0", "basalt.io/gpu-uuids", "GPU-s0",
        "hami.io/vgpu-devices-to-allocate", "GPU-s0,NVIDIA,4096,30:;",
        "hami.io/vgpu-devices-allocated", "GPU-s0,NVIDIA,4096,30:;",
        "hami.io/vgpu-node", "nv-share"), sent("share", "nv-share"));
    lockedThenBound("share", "nv-share");
  }

  @Test
  void aTwoContainerPodAfterAnInitContainerWithoutGpus() {
    assertEquals(Map.of("basalt.io/gpu-devices", "0,1,2", "basalt.io/gpu-uuids", "GPU-t0,GPU-t1,GPU-t2",
        "hami.io/vgpu-devices-to-allocate", ";GPU-t0,NVIDIA,81920,0:;GPU-t1,NVIDIA,81920,0:GPU-t2,NVIDIA,81920,0:;",
        "hami.io/vgpu-devices-allocated", ";GPU-t0,NVIDIA,81920,0:;GPU-t1,NVIDIA,81920,0:GPU-t2,NVIDIA,81920,0:;",
        "hami.io/vgpu-node", "nv-two"), sent("two", "nv-two"));
    lockedThenBound("two", "nv-two");
  }

  @Test
  void theMetaxSgpuPodOfTheGuide() {
    Map<String, String> sent = sent("sgpu", "mx");
    String nanos = sent.remove("metax-tech.com/predicate-time");
    assertTrue(nanos != null && nanos.matches("\\d{19}"), "predicate-time in Unix nanoseconds: " + nanos);
    assertEquals(Map.of("basalt.io/gpu-devices", "0", "basalt.io/gpu-uuids", "GPU-mx-0",
        "hami.io/metax-sgpu-devices-to-allocate", "GPU-mx-0,Metax-SGPU,4096,60:;",
        "hami.io/metax-sgpu-devices-allocated", "GPU-mx-0,Metax-SGPU,4096,60:;",
        "metax-tech.com/gpu-devices-allocated", "[[{\"uuid\":\"GPU-mx-0\",\"compute\":60,\"vRam\":4096}]]",
        "hami.io/vgpu-node", "mx"), sent);
    lockedThenBound("sgpu", "mx");
  }

  /**
   * The annotations of the one binding POST sent for {@code pod}, which must target {@code node}; the time stamps
   * are checked and left out: {@code bind-time} and {@code vgpu-time} the same Unix seconds, {@code bind-phase}
   * allocating.
   */
  private Map<String, String> sent(String pod, String node) {
    List<RecordedRequest> posts = server.requests("POST", "/api/v1/namespaces/ml/pods/" + pod + "/binding");
    assertEquals(1, posts.size(), pod + ": bound with one POST");
    JsonObject binding = posts.get(0).json().getAsJsonObject();
    assertEquals(node, binding.getAsJsonObject("target").get("name").getAsString());
    Map<String, String> a = new TreeMap<>();
    binding.getAsJsonObject("metadata").getAsJsonObject("annotations").entrySet()
        .forEach(e -> a.put(e.getKey(), e.getValue().getAsString()));
    String seconds = a.remove("hami.io/bind-time");
    assertTrue(seconds != null && Math.abs(Long.parseLong(seconds) - Instant.now().getEpochSecond()) < 300,
        pod + ": bind-time in Unix seconds: " + seconds);
    assertEquals(seconds, a.remove("hami.io/vgpu-time"));
    assertEquals("allocating", a.remove("hami.io/bind-phase"));
    if (a.containsKey("metax-tech.com/predicate-time")) {
      assertTrue(a.get("metax-tech.com/predicate-time").startsWith(seconds), "predicate-time at bind-time");
    }
    return a;
  }

  /**
   * The node read, HAMi's lock set on it by a merge patch guarded by the resourceVersion read, then the binding:
   * HAMi's device plugin finds the pod to allocate for through the lock.
   */
  private void lockedThenBound(String pod, String node) {
    List<RecordedRequest> calls = server.requests(null,
        "/api/v1/(nodes/" + node + "|namespaces/ml/pods/" + pod + "/binding)");
    assertEquals(List.of("GET", "PATCH", "POST"), calls.stream().map(RecordedRequest::method).toList(),
        pod + ": " + calls);
    RecordedRequest patch = calls.get(1);
    assertTrue(patch.contentType().startsWith("application/merge-patch+json"), patch.contentType());
    JsonObject meta = patch.json().getAsJsonObject().getAsJsonObject("metadata");
    String lock = meta.getAsJsonObject("annotations").get("hami.io/mutex.lock").getAsString();
    assertTrue(lock.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ,ml," + pod), lock);
    assertTrue(!meta.get("resourceVersion").getAsString().isEmpty(), "guarded by resourceVersion");
  }
}
