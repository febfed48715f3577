package io.basalt.app;

import io.basalt.config.ConfigException;
import io.basalt.framework.PluginRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code basalt validate}: checks a scheduler config without a cluster. Exit 0, or 1 with one line per problem. */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check a volcano-scheduler.conf (plain or as a ConfigMap manifest) without a cluster.")
final class ValidateCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, description = "The config file to check.")
  Path config;

  @Override
  public Integer call() {
    List<String> warnings = new ArrayList<>();
    try {
      ConfigOption.load(config, PluginRegistry.load(), warnings);
    } catch (ConfigException e) {
      e.problems().forEach(System.out::println);
      return 1;
    }
    warnings.forEach(w -> System.out.println(config + ": warning: " + w));
    System.out.println(config + ": OK");
    return 0;
  }
}
