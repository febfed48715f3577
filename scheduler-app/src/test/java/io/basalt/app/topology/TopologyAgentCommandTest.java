package io.basalt.app.topology;

import static io.basalt.app.CliRun.basalt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.app.CliRun;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt topology-agent} end to end: a fake nvidia-smi script, and the shared fake API server behind
 * --kubeconfig.
 */
@DisabledOnOs(OS.WINDOWS)
class TopologyAgentCommandTest {
  @TempDir
  Path dir;

  /**
   * A stand-in for nvidia-smi that cats {@code topo} for the matrix and {@code csv} for anything asking to query,
   * appending its arguments to args.log.
   */
  private String fakeSmi(String topo, String csv) throws IOException {
    Path script = dir.resolve("fake-smi");
    Files.writeString(script, String.join("\n",
        "#!/bin/sh",
        "echo \"$*\" >> '" + dir.resolve("args.log") + "'",
        "case \"$*\" in",
        "  *query*) cat '" + Captures.path(csv) + "' ;;",
        "  *) cat '" + Captures.path(topo) + "' ;;",
        "esac",
        ""));
    assertTrue(script.toFile().setExecutable(true));
    return script.toString();
  }

  private List<String> smiCalls() throws IOException {
    return Files.readAllLines(dir.resolve("args.log"));
  }

  /** A server holding node gpu-7, labelled with its hostname and without annotations. */
  private static FakeApiServer serverWithNode() {
    FakeApiServer server = FakeApiServer.start();
    server.seed(KubeNodeAnnotatorTest.node("gpu-7", "{}"));
    return server;
  }

  /** "METHOD path" of every request the server received, in order. */
  private static List<String> calls(FakeApiServer server) {
    return server.requests().stream().map(r -> r.method() + " " + r.path()).toList();
  }

  @Test
  void printWritesTheAnnotationJsonThatReadsBackToTheSameScores() throws Exception {
    for (String machine : List.of("dgx-h100", "pcie-2socket", "nvlink-pairs-4gpu")) {
      CliRun r = basalt("topology-agent", "--print", "--smi", fakeSmi(machine + "-topo.txt", machine + "-query.csv"));
      assertEquals(0, r.exit(), r.err());
      assertEquals("", r.err());
      TopologyAnnotationTest.assertReadsBackAs(machine, r.out().strip());
      assertEquals(TopologyAnnotationTest.build(machine).json() + System.lineSeparator(), r.out());
    }
    assertEquals(List.of("topo -m", "--query-gpu=index,uuid,name,memory.total --format=csv,noheader"),
        smiCalls().subList(0, 2));
  }

  @Test
  void topoAndQueryArgumentsAreConfigurable() throws Exception {
    CliRun r = basalt("topology-agent", "--print", "--smi", fakeSmi("nvlink-pairs-4gpu-topo.txt",
        "nvlink-pairs-4gpu-query.csv"), "--topo-args", "topo --matrix", "--query-args",
        "--query-gpu=index,uuid,name,memory.total --format=csv");
    assertEquals(0, r.exit(), r.err());
    assertEquals(List.of("topo --matrix", "--query-gpu=index,uuid,name,memory.total --format=csv"), smiCalls());
  }

  @Test
  void onceGetsThenPatchesAndASecondPassWritesNothing() throws Exception {
    try (FakeApiServer server = serverWithNode()) {
      String smi = fakeSmi("dgx-h100-topo.txt", "dgx-h100-query.csv");
      String kubeconfig = server.writeKubeconfig(dir).toString();

      CliRun first = basalt("topology-agent", "--once", "--node", "gpu-7", "--kubeconfig", kubeconfig, "--smi", smi);
      assertEquals(0, first.exit(), first.err());
      assertEquals("topology-agent: node gpu-7: basalt.io/gpu-topology written (8 GPUs)\n", first.out());
      List<RecordedRequest> r = server.requests();
      assertEquals(List.of("GET /api/v1/nodes/gpu-7", "PATCH /api/v1/nodes/gpu-7"), calls(server));
      assertTrue(r.get(1).contentType().startsWith("application/merge-patch+json"), r.get(1).contentType());
      String json = TopologyAnnotationTest.build("dgx-h100").json();
      assertEquals(json, KubeNodeAnnotatorTest.annotation(server, "gpu-7", GpuAnnotations.TOPOLOGY));
      JsonObject patch = new JsonObject();
      JsonObject metadata = new JsonObject();
      JsonObject annotations = new JsonObject();
      annotations.addProperty(GpuAnnotations.TOPOLOGY, json);
      metadata.add("annotations", annotations);
      patch.add("metadata", metadata);
      assertEquals(patch, JsonParser.parseString(r.get(1).body()));
      String resourceVersion = KubeNodeAnnotatorTest.metadata(server, "gpu-7").get("resourceVersion").getAsString();

      CliRun second = basalt("topology-agent", "--once", "--node", "gpu-7", "--kubeconfig", kubeconfig, "--smi", smi);
      assertEquals(0, second.exit(), second.err());
      assertEquals("topology-agent: node gpu-7: basalt.io/gpu-topology unchanged (8 GPUs)\n", second.out());
      assertEquals(List.of("GET /api/v1/nodes/gpu-7", "PATCH /api/v1/nodes/gpu-7", "GET /api/v1/nodes/gpu-7"),
          calls(server));
      assertEquals(resourceVersion,
          KubeNodeAnnotatorTest.metadata(server, "gpu-7").get("resourceVersion").getAsString(), "node not rewritten");
    }
  }

  @Test
  void malformedOutputExitsOneWithLineAndColumnAndTouchesNoNode() throws Exception {
    try (FakeApiServer server = serverWithNode()) {
      String kubeconfig = server.writeKubeconfig(dir).toString();
      for (String bad : List.of("malformed-ragged-topo.txt", "malformed-unknown-code-topo.txt")) {
        CliRun r = basalt("topology-agent", "--once", "--node", "gpu-7", "--kubeconfig", kubeconfig,
            "--smi", fakeSmi(bad, "nvlink-pairs-4gpu-query.csv"));
        assertEquals(1, r.exit(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("topology-agent: output of `" + dir.resolve("fake-smi") + " topo -m`, line "),
            r.err());
        assertTrue(r.err().contains(", column GPU"), r.err());
        assertTrue(r.err().strip().endsWith("; nothing written to node gpu-7"), r.err());
      }
      assertEquals(List.of(), server.requests());
      CliRun print = basalt("topology-agent", "--print", "--smi", fakeSmi("malformed-ragged-topo.txt",
          "nvlink-pairs-4gpu-query.csv"));
      assertEquals(1, print.exit());
      assertEquals("", print.out());
    }
  }

  @Test
  void gpuCountMismatchIsAParseError() throws Exception {
    CliRun r = basalt("topology-agent", "--print", "--smi", fakeSmi("dgx-h100-topo.txt", "pcie-2socket-query.csv"));
    assertEquals(0, r.exit(), "both list 8 GPUs");
    r = basalt("topology-agent", "--print", "--smi", fakeSmi("dgx-h100-topo.txt", "nvlink-pairs-4gpu-query.csv"));
    assertEquals(1, r.exit());
    assertTrue(r.err().contains("lists 8 GPUs but `"), r.err());
  }

  @Test
  void aFailingOrMissingSmiExitsOne() throws Exception {
    Path failing = dir.resolve("broken-smi");
    Files.writeString(failing, "#!/bin/sh\necho 'NVIDIA-SMI has failed because it couldn'\"'\"'t communicate with "
        + "the NVIDIA driver.'\nexit 9\n");
    assertTrue(failing.toFile().setExecutable(true));
    CliRun r = basalt("topology-agent", "--print", "--smi", failing.toString());
    assertEquals(1, r.exit());
    assertEquals("topology-agent: `" + failing + " topo -m` exited with 9: NVIDIA-SMI has failed because it "
        + "couldn't communicate with the NVIDIA driver.\n", r.err());

    CliRun missing = basalt("topology-agent", "--print", "--smi", dir.resolve("no-such-smi").toString());
    assertEquals(1, missing.exit());
    assertTrue(missing.err().startsWith("topology-agent: cannot run `" + dir.resolve("no-such-smi") + " topo -m`"),
        missing.err());
  }

  @Test
  void aHungSmiIsKilledAfterTheTimeout() throws Exception {
    Path hung = dir.resolve("hung-smi");
    Files.writeString(hung, "#!/bin/sh\nexec sleep 30\n");
    assertTrue(hung.toFile().setExecutable(true));
    long start = System.nanoTime();
    CliRun r = basalt("topology-agent", "--print", "--smi", hung.toString(), "--smi-timeout", "300ms");
    assertEquals(1, r.exit());
    assertTrue(r.err().contains("did not finish within"), r.err());
    assertTrue(System.nanoTime() - start < 10_000_000_000L, "killed, not waited for");
  }

  @Test
  void clusterErrorsExitTwo() throws Exception {
    try (FakeApiServer server = serverWithNode()) {
      server.faults().failNextMatching(Integer.MAX_VALUE, 403, r -> true);
      CliRun r = basalt("topology-agent", "--once", "--node", "gpu-7", "--kubeconfig",
          server.writeKubeconfig(dir).toString(), "--smi", fakeSmi("dgx-h100-topo.txt", "dgx-h100-query.csv"));
      assertEquals(2, r.exit(), r.err());
      assertEquals("topology-agent: GET node gpu-7 (HTTP 403): fake API server: injected HTTP 403\n", r.err());
      assertEquals(List.of("GET /api/v1/nodes/gpu-7"), calls(server));
      assertNull(KubeNodeAnnotatorTest.annotation(server, "gpu-7", GpuAnnotations.TOPOLOGY));
    }
    CliRun noConfig = basalt("topology-agent", "--once", "--node", "gpu-7", "--kubeconfig",
        dir.resolve("missing-kubeconfig").toString(), "--smi", fakeSmi("dgx-h100-topo.txt", "dgx-h100-query.csv"));
    assertEquals(2, noConfig.exit(), noConfig.err());
    assertTrue(noConfig.err().startsWith("topology-agent: cannot load the kube config"), noConfig.err());
  }

  @Test
  void writingNeedsANodeName() throws Exception {
    CliRun r = basalt("topology-agent", "--once", "--node", "", "--smi", fakeSmi("dgx-h100-topo.txt",
        "dgx-h100-query.csv"));
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("--node is required (or set NODE_NAME), unless --print"), r.err());
  }
}
