package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code basalt run}'s informers against a fake server behaving as a real one: {@code /readyz} only once the first
 * LISTs are in, the sync timeout a flag, and relists on {@code /metrics} by cause.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InformerRunTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  @Test
  void readyOnlyAfterTheFirstSyncAndRelistsShowOnMetrics(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(LiveRun.node("n1", 0));
      server.storageInitializing(true); // every LIST answers 429 until the "watch cache" is ready
      try (LiveRun run = LiveRun.launch(server, dir, "--informer-sync-timeout", "30s")) {
        Await.until("the lists refused", WAIT, () -> server.requests("GET", "/api/v1/pods").size(), n -> n >= 1);
        Await.until("the health port", WAIT, () -> {
          try {
            return run.get("/readyz").statusCode();
          } catch (Exception e) {
            return -1;
          }
        }, code -> code == 503);

        server.storageInitializing(false);
        assertTrue(run.awaitRunning(WAIT), "started once the lists came in");
        assertEquals(200, run.get("/readyz").statusCode());
        assertTrue(!run.metrics().contains("basalt_informer_relists_total{"), "no relist yet");

        // A watch whose history is compacted before it reaches the server: the pods are listed again.
        server.faults().delayNextMatching(1, Duration.ofMillis(700),
            r -> r.isWatch() && r.path().equals("/api/v1/pods"));
        server.dropWatches();
        server.seed(LiveRun.pod("p1", "other", 0, null));
        server.compactHistory();
        Await.until("the relist on /metrics", WAIT, run::metrics,
            m -> m.contains("basalt_informer_relists_total{cause=\"expired\",kind=\"pods\"} 1.0"));
      }
    }
  }

  @Test
  void theSyncTimeoutIsAFlag(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.storageInitializing(true);
      RunCommand command = new RunCommand();
      new CommandLine(command).parseArgs("--kubeconfig", server.writeKubeconfig(dir).toString(),
          "--metrics-addr", "127.0.0.1:0", "--informer-sync-timeout", "2s");
      ExecutorService thread = Executors.newSingleThreadExecutor();
      try {
        long start = System.nanoTime();
        Future<Integer> exit = thread.submit(command::call);
        ExecutionException e = assertThrows(ExecutionException.class, () -> exit.get(20, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("after 2000 ms"), e.getCause().getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(15), "gave up near the 2 s asked");
      } finally {
        command.stop();
        thread.shutdownNow();
      }
    }
  }
}
