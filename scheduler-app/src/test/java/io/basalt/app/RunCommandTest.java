package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.Await;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code basalt run} end to end against the in-repo fake API server. */
@Timeout(60)
class RunCommandTest {
  private static String node(String name, int gpus) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\"},"
        + "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\""
        + gpus + "\"}}}";
  }

  private static String pod(String name, String scheduler, int gpus, String group) {
    String annotations = group == null ? "{}" : "{\"scheduling.k8s.io/group-name\":\"" + group + "\"}";
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"annotations\":" + annotations + "},\"spec\":{\"schedulerName\":\"" + scheduler + "\",\"containers\":[{"
        + "\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"" + gpus + "\"}}}]}}";
  }

  private static Path kubeconfig(Path dir, FakeApiServer server) throws Exception {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(file, """
        apiVersion: v1
        kind: Config
        clusters:
        - name: fake
          cluster: {server: "%s"}
        users:
        - name: test
          user: {}
        contexts:
        - name: fake
          context: {cluster: fake, user: test}
        current-context: fake
        """.formatted(server.baseUrl()));
    return file;
  }

  private static String nodeOf(FakeApiServer server, String pod) {
    JsonObject p = server.get(Resources.PODS, "ml", pod);
    JsonObject spec = p == null ? null : p.getAsJsonObject("spec");
    return spec == null || !spec.has("nodeName") ? null : spec.get("nodeName").getAsString();
  }

  @Test
  void bindsOurPodsLeavesOthersAndGangsAllOrNothing(@TempDir Path dir) throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 4));
      server.seed(pod("ours", "basalt-scheduler", 1, null));
      server.seed(pod("theirs", "default-scheduler", 1, null));
      server.seed("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{"
          + "\"name\":\"big\",\"namespace\":\"ml\"},\"spec\":{\"minMember\":2}}");
      server.seed(pod("big-0", "basalt-scheduler", 3, "big"));
      server.seed(pod("big-1", "basalt-scheduler", 3, "big"));
      RunCommand run = new RunCommand();
      new CommandLine(run).parseArgs("--kubeconfig", kubeconfig(dir, server).toString(),
          "--schedule-period", "100ms", "--metrics-addr", "127.0.0.1:0");
      Future<Integer> exit = pool.submit(run::call);
      assertTrue(run.awaitRunning(Duration.ofSeconds(20)), "started");
      Await.until("ours bound", Duration.ofSeconds(20), () -> "gpu-1".equals(nodeOf(server, "ours")));
      Await.until("big-0 told why it waits", Duration.ofSeconds(20), () -> {
        JsonObject status = server.get(Resources.PODS, "ml", "big-0").getAsJsonObject("status");
        return status != null && status.has("conditions") && status.toString().contains("Unschedulable");
      });
      assertNull(nodeOf(server, "theirs"), "another scheduler's pod is left alone");
      assertNull(nodeOf(server, "big-0"), "3 + 3 GPUs never fit 4 - 1: the gang stays whole and pending");
      assertNull(nodeOf(server, "big-1"));
      String message = server.get(Resources.PODS, "ml", "big-0").getAsJsonObject("status").toString();
      assertTrue(message.contains("tasks in gang unschedulable"), message);
      HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + run.healthPort() + "/readyz")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, ready.statusCode());
      HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + run.healthPort() + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, metrics.statusCode());
      assertTrue(metrics.body().contains("basalt_schedule_attempts_total{result=\"scheduled\"} 1"), metrics.body());
      assertTrue(metrics.body().contains("basalt_pending_pods{queue=\"default\"} 2"), metrics.body());
      assertTrue(metrics.body().contains("basalt_cycle_duration_seconds_count"), metrics.body());
      assertTrue(metrics.body().contains("basalt_binds_total 1"), metrics.body());
      assertEquals(1, server.requests("POST", ".*/pods/ours/binding").size(), "bound once, not every cycle");
      Await.until("a Scheduled event", Duration.ofSeconds(10), () -> server.list(Resources.EVENTS, "ml").stream()
          .anyMatch(e -> e.get("reason").getAsString().equals("Scheduled")
              && e.get("message").getAsString().equals("Successfully assigned ml/ours to gpu-1")));
      JsonObject big = server.get(Resources.PODGROUPS, "ml", "big").getAsJsonObject("status");
      assertTrue(big.toString().contains("NotEnoughResources"), big.toString());
      run.stop();
      assertEquals(0, exit.get());
    } finally {
      pool.shutdownNow();
    }
  }

  private static RunCommand leaderElected(FakeApiServer server, Path dir, String name) throws Exception {
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs("--kubeconfig", kubeconfig(dir, server).toString(), "--schedule-period", "100ms",
        "--metrics-addr", "127.0.0.1:0", "--leader-elect", "--lease-namespace", "kube-system", "--lease-name",
        "basalt", "--lease-duration", "2s", "--renew-deadline", "1500ms", "--retry-period", "200ms");
    return run;
  }

  @Test
  void onlyTheLeaderBindsAndAStandbyTakesOverWhenItStops(@TempDir Path dir) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 8));
      server.seed(pod("first", "basalt-scheduler", 1, null));
      RunCommand a = leaderElected(server, dir, "a");
      Future<Integer> exitA = pool.submit(a::call);
      Await.until("a leads and binds", Duration.ofSeconds(20), () -> "gpu-1".equals(nodeOf(server, "first")));
      RunCommand b = leaderElected(server, dir, "b");
      pool.submit(b::call);
      assertTrue(b.awaitRunning(Duration.ofSeconds(20)));
      server.seed(pod("second", "basalt-scheduler", 1, null));
      Await.until("second bound", Duration.ofSeconds(20), () -> "gpu-1".equals(nodeOf(server, "second")));
      a.stop();
      exitA.get();
      server.seed(pod("third", "basalt-scheduler", 1, null));
      Await.until("b took over", Duration.ofSeconds(20), () -> "gpu-1".equals(nodeOf(server, "third")));
      for (String p : new String[] {"first", "second", "third"}) {
        assertEquals(1, server.requests("POST", ".*/pods/" + p + "/binding").size(), p + " bound exactly once");
      }
      b.stop();
    } finally {
      pool.shutdownNow();
    }
  }
}
