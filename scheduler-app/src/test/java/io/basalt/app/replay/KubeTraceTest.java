package io.basalt.app.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.app.replay.OpenbTrace.TraceNode;
import io.basalt.app.replay.OpenbTrace.TracePod;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trace written as Kubernetes objects replays like the CSVs: {@code test-fixtures/replay-yaml/}. */
class KubeTraceTest {
  @TempDir
  Path tmp;

  private static Path fixture() {
    return ReplayFixtures.sliceDir().resolveSibling("replay-yaml").resolve("trace.yaml");
  }

  @Test
  void nodesAndPodsKeepWhatThePackingDependsOn() throws Exception {
    StringWriter err = new StringWriter();
    OpenbTrace trace = KubeTrace.read(fixture(), new PrintWriter(err, true));
    assertEquals(List.of(new TraceNode("t4-a", 32_000, 131_072, 2, "T4"),
        new TraceNode("v100-a", 32_000, 131_072, 1, "V100M16")), trace.nodes());
    assertEquals(List.of(
        new TracePod("ml/needs-v100", 4_000, 8_192, 1, 1000, "V100M16|V100M32", 0, 300, -1),
        new TracePod("ml/share", 2_000, 4_096, 1, 300, "", 60, 3601, -1),
        new TracePod("ml/two-gpus", 8_000, 16_384, 2, 1000, "", 120, 3600, -1)), trace.pods());
    assertEquals("", err.toString());
  }

  @Test
  void clockReplayHonoursTheModelsAndDeparturesOfTheYaml() throws Exception {
    OpenbTrace trace = KubeTrace.read(fixture(), new PrintWriter(new StringWriter(), true));
    ReplayResult r = ClockReplay.run(trace, ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "test", 10,
        Progress.NONE);
    assertEquals(List.of(), r.violations());
    assertEquals(2, r.placed(), "the 2-GPU pod never sees both T4s free: the share stays to the end");
    assertTrue(r.samples().stream().anyMatch(s -> Math.abs(s.allocatedPercent() - 130.0 / 3) < 0.01),
        "the V100 pod and the 30% share ran together: " + r.samples());
  }

  @Test
  void aTraceWithoutNodesIsRefusedNamingWhatItFound() throws Exception {
    Path only = tmp.resolve("pods.yaml");
    Files.writeString(only, """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec: {containers: [{name: c, image: x}]}
        """);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> KubeTrace.read(only, new PrintWriter(new StringWriter(), true)));
    assertTrue(e.getMessage().contains("found 0 nodes and 1 pods"), e.getMessage());
  }
}
