package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live-mode figure of docs/BENCHMARKS.md: {@code basalt run} against the in-process fake API server, pods bound
 * per second end to end (informer to binding). Not part of the normal test run; run it with
 * {@code mvn -q -o test -pl scheduler-app -Dtest=LiveBenchTest -Dbasalt.bench=true -Dsurefire.failIfNoSpecifiedTests=false}
 * and {@code -Dbasalt.bench.nodes/pods/qps/burst/workers} to vary it.
 */
@EnabledIfSystemProperty(named = "basalt.bench", matches = "true")
class LiveBenchTest {
  @Test
  void podsBoundPerSecondEndToEnd(@TempDir Path dir) throws Exception {
    int nodes = Integer.getInteger("basalt.bench.nodes", 500);
    int pods = Integer.getInteger("basalt.bench.pods", 5000);
    String qps = System.getProperty("basalt.bench.qps", "500");
    String burst = System.getProperty("basalt.bench.burst", "1000");
    String workers = System.getProperty("basalt.bench.workers", "64");
    try (FakeApiServer server = FakeApiServer.start()) {
      for (int n = 0; n < nodes; n++) {
        server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-" + n + "\"},"
            + "\"status\":{\"allocatable\":{\"cpu\":\"96\",\"memory\":\"1Ti\",\"pods\":\"110\",\"nvidia.com/gpu\":\"16\"}}}");
      }
      try (LiveRun run = LiveRun.start(server, dir, "--schedule-period", "200ms", "--kube-api-qps", qps,
          "--kube-api-burst", burst, "--bind-workers", workers)) {
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
          Thread.sleep(100);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("live bench: %d nodes, %d pods, %d bound in %.2f s = %.0f pods/s (qps %s, burst %s, "
            + "bind workers %s)%n", nodes, pods, bound, seconds, bound / seconds, qps, burst, workers);
        assertEquals(pods, bound);
      }
    }
  }
}
