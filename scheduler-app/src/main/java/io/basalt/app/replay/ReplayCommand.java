package io.basalt.app.replay;

import io.basalt.app.bench.InProcessEngine;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.config.SchedulerConf;
import io.basalt.kube.ManifestException;
import io.basalt.scheduler.SchedulerProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code basalt replay}: a production GPU trace (Alibaba's openb CSVs) through the real engine, in HAMi form (see
 * {@link HamiForm}), on a simulated clock or in the FGD paper's protocol; reports the allocation curve,
 * fragmentation, stranded GPUs per model and waits, optionally as a self-contained HTML page.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {
        "Replay a GPU trace through the scheduler: the Alibaba openb CSVs (--trace), or Nodes and Pods written "
            + "as Kubernetes YAML (--manifests; arrival = creationTimestamp, departure = deletionTimestamp).",
        "",
        "Nodes offer nvidia.com/gpu = GPUs x 10 vGPU slots with their devices' model in basalt.io/gpu-topology; "
            + "pods ask for nvidia.com/gpu, shares add nvidia.com/gpucores, gpu_spec becomes "
            + "nvidia.com/use-gputype. --protocol clock: arrivals at creation_time, each pod runs its production "
            + "duration once bound. --protocol fgd: the FGD paper's, seeded order until requests reach --arrived "
            + "%% of GPU capacity, one attempt per pod, no departures."})
public final class ReplayCommand implements Callable<Integer> {
  enum Protocol { clock, fgd }

  enum Output { table, json }

  enum ProgressMode { auto, bar, lines, none }

  @Spec
  CommandSpec spec;

  @Option(names = "--trace", paramLabel = "DIR",
      description = "Folder with " + OpenbTrace.NODE_FILE + " and the pod list (e.g. ../shared/traces/openb).")
  Path trace;

  @Option(names = "--manifests", paramLabel = "PATH",
      description = "Instead of --trace: a YAML/JSON file or folder of Nodes and Pods, each pod arriving at its "
          + "creationTimestamp and leaving at its deletionTimestamp (none: it stays).")
  Path manifests;

  @Option(names = "--pods", paramLabel = "FILE", defaultValue = OpenbTrace.POD_FILE,
      description = "The pod list, in --trace unless a path (default: ${DEFAULT-VALUE}).")
  Path podFile;

  @Option(names = "--config", description = "A volcano-scheduler.conf; default: the shipped default tiers.")
  Path config;

  @Option(names = "--protocol", defaultValue = "clock", description = "clock or fgd (default: ${DEFAULT-VALUE}).")
  Protocol protocol;

  @Option(names = "--seed", split = ",", defaultValue = "42",
      description = "fgd: the order's seed; several (42,43,44) run one after another (default: ${DEFAULT-VALUE}).")
  List<Long> seeds;

  @Option(names = "--arrived", defaultValue = "130",
      description = "fgd: GPU requests to submit, in percent of GPU capacity (default: ${DEFAULT-VALUE}).")
  double arrived;

  @Option(names = "--batch", defaultValue = "200",
      description = "fgd: pods per scheduling cycle, taken in order (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--period", defaultValue = "10",
      description = "clock: seconds between scheduling cycles (default: ${DEFAULT-VALUE}).")
  long period;

  @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
  Output output;

  @Option(names = "--report", paramLabel = "FILE", description = "Also write a self-contained HTML report here.")
  Path report;

  @Option(names = "--progress", defaultValue = "auto",
      description = "auto (a bar on a terminal, lines otherwise), bar, lines or none (default: ${DEFAULT-VALUE}).")
  ProgressMode progress;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (arrived <= 0 || batch <= 0 || period <= 0 || seeds.isEmpty()) {
      err.println("replay: --arrived, --batch and --period must be positive");
      return 2;
    }
    SchedulerConf conf;
    String source = config == null ? "default config" : config.toString();
    try {
      conf = config == null ? ConfLoader.defaultConf() : ConfLoader.load(config);
      InProcessEngine.compile(conf, source); // refused here, before any trace is read
    } catch (ConfigException e) {
      e.problems().forEach(err::println);
      return 1;
    }
    if ((trace == null) == (manifests == null)) {
      err.println("replay: give one trace: --trace DIR (openb CSVs) or --manifests PATH (Kubernetes YAML)");
      return 2;
    }
    Path input = manifests != null ? manifests : trace.resolve(podFile);
    OpenbTrace data;
    try {
      if (manifests != null) {
        if (!Files.exists(manifests)) {
          err.println("replay: cannot read " + manifests);
          return 1;
        }
        data = KubeTrace.read(manifests, err);
      } else {
        Path nodes = trace.resolve(OpenbTrace.NODE_FILE);
        if (!Files.isReadable(nodes) || !Files.isReadable(input)) {
          err.println("replay: cannot read " + (Files.isReadable(nodes) ? input : nodes));
          return 1;
        }
        data = OpenbTrace.read(nodes, input);
      }
    } catch (IllegalArgumentException | ManifestException e) {
      err.println("replay: " + e.getMessage());
      return 1;
    }
    if (protocol == Protocol.clock && !data.timed()) {
      err.println("replay: " + input + " has no " + OpenbTrace.CREATION + " or " + OpenbTrace.DELETION + " column: the"
          + " clock protocol needs the pods' creation and deletion times; use --protocol fgd");
      return 1;
    }
    List<ReplayResult> results = new ArrayList<>();
    if (protocol == Protocol.clock) {
      results.add(ClockReplay.run(data, fresh(conf, source), source, period, progress(err, "clock replay")));
    } else {
      for (long seed : seeds) {
        results.add(FgdReplay.run(data, fresh(conf, source), source, seed, arrived, batch,
            progress(err, "seed " + seed)));
      }
    }
    out.print(output == Output.json ? ReplayText.json(results) : ReplayText.table(results));
    out.flush();
    if (report != null) {
      Files.writeString(report, HtmlReport.render(results, String.valueOf(input.getFileName())));
      err.println("replay: wrote " + report);
    }
    return 0;
  }

  /**
   * A scheduler of its own for each run, as a new process would be: plugins that learn (gpu-fragmentation's workload
   * mix) must not carry what one seed taught them into the next.
   */
  private static SchedulerProfile fresh(SchedulerConf conf, String source) {
    try {
      return InProcessEngine.compile(conf, source);
    } catch (ConfigException e) {
      throw new IllegalStateException("compiled once already: " + e.problems(), e);
    }
  }

  private Progress progress(PrintWriter err, String what) {
    return switch (progress) {
      case none -> Progress.NONE;
      case bar -> Progress.to(err, true, what, 0);
      case lines -> Progress.to(err, false, what, 2);
      case auto -> Progress.to(err, System.console() != null, what, 2);
    };
  }
}
