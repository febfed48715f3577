package io.basalt.kube.live;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.PluginRegistry;
import io.basalt.scheduler.ConfValidator;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The scheduler config from a ConfigMap (key {@code volcano-scheduler.conf}), re-read at most every {@code interval}
 * so an edit of the tiers takes effect at a following cycle without a restart. An edit that does not parse or
 * validate is logged with every problem, recorded as a Warning event on the ConfigMap, and the last good config
 * stays in force.
 */
public final class ConfigReloader implements Supplier<SchedulerConf> {
  private static final System.Logger LOG = System.getLogger(ConfigReloader.class.getName());

  private final CoreV1Api api;
  private final String namespace;
  private final String name;
  private final Duration interval;
  private final PluginRegistry plugins;
  private SchedulerConf current;
  private String currentText;
  private long nextCheck;

  /**
   * Reads the ConfigMap once.
   *
   * @throws ConfigException when it is missing or invalid at start (there is no good config to fall back on)
   */
  public ConfigReloader(ApiClient client, String namespace, String name, Duration interval, PluginRegistry plugins)
      throws ConfigException {
    this.api = new CoreV1Api(client);
    this.namespace = namespace;
    this.name = name;
    this.interval = interval;
    this.plugins = plugins;
    String text = read();
    this.current = parse(text);
    this.currentText = text;
    this.nextCheck = System.nanoTime() + interval.toNanos();
  }

  @Override
  public synchronized SchedulerConf get() {
    if (System.nanoTime() >= nextCheck) {
      nextCheck = System.nanoTime() + interval.toNanos();
      try {
        String text = read();
        if (!text.equals(currentText)) {
          current = parse(text);
          currentText = text;
          LOG.log(System.Logger.Level.INFO, "ConfigMap " + namespace + "/" + name + " reloaded");
        }
      } catch (ConfigException e) {
        LOG.log(System.Logger.Level.ERROR, "ConfigMap " + namespace + "/" + name
            + " edit rejected, keeping the last good config:\n" + String.join("\n", e.problems()));
        rejected(e);
      }
    }
    return current;
  }

  /** A Warning event on the ConfigMap, so {@code kubectl describe} shows why the edit did not take. */
  private void rejected(ConfigException e) {
    EventRecorder.record(api, "ConfigMap", namespace, name, null, "Warning", "InvalidConfig",
        "edit rejected, the last good config stays in force: " + String.join("; ", e.problems()));
  }

  private String read() throws ConfigException {
    try {
      V1ConfigMap cm = api.readNamespacedConfigMap(name, namespace).execute();
      String text = cm.getData() == null ? null : cm.getData().get(ConfLoader.CONFIGMAP_KEY);
      if (text == null) {
        throw new ConfigException("ConfigMap " + namespace + "/" + name + " has no data key '"
            + ConfLoader.CONFIGMAP_KEY + "'");
      }
      return text;
    } catch (ApiException e) {
      throw new ConfigException("ConfigMap " + namespace + "/" + name + ": cannot read it: HTTP " + e.getCode());
    }
  }

  private SchedulerConf parse(String text) throws ConfigException {
    SchedulerConf conf = ConfLoader.parse(text, "ConfigMap " + namespace + "/" + name);
    ConfValidator.Report report = ConfValidator.validate(conf, plugins, ActionRegistry.builtin());
    if (!report.ok()) {
      throw new ConfigException(List.copyOf(report.errors()));
    }
    return conf;
  }
}
