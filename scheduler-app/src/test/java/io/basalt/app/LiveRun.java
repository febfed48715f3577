package io.basalt.app;

import com.google.gson.JsonObject;
import io.basalt.fabric.Fabric;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * One {@code basalt run} against a {@link FakeApiServer}, started on its own thread with a kubeconfig pointing at the
 * server, plus the JSON builders the end-to-end tests share. Closing it stops the command as SIGTERM would.
 */
final class LiveRun implements AutoCloseable {
  private final RunCommand command = new RunCommand();
  private final ExecutorService thread = Executors.newSingleThreadExecutor();
  private final Future<Integer> exit;

  private LiveRun(FakeApiServer server, Path dir, String... extraArgs) throws Exception {
    this(server, dir, c -> { }, extraArgs);
  }

  private LiveRun(FakeApiServer server, Path dir, java.util.function.Consumer<RunCommand> setUp, String... extraArgs)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("--kubeconfig", server.writeKubeconfig(dir).toString(),
        "--metrics-addr", "127.0.0.1:0"));
    if (!List.of(extraArgs).contains("--schedule-period")) {
      args.addAll(List.of("--schedule-period", "100ms"));
    }
    args.addAll(List.of(extraArgs));
    new CommandLine(command).parseArgs(args.toArray(String[]::new));
    setUp.accept(command);
    exit = thread.submit(command::call);
  }

  /** Starts {@code basalt run} with a 100ms period (unless given), metrics on an ephemeral port, and {@code extraArgs}. */
  static LiveRun start(FakeApiServer server, Path dir, String... extraArgs) throws Exception {
    LiveRun run = new LiveRun(server, dir, extraArgs);
    if (!run.command.awaitRunning(Duration.ofSeconds(20))) {
      run.close();
      throw new AssertionError("basalt run did not start within 20s");
    }
    return run;
  }

  /** As {@link #start}, with {@code setUp} given the command before it runs (its test hooks). */
  static LiveRun start(FakeApiServer server, Path dir, java.util.function.Consumer<RunCommand> setUp,
      String... extraArgs) throws Exception {
    LiveRun run = new LiveRun(server, dir, setUp, extraArgs);
    if (!run.command.awaitRunning(Duration.ofSeconds(20))) {
      run.close();
      throw new AssertionError("basalt run did not start within 20s");
    }
    return run;
  }

  /** The exit code once the command ends by itself (a lost Lease), or null if it still runs after {@code timeout}. */
  Integer awaitExit(Duration timeout) throws Exception {
    try {
      return exit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      return null;
    }
  }

  /** Starts it without waiting, e.g. for a standby that blocks on the lease. */
  static LiveRun launch(FakeApiServer server, Path dir, String... extraArgs) throws Exception {
    return new LiveRun(server, dir, extraArgs);
  }

  boolean awaitRunning(Duration timeout) throws InterruptedException {
    return command.awaitRunning(timeout);
  }

  /** GET on the metrics/health port: {@code /metrics}, {@code /readyz}, {@code /healthz}. */
  HttpResponse<String> get(String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + command.healthPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The {@code /metrics} page. */
  String metrics() {
    try {
      return get("/metrics").body();
    } catch (Exception e) {
      throw new IllegalStateException("GET /metrics failed", e);
    }
  }

  /** The value of an unlabelled metric on {@code /metrics}, or -1 when it is not there. */
  double metric(String name) {
    for (String line : metrics().split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    return -1;
  }

  /** The network fabric the next cycle sees. */
  Fabric fabric() {
    return command.cache().fabric();
  }

  /** The cache the informers fill, to compare Basalt's accounting with the server's objects. */
  io.basalt.cache.ClusterCache cache() {
    return command.cache();
  }

  /** Stops it as SIGTERM does and returns its exit code. */
  int stop() throws Exception {
    command.stop();
    return exit.get(40, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    try {
      if (!exit.isDone()) {
        stop();
      } else {
        command.stop(); // exited by itself (a lost Lease): a process would end here; free its ports and threads
      }
    } finally {
      thread.shutdownNow();
    }
  }

  // ---- objects ----------------------------------------------------------------------------------------------------

  static String node(String name, int gpus) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\"},"
        + "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\""
        + gpus + "\"}}}";
  }

  /** A pod in namespace ml asking for {@code gpus} GPUs, in PodGroup {@code group} unless null. */
  static String pod(String name, String scheduler, int gpus, String group) {
    String annotations = group == null ? "{}" : "{\"scheduling.k8s.io/group-name\":\"" + group + "\"}";
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ml\","
        + "\"annotations\":" + annotations + "},\"spec\":{\"schedulerName\":\"" + scheduler + "\",\"containers\":[{"
        + "\"name\":\"c\",\"image\":\"x\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"" + gpus + "\"}}}]}}";
  }

  static String podGroup(String name, int minMember) {
    return "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{"
        + "\"name\":\"" + name + "\",\"namespace\":\"ml\"},\"spec\":{\"minMember\":" + minMember + "}}";
  }

  /** The node pod ml/{@code pod} is bound to, or null. */
  static String nodeOf(FakeApiServer server, String pod) {
    JsonObject p = server.get(Resources.PODS, "ml", pod);
    JsonObject spec = p == null ? null : p.getAsJsonObject("spec");
    return spec == null || !spec.has("nodeName") ? null : spec.get("nodeName").getAsString();
  }

  /** How many binding POSTs the server received for ml/{@code pod}. */
  static int bindingPosts(FakeApiServer server, String pod) {
    return server.requests("POST", "/api/v1/namespaces/ml/pods/" + pod + "/binding").size();
  }
}
