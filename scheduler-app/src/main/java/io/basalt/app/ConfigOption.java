package io.basalt.app;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.PluginRegistry;
import io.basalt.scheduler.ConfValidator;
import io.basalt.scheduler.SchedulerProfile;
import java.nio.file.Path;
import java.util.List;

/** Loads and checks a config the same way for every command: parse, then validate and compile against this build. */
final class ConfigOption {
  private ConfigOption() {}

  /**
   * The config compiled for running, or a {@link ConfigException} listing every problem (parse errors, unknown names,
   * bad args), each prefixed with the file.
   */
  static SchedulerProfile load(Path file, PluginRegistry plugins, List<String> warnings) throws ConfigException {
    SchedulerConf conf = file == null ? ConfLoader.defaultConf() : ConfLoader.load(file);
    return compile(conf, file == null ? "default config" : file.toString(), plugins, warnings);
  }

  /** {@code conf}, read from {@code source}, compiled; every error is prefixed with the source. */
  static SchedulerProfile compile(SchedulerConf conf, String source, PluginRegistry plugins, List<String> warnings)
      throws ConfigException {
    ConfValidator.Report report = ConfValidator.validate(conf, plugins, ActionRegistry.builtin());
    SchedulerProfile profile = report.profileOrThrow(source + ": ");
    warnings.addAll(report.warnings());
    return profile;
  }
}
