package io.basalt.app;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.PluginRegistry;
import io.basalt.scheduler.ConfValidator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Loads and checks a config the same way for every command: parse, then validate against this build. */
final class ConfigOption {
  private ConfigOption() {}

  /** The parsed config, or a {@link ConfigException} listing every problem (parse errors, unknown names, bad args). */
  static SchedulerConf load(Path file, PluginRegistry plugins, List<String> warnings) throws ConfigException {
    SchedulerConf conf = file == null ? ConfLoader.defaultConf() : ConfLoader.load(file);
    ConfValidator.Report report = ConfValidator.validate(conf, plugins, ActionRegistry.builtin());
    if (!report.ok()) {
      List<String> prefixed = new ArrayList<>();
      String source = file == null ? "default config" : file.toString();
      for (String e : report.errors()) {
        prefixed.add(source + ": " + e);
      }
      throw new ConfigException(prefixed);
    }
    warnings.addAll(report.warnings());
    return conf;
  }
}
