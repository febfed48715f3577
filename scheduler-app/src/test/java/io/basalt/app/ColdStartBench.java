package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.kube.fake.FakeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cold start at fleet size: {@code basalt run} in its own JVM, with the chart's options ({@code -Xmx},
 * {@code -XX:+ExitOnOutOfMemoryError}), started against the in-process fake API server already holding N GPU nodes
 * and P pods of which some are pending; measured from the process start: informers synced, first pod bound, every
 * pending pod bound (and the process's CPU time to each, the fair figure on a shared machine), the heap's peak (GC
 * log: most used before a collection, most live after one) and the steady heap (live after a full collection once all
 * are bound). Its log and GC log are left in {@code target/cold-start/}. Nodes are {@code live/gpu-node.json} (8 GPUs,
 * HAMi's annotations dropped), pods the 8.2 KB {@code live/training-pod.json} made lone pods (a ReplicaSet owner, no
 * PodGroup, claims or host port): the running ones take one GPU each on their node (up to 7), so every pending one-GPU
 * pod has a place.
 *
 * <p>Not a unit test. The fake server holds every object as its JSON text in this JVM (about 10 KB per pod), so
 * give the test JVM room: {@code mvn -B -q -pl scheduler-app -am test -Dtest=ColdStartBench -Dbasalt.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false -DargLine=-Xmx4g} with {@code -Dbasalt.bench.nodes} (10,000),
 * {@code .pods} (100,000), {@code .pending} (10,000), {@code .heap} (1536m), {@code .timeout} (seconds, 600),
 * {@code .jvm} (more options for basalt's JVM, space-separated, e.g. a flight recording).
 */
@EnabledIfSystemProperty(named = "basalt.bench", matches = "true")
class ColdStartBench {
  private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");
  private static final Pattern HEAP_USED = Pattern.compile("total (\\d+)K, used (\\d+)K");

  @Test
  void firstBindAndHeapFromAColdStart(@TempDir Path dir) throws Exception {
    int nodes = Integer.getInteger("basalt.bench.nodes", 10_000);
    int pods = Integer.getInteger("basalt.bench.pods", 100_000);
    int pending = Integer.getInteger("basalt.bench.pending", 10_000);
    String heap = System.getProperty("basalt.bench.heap", "1536m");
    long timeoutS = Long.getLong("basalt.bench.timeout", 600);
    int running = pods - pending;
    assertTrue(pending <= nodes * (8 - Math.min(7, (running + nodes - 1) / nodes)), "pending pods must all fit");

    try (FakeApiServer server = FakeApiServer.builder().historyLimit(1_000).start()) {
      long seedStart = System.nanoTime();
      seed(server, nodes, running, pending);
      double seedSeconds = (System.nanoTime() - seedStart) / 1e9;
      System.gc();
      long serverHeap = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      System.out.printf(Locale.ROOT, "cold start: seeded %d nodes, %d running and %d pending pods in %.1f s (%.1f "
          + "CPU-s in this JVM so far); the fake server's heap after a collection: %d MiB%n", nodes, running,
          pending, seedSeconds, ownCpuSeconds(), serverHeap >> 20);

      Path logs = Files.createDirectories(Path.of("target", "cold-start"));
      Path gcLog = logs.resolve("gc.log");
      Path out = logs.resolve("basalt.log");
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError", "-Xlog:gc:file=" + gcLog));
      String jvm = System.getProperty("basalt.bench.jvm", "");
      if (!jvm.isBlank()) {
        cmd.addAll(List.of(jvm.trim().split("\\s+")));
      }
      cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.basalt.app.BasaltMain", "run",
          "--kubeconfig", server.writeKubeconfig(dir).toString(), "--metrics-addr", "127.0.0.1:0",
          "--informer-sync-timeout", timeoutS + "s"));
      long start = System.nanoTime();
      Process basalt = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      try {
        double synced = -1;
        double first = -1;
        double all = -1;
        double firstCpu = -1;
        double syncedCpu = -1;
        double serverCpuAtStart = ownCpuSeconds();
        double serverCpu = -1;
        long deadline = start + TimeUnit.SECONDS.toNanos(timeoutS);
        while (System.nanoTime() < deadline && basalt.isAlive()) {
          double now = (System.nanoTime() - start) / 1e9;
          if (synced < 0 && Files.readString(out).contains("Informers synced")) {
            synced = now;
            syncedCpu = cpuSeconds(basalt);
          }
          int bound = server.bindLedger().appliedCount();
          if (first < 0 && bound > 0) {
            first = now;
            firstCpu = cpuSeconds(basalt);
            serverCpu = ownCpuSeconds() - serverCpuAtStart;
          }
          if (bound >= pending) {
            all = now;
            break;
          }
          Thread.sleep(50);
        }
        assertTrue(basalt.isAlive(), "basalt run exited (" + exit(basalt) + "): " + tail(out));
        double allCpu = cpuSeconds(basalt);
        String steady = jcmd(basalt.pid(), "GC.run") + jcmd(basalt.pid(), "GC.heap_info");
        Matcher used = HEAP_USED.matcher(steady);
        long steadyMiB = used.find() ? Long.parseLong(used.group(2)) / 1024 : -1;
        long[] peak = peaks(gcLog);
        System.out.printf(Locale.ROOT, "cold start: %d nodes, %d pods (%d pending), -Xmx%s: informers synced %.1f s, "
                + "first bind %.1f s, all %d bound %.1f s; heap peak %d MiB used, %d MiB live after a collection; "
                + "steady %d MiB; basalt's CPU time %.1f s to the first bind, %.1f s to the last%n", nodes, pods,
            pending, heap, synced, first, pending, all, peak[0], peak[1], steadyMiB, firstCpu, allCpu);
        System.out.printf(Locale.ROOT, "cold start: CPU time to informers synced %.1f s (basalt); to the first bind "
            + "%.1f s (basalt) and %.1f s (this JVM: the fake server and the bench's polling)%n", syncedCpu, firstCpu,
            serverCpu);
        assertEquals(pending, server.bindLedger().appliedCount(), "not all pending pods bound in " + timeoutS + " s; "
            + "basalt's log: " + out.toAbsolutePath() + "; the first pending pod's status: "
            + server.get(io.basalt.kube.fake.Resources.PODS, "ml", "pending-" + running).get("status"));
      } finally {
        basalt.destroy();
        if (!basalt.waitFor(30, TimeUnit.SECONDS)) {
          basalt.destroyForcibly();
        }
      }
    }
  }

  /** Nodes, then running pods spread over them one per node in turn, then pending pods. */
  private void seed(FakeApiServer server, int nodes, int running, int pending) throws IOException {
    JsonObject node = JsonParser.parseString(resource("/live/gpu-node.json")).getAsJsonObject();
    // NVIDIA's device plugin alone: the sample's HAMi inventory would make every bind wait for HAMi's node lock.
    node.getAsJsonObject("metadata").getAsJsonObject("annotations").keySet().removeIf(k -> k.startsWith("hami.io/"));
    for (int n = 0; n < nodes; n++) {
      JsonObject o = node.deepCopy();
      JsonObject meta = o.getAsJsonObject("metadata");
      meta.addProperty("name", "gpu-node-" + n);
      meta.getAsJsonObject("labels").addProperty("kubernetes.io/hostname", "gpu-node-" + n);
      meta.remove("uid");
      meta.remove("resourceVersion");
      server.seed(o);
    }
    JsonObject pod = JsonParser.parseString(resource("/live/training-pod.json")).getAsJsonObject();
    JsonObject meta = pod.getAsJsonObject("metadata");
    meta.remove("uid");
    meta.remove("resourceVersion");
    meta.remove("generateName");
    meta.getAsJsonObject("annotations").remove("scheduling.k8s.io/group-name");
    JsonObject labels = meta.getAsJsonObject("labels");
    for (String k : List.of("batch.kubernetes.io/job-name", "job-name", "batch.kubernetes.io/controller-uid",
        "training.kubeflow.org/replica-type", "training.kubeflow.org/replica-index")) {
      labels.remove(k);
    }
    JsonObject owner = meta.getAsJsonArray("ownerReferences").get(0).getAsJsonObject();
    owner.addProperty("apiVersion", "apps/v1");
    owner.addProperty("kind", "ReplicaSet");
    meta.remove("finalizers");
    // No PVC, ephemeral volume or DRA claim (the server would need the claims): emptyDirs instead, same size of JSON.
    JsonObject podSpec = pod.getAsJsonObject("spec");
    podSpec.remove("resourceClaims");
    for (var v : podSpec.getAsJsonArray("volumes")) {
      JsonObject vol = v.getAsJsonObject();
      if (vol.remove("persistentVolumeClaim") != null | vol.remove("ephemeral") != null) {
        vol.add("emptyDir", new JsonObject());
      }
    }
    for (int p = 0; p < running + pending; p++) {
      boolean isPending = p >= running;
      JsonObject o = pod.deepCopy();
      JsonObject m = o.getAsJsonObject("metadata");
      String name = (isPending ? "pending-" : "running-") + p;
      m.addProperty("name", name);
      JsonObject ref = m.getAsJsonArray("ownerReferences").get(0).getAsJsonObject();
      ref.addProperty("name", "rs-" + (p / 8));
      ref.addProperty("uid", String.format(Locale.ROOT, "00000000-0000-4000-8000-%012d", p / 8));
      JsonObject spec = o.getAsJsonObject("spec");
      int onNode = p / nodes; // the p-th running pod is the onNode-th on node p % nodes
      int gpus = isPending || onNode < 7 ? 1 : 0;
      requests(spec, gpus);
      if (isPending) {
        spec.remove("nodeName");
        JsonObject status = new JsonObject();
        status.addProperty("phase", "Pending");
        o.add("status", status);
      } else {
        spec.addProperty("nodeName", "gpu-node-" + (p % nodes));
      }
      server.seed(o);
    }
  }

  /** Every container asks for 4 cpu, 32 GiB and {@code gpus} GPUs (no RDMA, no host port): 9 such pods fit a node. */
  private static void requests(JsonObject spec, int gpus) {
    for (String list : List.of("containers", "initContainers")) {
      JsonArray cs = spec.getAsJsonArray(list);
      if (cs == null) {
        continue;
      }
      for (var c : cs) {
        JsonObject r = new JsonObject();
        JsonObject req = new JsonObject();
        req.addProperty("cpu", "4");
        req.addProperty("memory", "32Gi");
        JsonObject lim = new JsonObject();
        lim.addProperty("memory", "32Gi");
        if (gpus > 0 && list.equals("containers")) {
          req.addProperty("nvidia.com/gpu", String.valueOf(gpus));
          lim.addProperty("nvidia.com/gpu", String.valueOf(gpus));
        }
        r.add("requests", req);
        r.add("limits", lim); // and no claims
        c.getAsJsonObject().add("resources", r);
        JsonArray ports = c.getAsJsonObject().getAsJsonArray("ports");
        if (ports != null) {
          ports.forEach(port -> port.getAsJsonObject().remove("hostPort")); // nine per node must not clash
        }
      }
    }
  }

  /** Most heap used before a collection and most live after one, in MiB, from {@code -Xlog:gc} lines. */
  private static long[] peaks(Path gcLog) throws IOException {
    long before = 0;
    long after = 0;
    for (String line : Files.readAllLines(gcLog)) {
      Matcher m = GC_LINE.matcher(line);
      if (m.find()) {
        before = Math.max(before, Long.parseLong(m.group(1)));
        after = Math.max(after, Long.parseLong(m.group(2)));
      }
    }
    return new long[] {before, after};
  }

  private static String jcmd(long pid, String what) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        String.valueOf(pid), what).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);
    return text;
  }

  /** The process's CPU time so far (all its threads), or -1 where the platform does not say. */
  private static double cpuSeconds(Process p) {
    return p.info().totalCpuDuration().map(d -> d.toMillis() / 1000.0).orElse(-1.0);
  }

  /** This JVM's CPU time so far, all threads. */
  private static double ownCpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  private static String exit(Process p) {
    return p.isAlive() ? "running" : "exit " + p.exitValue();
  }

  private static String tail(Path log) throws IOException {
    String s = Files.readString(log);
    return s.substring(Math.max(0, s.length() - 3000));
  }

  private String resource(String path) throws IOException {
    try (InputStream in = getClass().getResourceAsStream(path)) {
      if (in == null) {
        throw new IOException(path + " not on the test class path (scheduler-kube's test resources)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
