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
 * the tiers takes effect at the next cycle without a restart. An edit that does not parse or validate is logged with
 * every problem, recorded once as a Warning event on the ConfigMap, and the last good config stays in force; so does
 * it when the ConfigMap is deleted. Only list and watch on that one ConfigMap are needed (a field selector on its
 * name), which the chart's Role grants in its namespace. Each edit is compiled once into a {@link SchedulerProfile}
 * when first seen; cycles in between get the same profile.
 */
public final class ConfigReloader implements Supplier<SchedulerProfile>, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ConfigReloader.class.getName());

  private final CoreV1Api api;
  private final EventSender events;
  private final String namespace;
  private final String name;
  private final PluginRegistry plugins;
  private final SharedInformerFactory factory;
  /** The ConfigMap's text as last seen by the informer (null while it has no data key). */
  private final AtomicReference<String> latest = new AtomicReference<>();
  /** Its uid, for the events: {@code kubectl describe} finds an object's events by uid. */
  private volatile String uid;
  private SchedulerProfile current;
  private String currentText;
  private String rejectedText;
  /** Stands for "the data key is missing" where a text is compared; no YAML text contains a NUL. */
  private static final String NO_KEY = "\u0000no data key";

  /**
   * Reads the ConfigMap once, then watches it.
   *
   * @throws ConfigException when it is missing or invalid at start (there is no good config to fall back on)
   */
  public ConfigReloader(ApiClient client, String namespace, String name, PluginRegistry plugins)
      throws ConfigException {
    this(client, client, namespace, name, plugins);
  }

  /**
   * @param watchClient for the watch (no read timeout)
   * @param callClient for the first read and the events (with timeouts); events go out in the background, so a
   *     slow API server never holds up the cycle that noticed the edit
   */
  public ConfigReloader(ApiClient watchClient, ApiClient callClient, String namespace, String name,
      PluginRegistry plugins) throws ConfigException {
    this.api = new CoreV1Api(callClient);
    this.events = new EventSender(callClient, 1);
    this.namespace = namespace;
    this.name = name;
    this.plugins = plugins;
    V1ConfigMap first = readOnce();
    uid = first.getMetadata() == null ? null : first.getMetadata().getUid();
    String text = textOf(first);
    if (text == null) {
      throw noKey();
    }
    this.current = parse(text);
    this.currentText = text;
    latest.set(text);
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
  public synchronized SchedulerProfile get() {
    String latestText = latest.get();
    String text = latestText == null ? NO_KEY : latestText;
    if (text.equals(currentText)) {
      rejectedText = null; // back to the config in force: a later bad edit is reported again
      return current;
    }
    if (text.equals(rejectedText)) {
      return current;
    }
    try {
      if (latestText == null) {
        throw noKey();
      }
      current = parse(text);
      currentText = text;
      rejectedText = null;
      LOG.log(System.Logger.Level.INFO, "ConfigMap " + key() + " reloaded");
    } catch (ConfigException e) {
      reject(text, e.problems(), null);
    } catch (RuntimeException | StackOverflowError e) {
      // a bug in building a config must not stop scheduling: the last good config stays, as for any bad edit
      reject(text, List.of("cannot be built: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage())), e);
    }
    return current;
  }

  /** Keeps the config in force, logs every problem and records the edit once as a Warning event. */
  private void reject(String text, List<String> problems, Throwable bug) {
    rejectedText = text;
    String message = new ConfigException(problems).getMessage();
    LOG.log(System.Logger.Level.ERROR, "ConfigMap " + key() + " edit rejected, keeping the last good config:\n"
        + message, bug);
    events.send("ConfigMap", namespace, name, uid, "Warning", "InvalidConfig",
        "edit rejected, the last good config stays in force: " + message.replace("\n", "; "));
  }

  /** The ConfigMap's text as the watch last delivered it (null: no data key), for tests. */
  String seenText() {
    return latest.get();
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
    latest.set(textOf(cm));
  }

  private V1ConfigMap readOnce() throws ConfigException {
    try {
      List<V1ConfigMap> items = api.listNamespacedConfigMap(namespace).fieldSelector(selector()).execute()
          .getItems();
      if (items.isEmpty()) {
        throw new ConfigException("ConfigMap " + key() + " not found (--config-map " + key() + ")");
      }
      return items.get(0);
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

  private static String textOf(V1ConfigMap cm) {
    return cm.getData() == null ? null : cm.getData().get(ConfLoader.CONFIGMAP_KEY);
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
