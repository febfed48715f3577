package io.basalt.app;

import io.basalt.app.cli.DeviceProtocolConverter;
import io.basalt.config.ConfigException;
import io.basalt.fabric.FabricBuilder;
import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.protocol.DeviceProtocols;
import io.basalt.kube.ManifestException;
import io.basalt.kube.kueue.KueueMode;
import io.basalt.model.Node;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.ReportFormat;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code basalt simulate}: runs the real engine over a cluster described in Kubernetes YAML and prints what it
 * decided. Without {@code --cluster} it runs the demo cluster embedded in the jar.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = "Schedule a cluster described in Kubernetes YAML, offline, with the real engine.")
final class SimulateCommand implements Callable<Integer> {
  static final String DEFAULT_CLUSTER = "/io/basalt/app/default-cluster.yaml";

  @Option(names = "--cluster", paramLabel = "FILE_OR_DIR",
      description = "YAML file or directory of Nodes, Pods, PodGroups, Queues, PriorityClasses (repeatable). "
          + "Default: the embedded demo cluster.")
  List<Path> clusters = new ArrayList<>();

  @Option(names = "--config", description = "volcano-scheduler.conf, plain or as a ConfigMap. Default: Volcano's.")
  Path config;

  @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
  String output;

  @Option(names = "--explain", description = "For each pod, the filter verdict and per-plugin scores of each node; "
      + "for each job asking for a network domain, the domains considered and why each won or lost.")
  boolean explain;

  @Option(names = "--device-protocol", defaultValue = "auto", converter = DeviceProtocolConverter.class,
      description = "How nodes are told the GPUs chosen: hami (HAMi's device-plugin annotations and node lock), "
          + "basalt (basalt.io/gpu-devices only) or auto: hami on nodes with HAMi's inventory (default: "
          + "${DEFAULT-VALUE}; per resource in the config's deviceProtocol configuration).")
  DeviceProtocols deviceProtocol;

  @Option(names = "--scheduler-name", split = ",", defaultValue = "basalt-scheduler,volcano",
      description = "Pods naming one of these are scheduled (default: ${DEFAULT-VALUE}).")
  List<String> schedulerNames;

  @Option(names = "--kueue", defaultValue = "instead", paramLabel = "MODE",
      description = "Kueue's objects in the manifests: instead (Basalt admits workloads by their ClusterQueue's "
          + "quota and flavors, as Kueue would) or alongside (Kueue admits: only unsuspended workloads run, each as "
          + "one gang, under no second quota). Default: ${DEFAULT-VALUE}.")
  String kueue;

  @Mixin
  TopologyOptions topology = new TopologyOptions();

  @Override
  public Integer call() throws Exception {
    if (!output.equals("table") && !output.equals("json")) {
      System.err.println("--output: expected table or json, got '" + output + "'");
      return 2;
    }
    if (!topology.problems().isEmpty()) {
      topology.problems().forEach(System.err::println);
      return 2;
    }
    PluginRegistry plugins = PluginRegistry.load();
    List<String> warnings = new ArrayList<>();
    SchedulerProfile profile;
    try {
      profile = ConfigOption.load(config, plugins, warnings);
    } catch (ConfigException e) {
      e.problems().forEach(System.err::println);
      return 2;
    }
    warnings.forEach(w -> System.err.println("warning: " + w));
    KueueMode kueueMode;
    try {
      kueueMode = KueueMode.parse(kueue);
    } catch (IllegalArgumentException e) {
      System.err.println("--kueue: " + e.getMessage());
      return 2;
    }
    FixtureSource source;
    try {
      source = kueueMode == KueueMode.INSTEAD ? source() : source().withKueue(kueueMode);
    } catch (IOException | IllegalArgumentException | ManifestException e) {
      System.err.println(e.getMessage()); // a manifest that cannot be read names its file, document and line
      return 2;
    }
    Simulator simulator = new Simulator(profile, new LinkedHashSet<>(schedulerNames), explain)
        .deviceProtocol(deviceProtocol);
    SimulationReport report = simulator.run(source);
    System.out.print(output.equals("json") ? ReportFormat.json(report) : ReportFormat.table(report));
    return 0;
  }

  /** The cluster of {@code --cluster} (or the demo), its fabric from the topology flag when one is given. */
  FixtureSource source() throws IOException {
    FixtureSource source = clusters.isEmpty() ? FixtureSource.fromText("embedded demo cluster", embeddedCluster())
        : FixtureSource.fromPaths(clusters);
    Function<List<Node>, FabricBuilder.Result> fabric = topology.simulated();
    return fabric == null ? source : source.withTopology(topology.describe(), fabric);
  }

  static String embeddedCluster() throws IOException {
    try (InputStream in = SimulateCommand.class.getResourceAsStream(DEFAULT_CLUSTER)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
