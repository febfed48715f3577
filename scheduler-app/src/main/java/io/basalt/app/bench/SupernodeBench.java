package io.basalt.app.bench;

import com.google.gson.stream.JsonWriter;
import io.basalt.config.PluginOption;
import io.basalt.config.SchedulerConf;
import io.basalt.config.Tier;
import io.basalt.fabric.Fabric;
import io.basalt.scheduler.SchedulerProfile;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * {@code basalt bench --supernodes}: the same supernode workload scheduled with the topology plugin and without it,
 * rounds interleaved so machine noise hits both alike, to show what topology placement costs in decisions/s and what
 * it buys in gangs kept inside a dragonfly and dragonflies left whole.
 */
final class SupernodeBench {
  /** The plugin names that turn topology placement on; the plain run drops them from the tiers. */
  static final Set<String> TOPOLOGY_PLUGINS = Set.of("gpu-podaffinity", "network-topology-aware");

  /** One configuration's measured round: the usual figures and where the gangs went. */
  record Round(BenchResult result, SupernodeStats stats) {}

  /** Both configurations' median rounds, and each round's pods per second and per CPU second. */
  record Comparison(Round topology, Round plain, List<Double> topologyRates, List<Double> plainRates,
      List<Double> topologyCpuRates, List<Double> plainCpuRates) {
    double ratio() {
      return plain.result().podsPerSecond() == 0 ? 0
          : topology.result().podsPerSecond() / plain.result().podsPerSecond();
    }

    /** The same ratio of the scheduling thread's CPU time: medians of each side's rounds. */
    double cpuRatio() {
      double p = medianOf(plainCpuRates);
      return p == 0 ? 0 : medianOf(topologyCpuRates) / p;
    }
  }

  private final LongFunction<SupernodeGenerator> generators;
  private final int batch;

  SupernodeBench(LongFunction<SupernodeGenerator> generators, int batch) {
    this.generators = generators;
    this.batch = batch;
  }

  /** {@code conf} without the topology plugins (and without tiers left empty by that). */
  static SchedulerConf withoutTopology(SchedulerConf conf) {
    List<Tier> tiers = new ArrayList<>();
    for (Tier t : conf.tiers()) {
      List<PluginOption> kept = t.plugins().stream().filter(p -> !TOPOLOGY_PLUGINS.contains(p.name())).toList();
      if (!kept.isEmpty()) {
        tiers.add(new Tier(kept));
      }
    }
    return new SchedulerConf(conf.actions(), tiers, conf.configurations());
  }

  static boolean hasTopology(SchedulerConf conf) {
    return conf.allPlugins().stream().anyMatch(p -> TOPOLOGY_PLUGINS.contains(p.name()));
  }

  /** Warm-up runs of both (seed + 1, ...), then {@code rounds} interleaved pairs; each side's median round. */
  Comparison measure(SchedulerProfile topology, SchedulerProfile plain, long seed, int warmup, int rounds) {
    for (int w = 0; w < warmup; w++) {
      run(topology, seed + 1 + w);
      run(plain, seed + 1 + w);
    }
    List<Round> with = new ArrayList<>();
    List<Round> without = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      with.add(run(topology, seed));
      without.add(run(plain, seed));
    }
    return new Comparison(median(with), median(without), rates(with), rates(without), cpuRates(with),
        cpuRates(without));
  }

  Round run(SchedulerProfile profile, long seed) {
    SupernodeGenerator g = generators.apply(seed);
    Workload workload = g.generate();
    Fabric fabric = g.fabric();
    BenchRun run = new BenchRun(profile, workload, batch);
    run.cache().setFabric(fabric);
    System.gc();
    BenchRun.resetPeakHeap();
    BenchResult result = run.run();
    return new Round(result, SupernodeStats.of(workload, fabric, run.cache().pods()));
  }

  private static Round median(List<Round> rounds) {
    List<Round> sorted = new ArrayList<>(rounds);
    sorted.sort(Comparator.comparingDouble(r -> r.result().podsPerSecond()));
    return sorted.get((sorted.size() - 1) / 2);
  }

  private static List<Double> rates(List<Round> rounds) {
    return rounds.stream().map(r -> round(r.result().podsPerSecond(), 1)).toList();
  }

  private static List<Double> cpuRates(List<Round> rounds) {
    return rounds.stream().map(r -> round(r.result().podsPerCpuSecond(), 1)).toList();
  }

  /** The middle value (the lower of the two middle ones), as the median round is chosen. */
  static double medianOf(List<Double> values) {
    if (values.isEmpty()) {
      return 0;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get((sorted.size() - 1) / 2);
  }

  static String json(Comparison c, String header) throws IOException {
    StringWriter s = new StringWriter();
    try (JsonWriter w = new JsonWriter(s)) {
      w.beginObject();
      w.name("mode").value("supernodes");
      w.name("cluster").value(header);
      w.name("nodes").value(c.topology().result().nodes());
      w.name("pods").value(c.topology().result().pods());
      w.name("gangs").value(c.topology().result().gangs());
      w.name("decisionsPerSecondRatio").value(round(c.ratio(), 3));
      w.name("decisionsPerCpuSecondRatio").value(round(c.cpuRatio(), 3));
      side(w, "topology", c.topology(), c.topologyRates(), c.topologyCpuRates());
      side(w, "plain", c.plain(), c.plainRates(), c.plainCpuRates());
      w.endObject();
    }
    return s + System.lineSeparator();
  }

  private static void side(JsonWriter w, String name, Round r, List<Double> rates, List<Double> cpuRates)
      throws IOException {
    BenchResult b = r.result();
    SupernodeStats t = r.stats();
    w.name(name).beginObject();
    w.name("podsPerSecond").value(round(b.podsPerSecond(), 1));
    w.name("podsPerSecondRounds").beginArray();
    for (double v : rates) {
      w.value(v);
    }
    w.endArray();
    w.name("podsPerCpuSecondRounds").beginArray();
    for (double v : cpuRates) {
      w.value(v);
    }
    w.endArray();
    w.name("bound").value(b.bound());
    w.name("pending").value(b.pending());
    w.name("evicted").value(b.evicted());
    w.name("gangsBound").value(t.gangsBound());
    w.name("gangsInDragonflies").value(t.gangsInDragonflies());
    w.name("gangsInDragonfliesPercent").value(round(t.gangsInDragonfliesPercent(), 1));
    w.name("multiGroupGangsBound").value(t.multiGroupGangsBound());
    w.name("multiGroupGangsInOneSwitchbox").value(t.multiGroupGangsInOneSwitchbox());
    w.name("freeDragonflies").value(t.freeDragonflies());
    w.name("dragonflies").value(t.dragonflies());
    w.name("gpuAllocationPercent").value(round(b.gpuAllocationPercent(), 2));
    w.name("cycles").value(b.cycles());
    w.name("schedulingSeconds").value(round(b.schedulingSeconds(), 3));
    w.name("cycleP50Ms").value(round(b.cycleP50Ms(), 2));
    w.name("cycleP99Ms").value(round(b.cycleP99Ms(), 2));
    w.name("peakHeapMiB").value(round(b.peakHeapMiB(), 1));
    w.endObject();
  }

  static String table(Comparison c, String header) {
    BenchResult a = c.topology().result();
    BenchResult b = c.plain().result();
    SupernodeStats s = c.topology().stats();
    SupernodeStats t = c.plain().stats();
    StringBuilder sb = new StringBuilder();
    sb.append(header).append(System.lineSeparator());
    row(sb, "", "topology", "plain");
    row(sb, "pods/s (median)", fmt("%.1f", a.podsPerSecond()), fmt("%.1f", b.podsPerSecond()));
    row(sb, "pods/s ratio", fmt("%.1f %%", 100 * c.ratio()), "");
    row(sb, "pods/CPU s ratio", fmt("%.1f %%", 100 * c.cpuRatio()), "");
    row(sb, "pods bound / submitted", a.bound() + " / " + a.pods(), b.bound() + " / " + b.pods());
    row(sb, "pods evicted", Integer.toString(a.evicted()), Integer.toString(b.evicted()));
    row(sb, "gangs bound", s.gangsBound() + " / " + a.gangs(), t.gangsBound() + " / " + b.gangs());
    row(sb, "gangs in dragonflies", fmt("%d (%.1f %%)", s.gangsInDragonflies(), s.gangsInDragonfliesPercent()),
        fmt("%d (%.1f %%)", t.gangsInDragonflies(), t.gangsInDragonfliesPercent()));
    row(sb, "16-pod gangs, 1 switchbox", s.multiGroupGangsInOneSwitchbox() + " / " + s.multiGroupGangsBound(),
        t.multiGroupGangsInOneSwitchbox() + " / " + t.multiGroupGangsBound());
    row(sb, "free dragonflies", s.freeDragonflies() + " / " + s.dragonflies(),
        t.freeDragonflies() + " / " + t.dragonflies());
    row(sb, "GPU allocation", fmt("%.2f %%", a.gpuAllocationPercent()), fmt("%.2f %%", b.gpuAllocationPercent()));
    row(sb, "cycle p50 / p99 ms", fmt("%.1f / %.1f", a.cycleP50Ms(), a.cycleP99Ms()),
        fmt("%.1f / %.1f", b.cycleP50Ms(), b.cycleP99Ms()));
    row(sb, "pods/s per round", c.topologyRates().toString(), c.plainRates().toString());
    return sb.toString();
  }

  private static void row(StringBuilder sb, String key, String a, String b) {
    sb.append(String.format(Locale.ROOT, "%-26s %-22s %s%n", key, a, b));
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  private static double round(double v, int decimals) {
    double f = Math.pow(10, decimals);
    return Math.round(v * f) / f;
  }
}
