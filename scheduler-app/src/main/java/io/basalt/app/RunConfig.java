package io.basalt.app;

import io.basalt.config.ConfigException;
import io.basalt.framework.PluginRegistry;
import io.basalt.kube.live.ConfigReloader;
import io.basalt.kube.live.ConfigState;
import io.basalt.scheduler.SchedulerProfile;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.function.Supplier;

/**
 * The scheduler config of {@code basalt run}: from {@code --config-map} (watched), {@code --config} (re-read) or the
 * built-in default, and the state {@code /readyz} and {@code basalt_config_valid} report. A ConfigMap or file that
 * cannot be used at the start does not stop the scheduler: it runs the built-in default with an ERROR log naming the
 * source and the problem, and keeps watching, so the fixed edit is picked up. A crash loop would only take the
 * scheduler away while the config is being fixed, and a rollout would wait on it.
 */
final class RunConfig implements Supplier<SchedulerProfile>, AutoCloseable {
  private final Supplier<SchedulerProfile> profile;
  private final Supplier<ConfigState> state;
  private final ConfigReloader watch;

  private RunConfig(Supplier<SchedulerProfile> profile, Supplier<ConfigState> state, ConfigReloader watch) {
    this.profile = profile;
    this.state = state;
    this.watch = watch;
  }

  /**
   * @param watchClient for the ConfigMap's watch; {@code callClient} for its first read and events
   * @throws ConfigException when {@code --config-map} is malformed or the ConfigMap cannot be read at all (the API
   *     refused or is unreachable: a problem of access, not of the config, which a restart may mend)
   */
  static RunConfig open(String configMap, Path file, ApiClient watchClient, ApiClient callClient,
      PluginRegistry plugins) throws ConfigException {
    SchedulerProfile builtIn = ConfigOption.load(null, plugins, new ArrayList<>());
    if (configMap != null) {
      String[] nsName = configMap.split("/", 2);
      if (nsName.length != 2 || nsName[0].isEmpty() || nsName[1].isEmpty()) {
        throw new ConfigException("--config-map: expected NAMESPACE/NAME, got '" + configMap + "'");
      }
      ConfigReloader reloader = new ConfigReloader(watchClient, callClient, nsName[0], nsName[1], plugins, builtIn);
      return new RunConfig(reloader, reloader::state, reloader);
    }
    if (file != null) {
      ConfigFileWatch files = new ConfigFileWatch(file, plugins, builtIn, System::nanoTime);
      return new RunConfig(files, files::state, null);
    }
    return new RunConfig(() -> builtIn, ConfigState::builtIn, null);
  }

  @Override
  public SchedulerProfile get() {
    return profile.get();
  }

  ConfigState state() {
    return state.get();
  }

  @Override
  public void close() {
    if (watch != null) {
      watch.close();
    }
  }
}
