package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The live-mode figure of docs/BENCHMARKS.md: {@code basalt run} against the in-process fake API server, pods bound
 * per second end to end (informer to binding). Not part of the normal test run; run it with
 * {@code mvn -q -o test -pl scheduler-app -Dtest=LiveBenchTest -Dbasalt.bench=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "basalt.bench", matches = "true")
class LiveBenchTest {
  @Test
  void podsBoundPerSecondEndToEnd(@TempDir Path dir) throws Exception {
    int nodes = Integer.getInteger("basalt.bench.nodes", 500);
    int pods = Integer.getInteger("basalt.bench.pods", 5000);
    String qps = System.getProperty("basalt.bench.qps", "500");
    String burst = System.getProperty("basalt.bench.burst", "1000");
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (FakeApiServer server = FakeApiServer.start()) {
      for (int n = 0; n < nodes; n++) {
        server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-" + n + "\"},"
            + "\"status\":{\"allocatable\":{\"cpu\":\"96\",\"memory\":\"1Ti\",\"pods\":\"110\",\"nvidia.com/gpu\":\"16\"}}}");
      }
      Path kubeconfig = dir.resolve("kubeconfig");
      Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\nclusters:\n- name: f\n  cluster: {server: \""
          + server.baseUrl() + "\"}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: f\n  context: {cluster: f, "
          + "user: u}\ncurrent-context: f\n");
      RunCommand run = new RunCommand();
      new CommandLine(run).parseArgs("--kubeconfig", kubeconfig.toString(), "--schedule-period", "200ms",
          "--metrics-addr", "127.0.0.1:0", "--kube-api-qps", qps, "--kube-api-burst", burst);
      pool.submit(run::call);
      assertTrue(run.awaitRunning(Duration.ofSeconds(60)));
      long start = System.nanoTime();
      for (int p = 0; p < pods; p++) {
        server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p-" + p + "\",\"namespace\":"
            + "\"bench\"},\"spec\":{\"schedulerName\":\"basalt-scheduler\",\"containers\":[{\"name\":\"c\",\"image\":"
            + "\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\",\"cpu\":\"1\"}}}]}}");
      }
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      long bound = 0;
      while (System.nanoTime() < deadline) {
        bound = server.list(Resources.PODS, "bench").stream()
            .filter(o -> o.getAsJsonObject("spec").has("nodeName")).count();
        if (bound == pods) {
          break;
        }
        Thread.sleep(1000);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("live bench: %d nodes, %d pods, %d bound in %.2f s = %.0f pods/s (qps %s, burst %s)%n",
          nodes, pods, bound, seconds, bound / seconds, qps, burst);
      run.stop();
      assertEquals(pods, bound);
    } finally {
      pool.shutdownNow();
    }
  }
}
