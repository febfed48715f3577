package io.basalt.kube.live;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.framework.PluginRegistry;
import io.basalt.scheduler.ConfValidator;
import io.basalt.scheduler.SchedulerProfile;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The scheduler config from a ConfigMap (key {@code volcano-scheduler.conf}), watched by an informer so an edit of
 * the tiers takes effect at the next cycle without a restart. An edit that does not parse, validate or build is logged
 * with every problem, recorded once as a Warning event on the ConfigMap, and the last good config stays in force
 * ({@link LastGoodConfig}); so does it when the ConfigMap is deleted. Given a fallback, a ConfigMap that is missing or
 * bad at the start is treated the same way, with the fallback as the last good config. Only list and watch on that
 * one ConfigMap are needed (a field selector on its name), which the chart's Role grants in its namespace. Each edit
 * is compiled once into a {@link SchedulerProfile} when first seen; cycles in between get the same profile.
 */
public final class ConfigReloader implements Supplier<SchedulerProfile>, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ConfigReloader.class.getName());

  private final CoreV1Api api;
  private final EventSender events;
  private final String namespace;
  private final String name;
  private final PluginRegistry plugins;
  private final SharedInformerFactory factory;
  /** The ConfigMap as last seen: at the start, then by the informer. */
  private final AtomicReference<Seen> latest = new AtomicReference<>();
  /** Its uid, for the events: {@code kubectl describe} finds an object's events by uid. */
  private volatile String uid;
  private final LastGoodConfig config;
  /** Stands for "the data key is missing" where a text is compared; no YAML text contains a NUL. */
  private static final String NO_KEY = "\u0000no data key";
  /** Stands for "no such ConfigMap" (only at the start: a deletion keeps what was last seen). */
  private static final String MISSING = "\u0000not found";

  /** One state of the ConfigMap: its text (null: no data key), its resourceVersion; {@code exists} false: none. */
  private record Seen(String text, String resourceVersion, boolean exists) {
    String key() {
      return !exists ? MISSING : text == null ? NO_KEY : text;
    }

    String version() {
      return resourceVersion == null ? null : "resourceVersion " + resourceVersion;
    }
  }

  /**
   * Reads the ConfigMap once, then watches it.
   *
   * @throws ConfigException when it is missing or invalid at start (there is no good config to fall back on)
   */
  public ConfigReloader(ApiClient client, String namespace, String name, PluginRegistry plugins)
      throws ConfigException {
    this(client, client, namespace, name, plugins, null);
  }

  /**
   * @param watchClient for the watch (no read timeout)
   * @param callClient for the first read and the events (with timeouts); events go out in the background, so a
   *     slow API server never holds up the cycle that noticed the edit
   * @param fallback runs while the ConfigMap is missing or bad at the start (logged as an error); null makes that a
   *     {@link ConfigException}
   * @throws ConfigException when the ConfigMap cannot be read (HTTP error), or is missing or bad without a fallback
   */
  public ConfigReloader(ApiClient watchClient, ApiClient callClient, String namespace, String name,
      PluginRegistry plugins, SchedulerProfile fallback) throws ConfigException {
    this.api = new CoreV1Api(callClient);
    this.events = new EventSender(callClient, 1);
    this.namespace = namespace;
    this.name = name;
    this.plugins = plugins;
    V1ConfigMap found = readOnce();
    Seen first = found == null ? new Seen(null, null, false) : seenOf(found);
    if (found != null && found.getMetadata() != null) {
      uid = found.getMetadata().getUid();
    }
    latest.set(first);
    config = new LastGoodConfig("ConfigMap " + key(), first.key(), first.version(), () -> build(first), fallback,
        this::warn);
    factory = new SharedInformerFactory(watchClient);
    CoreV1Api watchApi = new CoreV1Api(watchClient);
    SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(p -> watchApi
        .listNamespacedConfigMap(namespace).fieldSelector(selector()).resourceVersion(p.resourceVersion)
        .watch(p.watch).timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null),
        V1ConfigMap.class, V1ConfigMapList.class, 0L, (type, error) -> LOG.log(System.Logger.Level.WARNING,
            "watch of ConfigMap " + key() + " failed (will retry; the config in force stays): " + error));
    informer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(V1ConfigMap cm) {
        seen(cm);
      }

      @Override
      public void onUpdate(V1ConfigMap old, V1ConfigMap cm) {
        seen(cm);
      }

      @Override
      public void onDelete(V1ConfigMap cm, boolean finalStateUnknown) {
        LOG.log(System.Logger.Level.WARNING, "ConfigMap " + key() + " deleted; the last good config stays in force");
      }
    });
    factory.startAllRegisteredInformers();
  }

  /** The config in force: the ConfigMap's latest text if it is valid, else the last good one. Cheap when unchanged. */
  @Override
  public SchedulerProfile get() {
    Seen seen = latest.get();
    return config.offer(seen.key(), seen.version(), () -> build(seen));
  }

  /** The config in force and whether the ConfigMap's latest text is it; looks at the latest text first. */
  public ConfigState state() {
    get();
    return config.state();
  }

  /** Records a rejection as a Warning event on the ConfigMap; none while it does not exist. */
  private void warn(String message) {
    if (latest.get().exists()) {
      events.send("ConfigMap", namespace, name, uid, "Warning", "InvalidConfig", message);
    }
  }

  /** The ConfigMap's text as the watch last delivered it (null: no data key), for tests. */
  String seenText() {
    return latest.get().text();
  }

  /** Stops the watch. */
  @Override
  public void close() {
    factory.stopAllRegisteredInformers(true);
    try {
      events.close(2);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void seen(V1ConfigMap cm) {
    if (cm.getMetadata() != null && cm.getMetadata().getUid() != null) {
      uid = cm.getMetadata().getUid();
    }
    latest.set(seenOf(cm));
  }

  /** The ConfigMap, or null when there is none; an error reply is a {@link ConfigException}. */
  private V1ConfigMap readOnce() throws ConfigException {
    try {
      List<V1ConfigMap> items = api.listNamespacedConfigMap(namespace).fieldSelector(selector()).execute()
          .getItems();
      return items.isEmpty() ? null : items.get(0);
    } catch (ApiException e) {
      throw new ConfigException("ConfigMap " + key() + ": cannot read it: HTTP " + e.getCode());
    }
  }

  private String selector() {
    return "metadata.name=" + name;
  }

  private String key() {
    return namespace + "/" + name;
  }

  private static Seen seenOf(V1ConfigMap cm) {
    String text = cm.getData() == null ? null : cm.getData().get(ConfLoader.CONFIGMAP_KEY);
    return new Seen(text, cm.getMetadata() == null ? null : cm.getMetadata().getResourceVersion(), true);
  }

  private SchedulerProfile build(Seen seen) throws ConfigException {
    if (!seen.exists()) {
      throw new ConfigException("ConfigMap " + key() + " not found (--config-map " + key() + ")");
    }
    if (seen.text() == null) {
      throw noKey();
    }
    return parse(seen.text());
  }

  private ConfigException noKey() {
    return new ConfigException("ConfigMap " + key() + " has no data key '" + ConfLoader.CONFIGMAP_KEY + "'");
  }

  private SchedulerProfile parse(String text) throws ConfigException {
    String source = "ConfigMap " + key();
    return ConfValidator.validate(ConfLoader.parse(text, source), plugins, ActionRegistry.builtin())
        .profileOrThrow(source + ": ");
  }
}
