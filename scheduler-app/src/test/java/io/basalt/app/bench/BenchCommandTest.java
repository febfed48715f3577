package io.basalt.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.scheduler.ConfValidator;
import io.basalt.scheduler.SchedulerProfile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchCommandTest {
  private static final List<String> FIELDS = List.of("nodes", "pods", "bound", "pending", "evicted", "queues",
      "gangs", "gangsBound",
      "cycles", "podsPerSecond", "schedulingSeconds", "wallSeconds", "cycleP50Ms", "cycleP99Ms", "cycleMaxMs",
      "cycleMs", "peakHeapMiB", "gpuAllocationPercent");

  private record Run(int exit, String out, String err) {}

  private static Run bench(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new BenchCommand());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int exit = cmd.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void jsonIsOneObjectWithEveryField() {
    Run run = bench("--nodes", "50", "--batch", "40", "--warmup", "0", "--output", "json");
    assertEquals(0, run.exit(), run.err());
    JsonObject o = JsonParser.parseString(run.out()).getAsJsonObject();
    for (String f : FIELDS) {
      assertTrue(o.has(f), "missing field " + f + " in " + run.out());
    }
    int pods = o.get("pods").getAsInt();
    int bound = o.get("bound").getAsInt();
    int pending = o.get("pending").getAsInt();
    assertEquals(50, o.get("nodes").getAsInt());
    assertTrue(bound > 0, run.out());
    assertEquals(pods, bound + pending, run.out());
    assertEquals(new WorkloadGenerator(50, 42, 95).generate().podCount(), pods);
    assertTrue(o.get("cycles").getAsInt() >= 2, run.out());
    double gpu = o.get("gpuAllocationPercent").getAsDouble();
    assertTrue(gpu > 0 && gpu <= 100, run.out());
  }

  @Test
  void tableAndRoundsAndWarmupRun() {
    Run run = bench("--nodes", "50", "--batch", "25", "--warmup", "1", "--rounds", "3", "--seed", "7");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("pods bound"), run.out());
    assertTrue(run.out().contains("GPU allocation"), run.out());
  }

  @Test
  void helpRenders() {
    String usage = new CommandLine(new BenchCommand()).getUsageMessage();
    assertTrue(usage.contains("about 95% of the GPUs"), usage);
    assertTrue(usage.contains("--nodes") && usage.contains("--seed") && usage.contains("--batch"), usage);
  }

  @Test
  void badConfigIsReportedNotRun(@TempDir Path dir) throws Exception {
    Path conf = dir.resolve("bad.conf");
    Files.writeString(conf, "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: no-such-plugin\n");
    Run run = bench("--nodes", "10", "--warmup", "0", "--config", conf.toString());
    assertEquals(1, run.exit());
    assertTrue(run.err().contains("no-such-plugin"), run.err());
  }

  @Test
  void sameSeedSameWorkloadOtherSeedOther() {
    Workload a = new WorkloadGenerator(50, 42, 95).generate();
    Workload b = new WorkloadGenerator(50, 42, 95).generate();
    Workload c = new WorkloadGenerator(50, 43, 95).generate();
    assertEquals(a.pods(), b.pods());
    assertEquals(a.podGroups(), b.podGroups());
    assertEquals(a.nodes(), b.nodes());
    assertNotEquals(a.pods(), c.pods());
  }

  @Test
  void workloadHasTheDocumentedShape() {
    Workload w = new WorkloadGenerator(200, 42, 95).generate();
    assertEquals(200, w.nodes().size());
    assertEquals(1600, w.totalGpus());
    assertTrue(w.gpuDemand() >= 1520 && w.gpuDemand() < 1520 + 128, "demand " + w.gpuDemand());
    assertTrue(!w.podGroups().isEmpty());
    Map<String, Integer> members = new HashMap<>();
    boolean cpuOnly = false;
    boolean single = false;
    for (Pod p : w.pods()) {
      long gpus = p.request().get(WorkloadGenerator.GPU);
      assertTrue(gpus == 0 || gpus == 1 || gpus == 8, p.key());
      cpuOnly |= gpus == 0;
      single |= gpus == 1;
      if (p.groupName() != null) {
        assertEquals(8, gpus);
        members.merge(p.groupName(), 1, Integer::sum);
      }
    }
    assertTrue(cpuOnly && single);
    for (PodGroup pg : w.podGroups()) {
      assertTrue(pg.minMember() >= 2 && pg.minMember() <= 16, pg.name());
      assertEquals(pg.minMember(), members.get(pg.name()), pg.name());
    }
    // Batches never split a gang and cover every submission once.
    Set<String> seen = new HashSet<>();
    int pods = 0;
    for (List<Workload.Submission> batch : w.batches(37)) {
      for (Workload.Submission s : batch) {
        pods += s.pods().size();
        assertTrue(seen.add(s.pods().get(0).uid()));
      }
    }
    assertEquals(w.podCount(), pods);
  }

  @Test
  void gangsAreBoundAllOrNothing() throws Exception {
    SchedulerConf conf = ConfLoader.parse(BenchCommand.DEFAULT_CONF, "test");
    SchedulerProfile profile = ConfValidator.validate(conf, PluginRegistry.load(), ActionRegistry.builtin())
        .profileOrThrow("test: ");
    for (long seed : new long[] {1, 2, 3}) {
      Workload w = new WorkloadGenerator(50, seed, 95).generate();
      BenchRun run = new BenchRun(profile, w, 30);
      BenchResult r = run.run();
      assertEquals(w.podCount(), r.pods());
      assertEquals(r.pods(), r.bound() + r.pending());
      assertTrue(r.bound() > 0);
      Map<String, Integer> boundByGang = new HashMap<>();
      for (Pod p : run.cache().pods()) {
        if (p.groupName() != null && p.isAssigned()) {
          boundByGang.merge(p.groupName(), 1, Integer::sum);
        }
      }
      int whole = 0;
      for (PodGroup pg : w.podGroups()) {
        int n = boundByGang.getOrDefault(pg.name(), 0);
        assertTrue(n == 0 || n == pg.minMember(), pg.name() + ": " + n + " of " + pg.minMember() + " bound");
        whole += n == 0 ? 0 : 1;
      }
      assertEquals(whole, r.gangsBound());
      assertEquals(run.binder().bound().size(), r.bound());
    }
  }

  @Test
  void backlogSubmitsTheWholeBacklogBeforeTheFirstCycleAndRunsTheCyclesAsked() {
    Run run = bench("--nodes", "50", "--backlog", "600", "--backlog-cycles", "7", "--warmup", "0", "--output", "json");
    assertEquals(0, run.exit(), run.err());
    JsonObject o = JsonParser.parseString(run.out()).getAsJsonObject();
    int pods = o.get("pods").getAsInt();
    assertTrue(pods >= 600 && pods < 600 + 16, "the first 600 pods, whole gangs: " + pods);
    assertTrue(o.get("pending").getAsInt() > pods / 2, "far more than 50 nodes hold stays pending: " + run.out());
    assertTrue(o.get("cycles").getAsInt() >= 7, run.out());
    com.google.gson.JsonArray cycleMs = o.getAsJsonArray("cycleMs");
    assertEquals(o.get("cycles").getAsInt(), cycleMs.size(), "one time per cycle: " + run.out());
    double max = 0;
    for (com.google.gson.JsonElement ms : cycleMs) {
      assertTrue(ms.getAsDouble() >= 0, run.out());
      max = Math.max(max, ms.getAsDouble());
    }
    assertEquals(o.get("cycleMaxMs").getAsDouble(), max, 0.06, "the slowest listed is the max: " + run.out());
    assertEquals(600, o.get("backlog").getAsInt());
    Run bare = bench("--nodes", "50", "--backlog", "--backlog-cycles", "1", "--warmup", "0", "--output", "json");
    assertEquals(0, bare.exit(), bare.err());
    assertEquals(50_000, JsonParser.parseString(bare.out()).getAsJsonObject().get("backlog").getAsInt(),
        "--backlog alone means 50,000 pods");
  }

  @Test
  void floorRunsTheSameWorkloadAndBindsGangsWhole() {
    Run run = bench("--nodes", "50", "--batch", "40", "--warmup", "0", "--floor", "--output", "json");
    assertEquals(0, run.exit(), run.err());
    JsonObject o = JsonParser.parseString(run.out()).getAsJsonObject();
    assertTrue(o.get("floorPodsPerSecond").getAsDouble() > 0, run.out());
    assertTrue(o.get("floorBound").getAsInt() > 0 && o.get("floorBound").getAsInt() <= o.get("pods").getAsInt());
    assertEquals(100 * o.get("podsPerSecond").getAsDouble() / o.get("floorPodsPerSecond").getAsDouble(),
        o.get("percentOfFloor").getAsDouble(), 0.5);

    Workload w = new WorkloadGenerator(20, 5, 300).generate();
    FloorScheduler floor = new FloorScheduler(w);
    FloorScheduler.Result r = floor.run(w, 25);
    assertTrue(r.bound() > 0 && r.bound() < w.podCount(), "three times the GPUs asked: some work stays pending");
    long gpusHeld = 0;
    for (int n = 0; n < 20; n++) {
      assertTrue(floor.freeGpus(n) >= 0 && floor.freePods(n) >= 0, "node " + n + " over capacity");
      gpusHeld += WorkloadGenerator.GPUS_PER_NODE - floor.freeGpus(n);
    }
    assertEquals(r.gpusBound(), gpusHeld, "a gang that did not fit whole gave back what it took");
  }

  @Test
  void constrainedRunsDeploymentReplicasBesideTheSameWorkloadUnconstrained() {
    Run run = bench("--nodes", "60", "--batch", "40", "--warmup", "0", "--constrained", "--output", "json");
    assertEquals(0, run.exit(), run.err());
    JsonObject o = JsonParser.parseString(run.out()).getAsJsonObject();
    int pods = o.get("pods").getAsInt();
    int constrained = o.get("constrainedPods").getAsInt();
    assertTrue(constrained > pods / 10 && constrained < pods / 2, "about 30% of pods: " + run.out());
    assertTrue(o.get("unconstrainedPodsPerSecond").getAsDouble() > 0, run.out());
    assertTrue(o.get("bound").getAsInt() > 0, run.out());

    Workload base = new WorkloadGenerator(60, 42, 95).generate();
    Workload w = Deployments.constrained(base, 30, 42);
    assertEquals(base.podCount(), w.podCount());
    assertEquals(Deployments.constrainedPods(w), Deployments.constrainedPods(Deployments.constrained(base, 30, 42)),
        "the same seed draws the same replicas");
    assertEquals(0, Deployments.constrainedPods(Deployments.zoned(base)));
    for (io.basalt.model.Node n : w.nodes()) {
      assertTrue(n.labels().containsKey(Deployments.ZONE), n.name());
    }
    for (io.basalt.model.Pod p : w.pods()) {
      io.basalt.model.PodConstraints c = p.constraints();
      if (c.hasPodAffinity() || !c.topologySpread().isEmpty()) {
        assertTrue(p.labels().containsKey("app") && p.labels().containsKey("pod-template-hash"), p.key());
      }
    }
    assertEquals(2, bench("--nodes", "10", "--constrained", "150").exit());
  }
}
