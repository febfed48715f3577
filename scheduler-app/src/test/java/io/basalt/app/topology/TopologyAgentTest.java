package io.basalt.app.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.gpu.GpuAnnotations;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Compare-then-write, against an in-memory node. */
class TopologyAgentTest {
  private static final String KEY = GpuAnnotations.TOPOLOGY;

  /** A node's annotations in memory, recording every call. */
  static final class MemoryNodes implements NodeAnnotator {
    final Map<String, String> annotations = new HashMap<>();
    final List<String> calls = new ArrayList<>();
    ClusterException failure;

    @Override
    public String get(String node, String key) throws ClusterException {
      calls.add("get " + node);
      if (failure != null) {
        throw failure;
      }
      return annotations.get(key);
    }

    @Override
    public void set(String node, String key, String value) throws ClusterException {
      calls.add("set " + node);
      annotations.put(key, value);
    }
  }

  private static TopologyAnnotation dgx() throws SmiOutputException {
    return TopologyAnnotationTest.build("dgx-h100");
  }

  @Test
  void writesWhenAbsentThenLeavesAnEqualValueAlone() throws Exception {
    MemoryNodes nodes = new MemoryNodes();
    TopologyAnnotation a = dgx();
    TopologyAgent agent = new TopologyAgent(() -> a, nodes, "gpu-1");

    assertEquals(new TopologyAgent.Pass(true, 8), agent.pass());
    assertEquals(a.json(), nodes.annotations.get(KEY));
    assertEquals(new TopologyAgent.Pass(false, 8), agent.pass());
    assertEquals(List.of("get gpu-1", "set gpu-1", "get gpu-1"), nodes.calls);
  }

  @Test
  void aValueEqualAsJsonButSpacedDifferentlyIsNotRewrittenAndADifferentOneIs() throws Exception {
    MemoryNodes nodes = new MemoryNodes();
    TopologyAnnotation a = dgx();
    TopologyAgent agent = new TopologyAgent(() -> a, nodes, "gpu-1");
    nodes.annotations.put(KEY, a.json().replace(",", ", ").replace(":", ": "));
    assertFalse(agent.pass().written());
    nodes.annotations.put(KEY, a.json().replace("NV18", "NV12"));
    assertTrue(agent.pass().written());
    nodes.annotations.put(KEY, "not json");
    assertTrue(agent.pass().written());
    assertEquals(a.json(), nodes.annotations.get(KEY));
  }

  @Test
  void anUnreadableTopologyNeverReachesTheNode() {
    MemoryNodes nodes = new MemoryNodes();
    TopologyAgent agent = new TopologyAgent(() -> {
      throw new SmiOutputException("nvidia-smi topo -m", 3, "GPU1", "bad");
    }, nodes, "gpu-1");
    assertThrows(SmiOutputException.class, agent::pass);
    assertEquals(List.of(), nodes.calls);
  }

  @Test
  void loopRetriesFailedPassesAndStopsWhenTold() throws Exception {
    MemoryNodes nodes = new MemoryNodes();
    TopologyAnnotation a = dgx();
    AtomicInteger reads = new AtomicInteger();
    CountDownLatch stop = new CountDownLatch(1);
    TopologyAgent agent = new TopologyAgent(() -> {
      int n = reads.incrementAndGet();
      if (n == 4) {
        stop.countDown();
      }
      if (n == 1) {
        throw new SmiException("`nvidia-smi topo -m` exited with 9: NVIDIA-SMI has failed");
      }
      return a;
    }, nodes, "gpu-1");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    agent.loop(Duration.ofMillis(5), stop, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));

    assertEquals(4, reads.get());
    assertEquals(List.of("get gpu-1", "set gpu-1", "get gpu-1", "get gpu-1"), nodes.calls);
    assertEquals("topology-agent: `nvidia-smi topo -m` exited with 9: NVIDIA-SMI has failed; nothing written to node "
        + "gpu-1\n", err.toString(StandardCharsets.UTF_8));
    assertEquals("topology-agent: node gpu-1: basalt.io/gpu-topology written (8 GPUs)\n",
        out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void loopWithStopAlreadyOpenRunsOnePassAndReportsIt() throws Exception {
    MemoryNodes nodes = new MemoryNodes();
    TopologyAnnotation a = dgx();
    nodes.annotations.put(KEY, a.json());
    CountDownLatch stop = new CountDownLatch(0);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new TopologyAgent(() -> a, nodes, "gpu-1").loop(Duration.ofHours(1), stop,
        new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
    assertEquals("topology-agent: node gpu-1: basalt.io/gpu-topology unchanged (8 GPUs)\n",
        out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void clusterErrorsInTheLoopAreReportedAndRetried() throws Exception {
    MemoryNodes nodes = new MemoryNodes();
    nodes.failure = new ClusterException("GET node gpu-1 (HTTP 403): forbidden");
    TopologyAnnotation a = dgx();
    AtomicInteger reads = new AtomicInteger();
    CountDownLatch stop = new CountDownLatch(1);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    new TopologyAgent(() -> {
      if (reads.incrementAndGet() == 2) {
        stop.countDown();
      }
      return a;
    }, nodes, "gpu-1").loop(Duration.ofMillis(1), stop, System.out, new PrintStream(err, true,
        StandardCharsets.UTF_8));
    assertEquals("topology-agent: GET node gpu-1 (HTTP 403): forbidden\n".repeat(2),
        err.toString(StandardCharsets.UTF_8));
  }
}
