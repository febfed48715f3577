package io.basalt.app;

import static io.basalt.app.CliRun.basalt;
import static io.basalt.app.LiveRun.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.ManifestReader;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code basalt run}'s network fabric: HyperNodes by default, a --topology file instead, and bad flags. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunTopologyTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Path SUPERNODE = Scenarios.fixture("supernode");

  /** Seeds the 32 nodes of test-fixtures/supernode (the fabric needs only their names). */
  private static void seedNodes(FakeApiServer server) {
    for (int sb = 1; sb <= 2; sb++) {
      for (int df = 1; df <= 2; df++) {
        for (int n = 1; n <= 8; n++) {
          server.seed(node("sb" + sb + "-df" + df + "-n" + n, 8));
        }
      }
    }
  }

  @Test
  void hyperNodesInTheClusterBecomeTheFabricAndADeleteUpdatesIt(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seedNodes(server);
      new ManifestReader().read(List.of(SUPERNODE.resolve("hypernodes.yaml"))).hyperNodes().forEach(server::seed);
      try (LiveRun run = LiveRun.start(server, dir)) {
        assertEquals(List.of("sb1-df1", "sb1-df2", "sb2-df1", "sb2-df2"), run.fabric().domains(1));
        assertEquals("sb2/sb2-df1", run.fabric().path("sb2-df1-n7"));

        server.delete(Resources.HYPERNODES, null, "sb2-df1");
        Await.until("sb2-df1 gone", WAIT, () -> run.fabric().domains(1),
            List.of("sb1-df1", "sb1-df2", "sb2-df2")::equals);
        assertEquals(8, run.fabric().nodesOf("sb2").size());
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aGangAskingForOneDragonflyLandsInOneAndItsPodGroupSaysWhich(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seedNodes(server);
      new ManifestReader().read(List.of(SUPERNODE.resolve("hypernodes.yaml"))).hyperNodes().forEach(server::seed);
      server.seed("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":"
          + "\"train\",\"namespace\":\"ml\"},\"spec\":{\"minMember\":4,\"networkTopology\":{\"mode\":\"hard\","
          + "\"highestTierAllowed\":1}}}");
      for (int i = 0; i < 4; i++) {
        server.seed(LiveRun.pod("train-" + i, "basalt-scheduler", 8, "train"));
      }
      String config = SUPERNODE.resolve("../../config/metax-supernode-configmap.yaml").toString();
      try (LiveRun run = LiveRun.start(server, dir, "--config", config)) {
        Await.until("the gang bound", WAIT, () -> List.of(0, 1, 2, 3).stream()
            .allMatch(i -> LiveRun.nodeOf(server, "train-" + i) != null));
        String dragonfly = run.fabric().domainOf(LiveRun.nodeOf(server, "train-0"), 1);
        for (int i = 1; i < 4; i++) {
          assertEquals(dragonfly, run.fabric().domainOf(LiveRun.nodeOf(server, "train-" + i), 1));
        }
        Await.until("the PodGroup names its dragonfly", WAIT, () -> dragonfly.equals(annotation(server)));
        assertEquals(0, run.stop());
      }
    }
  }

  private static String annotation(FakeApiServer server) {
    var meta = server.get(Resources.PODGROUPS, "ml", "train").getAsJsonObject("metadata");
    var annotations = meta.getAsJsonObject("annotations");
    return annotations == null || !annotations.has("volcano.sh/job-allocated-hypernode") ? null
        : annotations.get("volcano.sh/job-allocated-hypernode").getAsString();
  }

  @Test
  void aTopologyFileWinsOverHyperNodesWhichAreNotWatched(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seedNodes(server);
      String file = SUPERNODE.resolve("topology/node_group.json").toString();
      try (LiveRun run = LiveRun.start(server, dir, "--topology", file)) {
        assertEquals(List.of("sb1", "sb2"), run.fabric().domains(2));
        assertEquals(32, run.fabric().nodesOf("/").size());
        assertEquals(List.of(), server.requests("GET", "/apis/topology\\.volcano\\.sh/.*"));
      }
    }
  }

  @Test
  void badTopologyFlagsAreRefusedBeforeConnecting() {
    CliRun r = basalt("run", "--topology", "no/such.json", "--topology-url", "ftp://example.com/x",
        "--topology-poll", "0s");
    assertEquals(2, r.exit());
    for (String problem : List.of("give one topology source, not --topology and --topology-url",
        "--topology-url must be an http or https URL, got 'ftp://example.com/x'", "--topology-poll must be positive",
        "--topology no/such.json: no such file")) {
      assertTrue(r.err().contains(problem), r.err());
    }
  }
}
