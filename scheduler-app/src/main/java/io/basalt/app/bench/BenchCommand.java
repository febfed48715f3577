package io.basalt.app.bench;

import com.google.gson.stream.JsonWriter;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.config.SchedulerConf;
import io.basalt.scheduler.SchedulerProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code basalt bench}: schedules a generated GPU workload on a generated cluster with the real engine and reports
 * throughput, cycle latency, heap and GPU allocation. See {@link WorkloadGenerator} for the cluster and the mix.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {
        "Benchmark the scheduler on a generated GPU cluster and workload.",
        "",
        "Nodes have 96 cpu, 1Ti memory and 8 nvidia.com/gpu each. A seeded mix of single-GPU pods, 8-GPU pods, "
            + "gangs of 2-16 8-GPU pods and CPU-only pods asks for about 95%% of the GPUs; it is submitted in "
            + "batches, one scheduling cycle per batch, then cycles run until one binds nothing. A warm-up run "
            + "is discarded before measuring."})
public class BenchCommand implements Callable<Integer> {
  /**
   * Used when no --config is given: the MetaX guide's regular GPU cluster tiers (Volcano's default tiers plus
   * binpack), without the GPU topology plugin, nodeorder and binpack packing GPUs as Basalt's GPU configs do.
   */
  static final String DEFAULT_CONF = """
      actions: "enqueue, allocate, preempt, reclaim, backfill"
      tiers:
      - plugins:
        - name: priority
        - name: gang
        - name: conformance
      - plugins:
        - name: overcommit
        - name: drf
          enablePreemptable: false
        - name: predicates
        - name: proportion
        - name: nodeorder
          arguments:
            gpuPacking: true
        - name: binpack
          arguments:
            binpack.gpuPacking: true
      """;

  /** The supernode bench's topology run: the default tiers with MetaX's plugin where MetaX's config puts it. */
  static final String SUPERNODE_CONF = DEFAULT_CONF.replace("  - name: conformance\n",
      "  - name: conformance\n  - name: gpu-podaffinity\n");

  enum Output { table, json }

  @Spec
  CommandSpec spec;

  @Option(names = "--nodes", defaultValue = "5000", description = "Nodes in the cluster (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--seed", defaultValue = "42", description = "Seed of the workload (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--batch", defaultValue = "2000",
      description = "Pods submitted per cycle; a gang is never split (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--gpu-demand", defaultValue = "95",
      description = "GPUs requested by the workload, in percent of the cluster's (default: ${DEFAULT-VALUE}).")
  int gpuDemand;

  @Option(names = "--fragmentation",
      description = "Nodes with an NVLink-pair topology and a GPU-only mix of 1/2/4/8-GPU pods and small gangs, to "
          + "compare GPU placement (e.g. with and without gpu-aware).")
  boolean fragmentation;

  @Option(names = "--supernodes",
      description = "A supernode cluster (--switchboxes x --dragonflies x --dragonfly-nodes MetaX nodes) and a mix "
          + "of 1-GPU pods, 8-GPU pods and gangs of 8 and 16 x 8 GPUs with gpu-group-size 64, run with the "
          + "topology plugin (--config, default: the default tiers plus gpu-podaffinity) and without it; --nodes is "
          + "ignored.")
  boolean supernodes;

  @Option(names = "--switchboxes", defaultValue = "5", description = "With --supernodes (default: ${DEFAULT-VALUE}).")
  int switchboxes;

  @Option(names = "--dragonflies", defaultValue = "8",
      description = "Dragonflies per switchbox, with --supernodes (default: ${DEFAULT-VALUE}).")
  int dragonflies;

  @Option(names = "--dragonfly-nodes", defaultValue = "125",
      description = "Nodes per dragonfly, with --supernodes (default: ${DEFAULT-VALUE}).")
  int dragonflyNodes;

  @Option(names = "--queues", defaultValue = "4",
      description = "Weight-1 queues the work is spread over (default: ${DEFAULT-VALUE}).")
  int queues;

  @Option(names = "--config", description = "A volcano-scheduler.conf; default: enqueue, allocate, preempt, reclaim, "
      + "backfill with [priority, gang, conformance] / [overcommit, drf, predicates, proportion, nodeorder, binpack].")
  Path config;

  @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
  Output output;

  @Option(names = "--rounds", defaultValue = "1",
      description = "Measured rounds; the round with the median pods/s is reported (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--warmup", defaultValue = "1",
      description = "Discarded warm-up runs before measuring, with seed+1, ... (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--backlog", arity = "0..1", fallbackValue = "50000", paramLabel = "N",
      description = "A backlog instead of batches: N pods (default 50000; whole gangs, so a few more) of the same mix "
          + "submitted before the first cycle, then --backlog-cycles cycles at least; the cycle p50/p99 is the cost "
          + "of a cycle with the backlog pending.")
  Integer backlog;

  @Option(names = "--backlog-cycles", defaultValue = "10",
      description = "With --backlog: cycles run at least (default: ${DEFAULT-VALUE}).")
  int backlogCycles;

  @Option(names = "--floor",
      description = "Also run the floor scheduler (sampled fit, binpack + least-requested + balanced scores, gangs "
          + "all or nothing, nothing else) on the same workload in this JVM after Basalt (median of at least 9 "
          + "rounds after 3 warm-ups: a round lasts milliseconds), and print Basalt's rate as a percentage of the "
          + "floor's.")
  boolean floor;

  @Option(names = "--constrained", arity = "0..1", fallbackValue = "30", paramLabel = "PERCENT",
      description = "Nodes spread over 10 zones, and PERCENT (default 30) of the submissions made replicas of "
          + "Deployments with required hostname anti-affinity or zone/hostname topology spread; the same workload "
          + "without those constraints runs first, and the rate is also printed as a ratio of it.")
  Integer constrained;

  @Option(names = "--dra", arity = "0..1", fallbackValue = "50", paramLabel = "PERCENT",
      description = "PERCENT (default 50) of the nodes publish their GPUs as DRA devices in ResourceSlices and as many "
          + "of the GPU submissions ask for them through ResourceClaims; the same workload without DRA runs first, and "
          + "the rate is also printed as a ratio of it.")
  Integer dra;

  /** With --dra: the median round of the plain workload, and how many pods asked through claims. */
  private BenchResult draReference;
  private int claimPods;

  /** The floor's median round, when --floor ran it. */
  private FloorScheduler.Result floorResult;
  /** With --constrained: the median round of the same workload without constraints, and how many pods had them. */
  private BenchResult reference;
  private int constrainedPods;
  /** What a generated workload becomes before it runs: itself, or with --constrained one of {@link Deployments}. */
  private java.util.function.LongFunction<java.util.function.UnaryOperator<Workload>> shape = s -> w -> w;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (nodes <= 0 || batch <= 0 || rounds <= 0 || warmup < 0 || gpuDemand <= 0 || queues <= 0
        || (backlog != null && backlog <= 0)) {
      err.println("bench: --nodes, --batch, --rounds, --gpu-demand, --queues and --backlog must be positive, "
          + "--warmup not negative");
      return 2;
    }
    if (supernodes) {
      return supernodes(out, err);
    }
    SchedulerProfile profile;
    try {
      profile = loadProfile();
    } catch (ConfigException e) {
      e.problems().forEach(err::println);
      return 1;
    }
    if (constrained != null) {
      if (constrained < 0 || constrained > 100) {
        err.println("bench: --constrained must be a percentage from 0 to 100");
        return 2;
      }
      shape = s -> Deployments::zoned;
      reference = measure(profile);
      shape = s -> w -> Deployments.constrained(w, constrained, s);
      constrainedPods = Deployments.constrainedPods(workload(seed));
    }
    if (dra != null) {
      if (dra < 0 || dra > 100 || constrained != null) {
        err.println("bench: --dra must be a percentage from 0 to 100, and not used with --constrained");
        return 2;
      }
      draReference = measure(profile);
      shape = s -> w -> DraBench.withClaims(w, dra, s);
      claimPods = DraBench.claimPods(workload(seed));
    }
    BenchResult result = measure(profile);
    if (floor) {
      floorResult = measureFloor();
    }
    out.print(output == Output.json ? json(result) : table(result));
    out.flush();
    return 0;
  }

  private SchedulerProfile loadProfile() throws ConfigException {
    String source = config == null ? "default bench config" : config.toString();
    SchedulerConf conf = config == null ? ConfLoader.parse(DEFAULT_CONF, source) : ConfLoader.load(config);
    return InProcessEngine.compile(conf, source);
  }

  /** {@code --supernodes}: the topology config and the same without its topology plugin, compared. */
  private int supernodes(PrintWriter out, PrintWriter err) throws IOException {
    if (switchboxes <= 0 || dragonflies <= 0 || dragonflyNodes <= 0) {
      err.println("bench: --switchboxes, --dragonflies and --dragonfly-nodes must be positive");
      return 2;
    }
    SchedulerProfile topology;
    SchedulerProfile plain;
    try {
      String source = config == null ? "supernode bench config" : config.toString();
      SchedulerConf conf = config == null ? ConfLoader.parse(SUPERNODE_CONF, source) : ConfLoader.load(config);
      if (!SupernodeBench.hasTopology(conf)) {
        err.println("bench: " + source + " has neither gpu-podaffinity nor network-topology-aware: nothing to compare");
        return 1;
      }
      topology = InProcessEngine.compile(conf, source);
      plain = InProcessEngine.compile(SupernodeBench.withoutTopology(conf), source + " without the topology plugin");
    } catch (ConfigException e) {
      e.problems().forEach(err::println);
      return 1;
    }
    SupernodeBench bench = new SupernodeBench(
        s -> new SupernodeGenerator(switchboxes, dragonflies, dragonflyNodes, s, gpuDemand, queues), batch);
    SupernodeBench.Comparison c = bench.measure(topology, plain, seed, warmup, rounds);
    String header = fmt("%d switchboxes x %d dragonflies x %d nodes; seed %d, batch %d, queues %d, rounds %d",
        switchboxes, dragonflies, dragonflyNodes, seed, batch, queues, rounds);
    out.print(output == Output.json ? SupernodeBench.json(c, header) : SupernodeBench.table(c, header));
    out.flush();
    return 0;
  }

  /**
   * Warm-up runs (discarded), then the measured rounds; the round with the median pods/s. No full collection between
   * rounds: G1 shrinks the heap to about three times what is live after one (426 to 120 MiB here), so the round after
   * it ran its first cycles in a young generation smaller than a backlog cycle allocates, collecting every cycle,
   * which a scheduler that has been running never does. The peak heap so counts what earlier rounds left behind.
   */
  BenchResult measure(SchedulerProfile profile) {
    for (int w = 0; w < warmup; w++) {
      run(profile, workload(seed + 1 + w));
    }
    List<BenchResult> results = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      Workload workload = workload(seed);
      BenchRun.resetPeakHeap();
      results.add(run(profile, workload));
    }
    results.sort(Comparator.comparingDouble(BenchResult::podsPerSecond));
    return results.get((results.size() - 1) / 2);
  }

  private BenchResult run(SchedulerProfile profile, Workload workload) {
    if (backlog == null) {
      return new BenchRun(profile, workload, batch).run();
    }
    return new BenchRun(profile, workload, workload.podCount()).minCycles(backlogCycles).run();
  }

  /** Rounds and warm-ups the floor runs at least: a round lasts tens of milliseconds, so a few vary by 3x. */
  private static final int FLOOR_ROUNDS = 9;
  private static final int FLOOR_WARMUP = 3;

  /** The floor on the same workloads: warm-up runs, then the round with the median rate. */
  FloorScheduler.Result measureFloor() {
    for (int w = 0; w < Math.max(warmup, FLOOR_WARMUP); w++) {
      Workload workload = workload(seed + 1 + w);
      new FloorScheduler(workload).run(workload, floorBatch(workload));
    }
    List<FloorScheduler.Result> results = new ArrayList<>();
    for (int r = 0; r < Math.max(rounds, FLOOR_ROUNDS); r++) {
      Workload workload = workload(seed);
      results.add(new FloorScheduler(workload).run(workload, floorBatch(workload)));
    }
    results.sort(Comparator.comparingDouble(FloorScheduler.Result::podsPerSecond));
    return results.get((results.size() - 1) / 2);
  }

  private int floorBatch(Workload workload) {
    return backlog == null ? batch : workload.podCount();
  }

  private Workload workload(long s) {
    Workload w = backlog == null ? generator(s, gpuDemand).generate() : backlogWorkload(s);
    return shape.apply(s).apply(w);
  }

  /**
   * The first {@code --backlog} pods (whole gangs) of the mix, drawn with as much GPU demand as it takes: about 2
   * pods per node come with 95%, so far more than the cluster holds stays pending.
   */
  private Workload backlogWorkload(long s) {
    int demand = Math.max(gpuDemand, (int) Math.min(Integer.MAX_VALUE / 2, 60L * backlog / nodes));
    Workload w = generator(s, demand).generate();
    while (w.podCount() < backlog) {
      demand *= 2;
      w = generator(s, demand).generate();
    }
    List<Workload.Submission> taken = new ArrayList<>();
    int pods = 0;
    for (Workload.Submission sub : w.submissions()) {
      if (pods >= backlog) {
        break;
      }
      taken.add(sub);
      pods += sub.pods().size();
    }
    return new Workload(w.nodes(), taken, w.queues(), w.totalGpus(), w.gpuDemand(), w.gpuResource());
  }

  private WorkloadGenerator generator(long s, int demandPercent) {
    WorkloadGenerator g = new WorkloadGenerator(nodes, s, demandPercent, queues);
    return fragmentation ? g.fragmentationMix() : g;
  }

  String json(BenchResult r) throws IOException {
    StringWriter s = new StringWriter();
    try (JsonWriter w = new JsonWriter(s)) {
      w.beginObject();
      w.name("nodes").value(r.nodes());
      w.name("pods").value(r.pods());
      w.name("bound").value(r.bound());
      w.name("pending").value(r.pending());
      w.name("evicted").value(r.evicted());
      w.name("gangs").value(r.gangs());
      w.name("gangsBound").value(r.gangsBound());
      w.name("cycles").value(r.cycles());
      w.name("podsPerSecond").value(round(r.podsPerSecond(), 1));
      w.name("podsPerCpuSecond").value(round(r.podsPerCpuSecond(), 1));
      w.name("schedulingSeconds").value(round(r.schedulingSeconds(), 3));
      w.name("wallSeconds").value(round(r.wallSeconds(), 3));
      w.name("cycleP50Ms").value(round(r.cycleP50Ms(), 2));
      w.name("cycleP99Ms").value(round(r.cycleP99Ms(), 2));
      w.name("cycleMaxMs").value(round(r.cycleMaxMs(), 2));
      w.name("cycleMs").beginArray();
      for (double ms : r.cycleMs()) {
        w.value(round(ms, 1));
      }
      w.endArray();
      w.name("peakHeapMiB").value(round(r.peakHeapMiB(), 1));
      w.name("gpuAllocationPercent").value(round(r.gpuAllocationPercent(), 2));
      w.name("nodesFor8Gpus").value(r.nodesFor8Gpus());
      w.name("multiGpuPods").value(r.multiGpuPods());
      w.name("avgLinkQuality").value(round(r.avgLinkQuality(), 1));
      w.name("seed").value(seed);
      w.name("batch").value(batch);
      w.name("queues").value(queues);
      w.name("rounds").value(rounds);
      if (backlog != null) {
        w.name("backlog").value(backlog);
      }
      if (floorResult != null) {
        w.name("floorPodsPerSecond").value(round(floorResult.podsPerSecond(), 1));
        w.name("floorBound").value(floorResult.bound());
        w.name("percentOfFloor").value(round(percentOfFloor(r), 1));
      }
      if (reference != null) {
        w.name("constrainedPods").value(constrainedPods);
        w.name("unconstrainedPodsPerSecond").value(round(reference.podsPerSecond(), 1));
        w.name("unconstrainedPodsPerCpuSecond").value(round(reference.podsPerCpuSecond(), 1));
        w.name("ratioToUnconstrained").value(round(ratio(r.podsPerSecond(), reference.podsPerSecond()), 3));
        w.name("cpuRatioToUnconstrained").value(round(ratio(r.podsPerCpuSecond(), reference.podsPerCpuSecond()), 3));
      }
      if (draReference != null) {
        DraBench.json(w, r, draReference, claimPods);
      }
      w.endObject();
    }
    return s + System.lineSeparator();
  }

  String table(BenchResult r) {
    StringBuilder sb = new StringBuilder();
    row(sb, "nodes", Integer.toString(r.nodes()));
    row(sb, "pods submitted", Integer.toString(r.pods()));
    row(sb, "pods bound", Integer.toString(r.bound()));
    row(sb, "pods pending", Integer.toString(r.pending()));
    row(sb, "pods evicted", Integer.toString(r.evicted()));
    row(sb, "gangs (bound)", r.gangs() + " (" + r.gangsBound() + ")");
    row(sb, "cycles", Integer.toString(r.cycles()));
    row(sb, "pods/s (in runOnce)", fmt("%.1f", r.podsPerSecond()));
    row(sb, "pods/CPU-s (in runOnce)", fmt("%.1f", r.podsPerCpuSecond()));
    row(sb, "scheduling time", fmt("%.3f s", r.schedulingSeconds()));
    row(sb, "wall time", fmt("%.3f s", r.wallSeconds()));
    row(sb, "cycle p50 / p99 / max", fmt("%.2f / %.2f / %.2f ms", r.cycleP50Ms(), r.cycleP99Ms(), r.cycleMaxMs()));
    row(sb, "peak heap", fmt("%.1f MiB", r.peakHeapMiB()));
    row(sb, "GPU allocation", fmt("%.2f %%", r.gpuAllocationPercent()));
    row(sb, "nodes free for 8 GPUs", Integer.toString(r.nodesFor8Gpus()));
    row(sb, "multi-GPU pods / links", r.multiGpuPods() + " / " + fmt("%.1f", r.avgLinkQuality()));
    row(sb, "seed / batch / rounds", seed + " / " + batch + " / " + rounds);
    row(sb, "queues", Integer.toString(queues));
    if (backlog != null) {
      row(sb, "backlog", backlog + " pods before the first cycle, >= " + backlogCycles + " cycles");
    }
    if (floorResult != null) {
      row(sb, "floor pods/s (bound)", fmt("%.1f (%d)", floorResult.podsPerSecond(), floorResult.bound()));
      row(sb, "Basalt / floor", fmt("%.1f %%", percentOfFloor(r)));
    }
    if (reference != null) {
      row(sb, "constrained pods", constrainedPods + " of " + r.pods());
      row(sb, "unconstrained pods/s", fmt("%.1f (CPU %.1f)", reference.podsPerSecond(), reference.podsPerCpuSecond()));
      row(sb, "ratio (CPU ratio)", fmt("%.3f (%.3f)", ratio(r.podsPerSecond(), reference.podsPerSecond()),
          ratio(r.podsPerCpuSecond(), reference.podsPerCpuSecond())));
    }
    if (draReference != null) {
      sb.append(DraBench.rows(r, draReference, claimPods));
    }
    return sb.toString();
  }

  private static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }

  private double percentOfFloor(BenchResult r) {
    double f = floorResult.podsPerSecond();
    return f > 0 ? 100 * r.podsPerSecond() / f : 0;
  }

  private static void row(StringBuilder sb, String key, String value) {
    sb.append(String.format(Locale.ROOT, "%-24s %s%n", key, value));
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  private static double round(double v, int decimals) {
    double f = Math.pow(10, decimals);
    return Math.round(v * f) / f;
  }
}
