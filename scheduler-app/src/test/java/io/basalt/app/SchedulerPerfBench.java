package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.kube.fake.FakeApiServer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end throughput in the shape of kube-scheduler's scheduler_perf {@code SchedulingBasic}: N nodes of its
 * default node (4 cpu, 32 GiB, 110 pods), I pods already bound, then M pods of its default pod (100m cpu, 500 MiB)
 * created at once; measured as the server sees it: pods bound per second from the first created to the last bound,
 * and each pod's latency from its creation to its binding (p50, p99). {@code basalt run} and the fake API server share
 * this JVM and the machine's cores, so the figure is a floor for Basalt on a dedicated machine.
 *
 * <p>Not a unit test: {@code mvn -B -q -pl scheduler-app -am test -Dtest=SchedulerPerfBench -Dbasalt.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false} with {@code -Dbasalt.bench.nodes} (5,000), {@code .init} (0),
 * {@code .pods} (10,000), {@code .qps} (500), {@code .burst} (1,000), {@code .workers} (64), {@code .period}
 * (100ms), {@code .timeout} (s, 600).
 */
@EnabledIfSystemProperty(named = "basalt.bench", matches = "true")
class SchedulerPerfBench {
  @Test
  void podsBoundPerSecondInSchedulerPerfShape(@TempDir Path dir) throws Exception {
    int nodes = Integer.getInteger("basalt.bench.nodes", 5_000);
    int init = Integer.getInteger("basalt.bench.init", 0);
    int pods = Integer.getInteger("basalt.bench.pods", 10_000);
    long timeoutS = Long.getLong("basalt.bench.timeout", 600);
    String qps = System.getProperty("basalt.bench.qps", "500");
    String burst = System.getProperty("basalt.bench.burst", "1000");
    String workers = System.getProperty("basalt.bench.workers", "64");
    String period = System.getProperty("basalt.bench.period", "100ms");
    try (FakeApiServer server = FakeApiServer.builder().historyLimit(2_000).start()) {
      for (int n = 0; n < nodes; n++) {
        server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-" + n + "\"},"
            + "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"32Gi\",\"pods\":\"110\"}}}");
      }
      for (int p = 0; p < init; p++) {
        server.seed(pod("init-" + p, "node-" + (p % nodes)));
      }
      try (LiveRun run = LiveRun.start(server, dir, "--kube-api-qps", qps, "--kube-api-burst", burst,
          "--bind-workers", workers, "--schedule-period", period)) {
        long[] created = new long[pods];
        double cpuAtStart = cpuSeconds();
        for (int p = 0; p < pods; p++) {
          created[p] = System.nanoTime();
          server.seed(pod("p-" + p, null));
        }
        long createdAll = System.nanoTime();
        long deadline = created[0] + TimeUnit.SECONDS.toNanos(timeoutS);
        while (System.nanoTime() < deadline && server.bindLedger().appliedCount() < pods + 0L) {
          Thread.sleep(50);
        }
        double cpu = cpuSeconds() - cpuAtStart;
        Map<String, Long> at = server.bindLedger().appliedNanos();
        long[] latency = new long[pods];
        long last = 0;
        int bound = 0;
        for (int p = 0; p < pods; p++) {
          Long t = at.get("perf/p-" + p);
          latency[p] = t == null ? Long.MAX_VALUE : t - created[p];
          if (t != null) {
            bound++;
            last = Math.max(last, t);
          }
        }
        Arrays.sort(latency);
        double seconds = (last - created[0]) / 1e9;
        System.out.printf(Locale.ROOT, "scheduler_perf shape: %d nodes, %d init pods, %d pods: %d bound in %.2f s = "
                + "%.0f pods/s; creation to binding p50 %.0f ms, p99 %.0f ms (qps %s, burst %s, bind workers %s)%n",
            nodes, init, pods, bound, seconds, bound / seconds, ms(latency[pods / 2]), ms(latency[pods * 99 / 100]),
            qps, burst, workers);
        System.out.printf(Locale.ROOT, "scheduler_perf shape: pods created in %.2f s; schedule period %s%n",
            (createdAll - created[0]) / 1e9, period);
        System.out.printf(Locale.ROOT, "scheduler_perf shape: %.1f CPU-s in this JVM (basalt and the fake server) "
            + "from the first pod created to the last bound: %.0f pods per CPU-second%n", cpu, bound / cpu);
        assertEquals(pods, bound);
      }
    }
  }

  /** This JVM's CPU time so far, all threads. */
  private static double cpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  private static double ms(long nanos) {
    return nanos == Long.MAX_VALUE ? Double.NaN : nanos / 1e6;
  }

  /** scheduler_perf's default pod (pod-default.yaml): 100m cpu and 500 MiB, on {@code node} or pending. */
  private static String pod(String name, String node) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"perf\"},"
        + "\"spec\":{\"schedulerName\":\"basalt-scheduler\"," + (node == null ? "" : "\"nodeName\":\"" + node + "\",")
        + "\"containers\":[{\"name\":\"pause\",\"image\":\"registry.k8s.io/pause:3.10\",\"resources\":{\"requests\":"
        + "{\"cpu\":\"100m\",\"memory\":\"500Mi\"},\"limits\":{\"cpu\":\"100m\",\"memory\":\"500Mi\"}}}]},"
        + "\"status\":{\"phase\":\"" + (node == null ? "Pending" : "Running") + "\"}}";
  }
}
