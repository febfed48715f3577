package io.basalt.app;

import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static io.basalt.app.LiveRun.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import io.basalt.testing.LogCapture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code basalt run} says about its Lease, as a real cluster showed it missing (issue 31): the lines of a
 * SIGTERM stop were lost to the JDK's logging shutdown hook ("Lease released" never printed), and losing the Lease
 * was never said in plain words.
 */
@Timeout(240)
class LeaseLoggingRunTest {
  private static final String LEASE = "basalt";

  private static String[] leaderElect(String duration, String deadline) {
    return new String[] {"--leader-elect", "--lease-namespace", "kube-system", "--lease-name", LEASE,
        "--lease-duration", duration, "--renew-deadline", deadline, "--retry-period", "200ms"};
  }

  private static String holder(FakeApiServer server) {
    JsonObject lease = server.get(Resources.LEASES, "kube-system", LEASE);
    JsonObject spec = lease == null ? null : lease.getAsJsonObject("spec");
    return spec == null || !spec.has("holderIdentity") ? null : spec.get("holderIdentity").getAsString();
  }

  @Test
  void aLeaderThatLosesItsLeaseSaysToWhomAndExitsOne(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start();
        LogCapture log = LogCapture.warnings(RunCommand.class.getName())) {
      server.seed(node("gpu-1", 8));
      server.seed(pod("first", "basalt-scheduler", 1, null));
      try (LiveRun run = LiveRun.launch(server, dir, leaderElect("3s", "2s"))) {
        Await.until("leads and binds", Duration.ofSeconds(20), () -> "gpu-1".equals(nodeOf(server, "first")));
        // Another replica takes the Lease over (as after a network partition healed).
        String now = Instant.now().truncatedTo(ChronoUnit.MICROS).toString();
        server.mergePatch(Resources.LEASES, "kube-system", LEASE, "{\"spec\":{\"holderIdentity\":\"replica-b\","
            + "\"leaseDurationSeconds\":60,\"acquireTime\":\"" + now + "\",\"renewTime\":\"" + now + "\"}}");
        Await.until("the loss said", Duration.ofSeconds(20), () -> log.messages().stream()
            .anyMatch(m -> m.contains("lost the leader Lease kube-system/basalt to replica-b; stopping binds")));
        assertEquals(1, run.stop(), "a leader that lost its Lease exits 1 for Kubernetes to restart it");
      }
    }
  }

  @Test
  void aSigtermedLeaderSaysItReleasedTheLeaseBeforeTheJvmExits(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(pod("first", "basalt-scheduler", 1, null));
      Path kubeconfig = server.writeKubeconfig(dir);
      Path stderr = dir.resolve("stderr.log");
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-cp", System.getProperty("java.class.path"), BasaltMain.class.getName(), "run",
          "--kubeconfig", kubeconfig.toString(), "--metrics-addr", "127.0.0.1:0", "--schedule-period", "100ms"));
      command.addAll(List.of(leaderElect("15s", "10s")));
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(stderr.toFile()).start();
      try {
        Await.until("leads and binds", Duration.ofSeconds(90), () -> "gpu-1".equals(nodeOf(server, "first")));
        assertTrue(holder(server) != null && !holder(server).isEmpty(), "holds the Lease");
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "exited");
        String out = Files.readString(stderr, StandardCharsets.UTF_8);
        assertTrue(holder(server) == null || holder(server).isEmpty(), "released on the server");
        assertTrue(out.contains("Lease released"), "the last lines of the stop reach stderr:\n" + out);
        assertTrue(out.contains("INFO RunCommand: stopping: finishing the cycle"), out);
        assertTrue(out.contains("INFO RunCommand: stopped"), out);
      } finally {
        p.destroyForcibly();
      }
    }
  }

}
