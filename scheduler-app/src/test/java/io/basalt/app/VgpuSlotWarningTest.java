package io.basalt.app;

import static io.basalt.app.CliRun.basalt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.testing.LogCapture;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nodes offering vGPU slots with no deviceshare in the tiers: simulate, validate and run each say so, once. */
class VgpuSlotWarningTest {
  private static final String WITHOUT = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: predicates}, {name: gpu-aware}]
      """;
  private static final String WITH = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: predicates}, {name: deviceshare}, {name: gpu-aware}]
      """;
  private static final String TOPOLOGY =
      "{\"devices\":[{\"index\":0},{\"index\":1}],\"links\":[[\"X\",\"PHB\"],[\"PHB\",\"X\"]]}";

  /** A node in HAMi form: 2 GPUs listed, offered as 20 vGPU slots. */
  private static String nodeJson(String name) {
    JsonObject a = new JsonObject();
    a.addProperty("basalt.io/gpu-topology", TOPOLOGY);
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{"
        + "\"kubernetes.io/hostname\":\"" + name + "\"},\"annotations\":" + a + "},\"status\":{\"allocatable\":{"
        + "\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"20\"}}}";
  }

  private static Path cluster(Path dir) throws Exception {
    // JSON is YAML: one document per node.
    return Files.writeString(dir.resolve("nodes.yaml"), nodeJson("t4-0") + "\n---\n" + nodeJson("t4-1") + "\n");
  }

  @Test
  void simulateListsItAmongItsWarnings(@TempDir Path dir) throws Exception {
    Path nodes = cluster(dir);
    Path without = Files.writeString(dir.resolve("without.conf"), WITHOUT);
    CliRun r = basalt("simulate", "--cluster", nodes.toString(), "--config", without.toString(), "--output", "json");
    assertEquals(0, r.exit(), r.err());
    String warnings = JsonParser.parseString(r.out()).getAsJsonObject().getAsJsonArray("warnings").toString();
    assertTrue(warnings.contains("2 node(s) offer vGPU slots"), warnings);
    assertTrue(warnings.contains("t4-0, t4-1"), warnings);
    assertFalse(warnings.contains("allocatable says"), "20 slots over 2 GPUs is HAMi form, not a mismatch");

    Path with = Files.writeString(dir.resolve("with.conf"), WITH);
    CliRun fine = basalt("simulate", "--cluster", nodes.toString(), "--config", with.toString(), "--output", "json");
    assertEquals(0, fine.exit(), fine.err());
    assertFalse(fine.out().contains("vGPU slots"), fine.out());
  }

  @Test
  void validateWithTheClusterWarns(@TempDir Path dir) throws Exception {
    Path nodes = cluster(dir);
    Path without = Files.writeString(dir.resolve("without.conf"), WITHOUT);
    CliRun r = basalt("validate", "--config", without.toString(), "--cluster", nodes.toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains(without + ": warning: 2 node(s) offer vGPU slots"), r.out());
    assertTrue(r.out().contains("Add deviceshare to the tiers, see config/gpu-cluster.conf"), r.out());
    CliRun alone = basalt("validate", "--config", without.toString());
    assertFalse(alone.out().contains("vGPU slots"), "without --cluster there are no nodes to check");
    CliRun missing = basalt("validate", "--config", without.toString(), "--cluster", "/no/such/dir");
    assertEquals(2, missing.exit());
    assertTrue(missing.err().contains("no such file or directory"), missing.err());
  }

  @Test
  void runLogsItOnceWhenTheNodesArrive(@TempDir Path dir) throws Exception {
    try (LogCapture runLog = LogCapture.warnings(RunCommand.class.getName());
        FakeApiServer server = FakeApiServer.start()) {
      List<String> warnings = runLog.messages();
      server.seed(nodeJson("t4-0"));
      Path conf = Files.writeString(dir.resolve("basalt.conf"), WITHOUT);
      try (LiveRun run = LiveRun.start(server, dir, "--config", conf.toString())) {
        Await.until("the vGPU-slot warning", Duration.ofSeconds(20),
            () -> warnings.stream().anyMatch(w -> w.contains("offer vGPU slots")));
        Thread.sleep(300); // a few more cycles
        assertEquals(1, warnings.stream().filter(w -> w.contains("offer vGPU slots")).count(), warnings::toString);
        assertEquals(0, run.stop());
      }
    }
  }
}
