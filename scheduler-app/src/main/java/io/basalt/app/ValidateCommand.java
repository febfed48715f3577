package io.basalt.app;

import io.basalt.config.ConfigException;
import io.basalt.framework.PluginRegistry;
import io.basalt.kube.ManifestException;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.scheduler.VgpuSlotCheck;
import io.basalt.sim.FixtureSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code basalt validate}: checks a scheduler config without a cluster, or against the nodes of {@code --cluster}
 * manifests. Exit 0, or 1 with one line per problem; 2 when the manifests cannot be read.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check a volcano-scheduler.conf (plain or as a ConfigMap manifest) without a cluster.")
final class ValidateCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, description = "The config file to check.")
  Path config;

  @Option(names = "--cluster", paramLabel = "FILE_OR_DIR",
      description = "YAML file or directory with the cluster's Nodes (repeatable), to check the config against them "
          + "(e.g. vGPU-slot nodes without deviceshare in the tiers).")
  List<Path> clusters = new ArrayList<>();

  @Override
  public Integer call() {
    List<String> warnings = new ArrayList<>();
    SchedulerProfile profile;
    try {
      profile = ConfigOption.load(config, PluginRegistry.load(), warnings);
    } catch (ConfigException e) {
      e.problems().forEach(System.out::println);
      return 1;
    }
    if (!clusters.isEmpty()) {
      try {
        VgpuSlotCheck.warning(profile.conf(), FixtureSource.fromPaths(clusters).objects().nodes())
            .ifPresent(warnings::add);
      } catch (IOException | IllegalArgumentException | ManifestException e) {
        System.err.println(e.getMessage());
        return 2;
      }
    }
    warnings.forEach(w -> System.out.println(config + ": warning: " + w));
    System.out.println(config + ": OK");
    return 0;
  }
}
