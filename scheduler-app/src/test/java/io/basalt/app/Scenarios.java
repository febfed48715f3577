package io.basalt.app;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.PluginRegistry;
import io.basalt.scheduler.ConfValidator;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Runs the fixtures in {@code test-fixtures/} through the real loader, plugins and simulator. Public for the
 * conformance suite in {@code io.basalt.app.conformance}, which finds its tables and compiles its configs here.
 */
public final class Scenarios {
  private Scenarios() {}

  /** The repository's {@code test-fixtures/} directory, found from the module's working directory. */
  public static Path fixture(String name) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path p = dir.resolve("test-fixtures").resolve(name);
      if (Files.exists(p)) {
        return p;
      }
    }
    throw new IllegalStateException("no test-fixtures/" + name);
  }

  static SimulationReport run(String fixture) throws Exception {
    return run(fixture, ConfLoader.defaultConf(), false);
  }

  /** Several fixture files or directories read as one cluster, under Volcano's default config. */
  static SimulationReport run(List<String> fixtures) throws Exception {
    Simulator sim = new Simulator(compile(ConfLoader.defaultConf()), Set.of("basalt-scheduler", "volcano"), false);
    return sim.run(FixtureSource.fromPaths(fixtures.stream().map(Scenarios::fixture).toList()));
  }

  static SimulationReport run(String fixture, String confYaml) throws Exception {
    return run(fixture, parse(confYaml), false);
  }

  static SimulationReport run(String fixture, SchedulerConf conf, boolean explain) throws Exception {
    Simulator sim = new Simulator(compile(conf), Set.of("basalt-scheduler", "volcano"), explain);
    return sim.run(FixtureSource.fromPaths(List.of(fixture(fixture))));
  }

  /** {@code conf} compiled against every plugin on the class path, as the commands do. */
  public static SchedulerProfile compile(SchedulerConf conf) throws ConfigException {
    return ConfValidator.validate(conf, PluginRegistry.load(), ActionRegistry.builtin()).profileOrThrow("test: ");
  }

  static SchedulerConf parseUnchecked(String yaml) {
    try {
      return parse(yaml);
    } catch (ConfigException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  static SchedulerConf parse(String yaml) throws ConfigException {
    return ConfLoader.parse(yaml, "test");
  }
}
