package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.config.ConfigException;
import io.basalt.config.PluginOption;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.testing.Await;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConfigReloaderTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final PluginRegistry PLUGINS = PluginRegistry.of(
      PluginDescriptor.of("gang", () -> new Noop("gang")), PluginDescriptor.of("priority", () -> new Noop("priority")));

  private record Noop(String name) implements Plugin {
    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {}
  }

  private static void putConf(FakeApiServer server, String conf, boolean create) {
    JsonObject cm = new JsonObject();
    cm.addProperty("apiVersion", "v1");
    cm.addProperty("kind", "ConfigMap");
    JsonObject meta = new JsonObject();
    meta.addProperty("name", "basalt");
    meta.addProperty("namespace", "kube-system");
    cm.add("metadata", meta);
    JsonObject data = new JsonObject();
    data.addProperty("volcano-scheduler.conf", conf);
    cm.add("data", data);
    if (create) {
      server.seed(cm);
    } else {
      JsonObject patch = new JsonObject();
      patch.add("data", data);
      server.mergePatch(Resources.CONFIGMAPS, "kube-system", "basalt", patch.toString());
    }
  }

  private static String names(SchedulerProfile p) {
    return String.join(",", p.conf().allPlugins().stream().map(PluginOption::name).toList());
  }

  @Test
  void anEditTakesEffectAndAnInvalidEditKeepsTheLastGoodConfig() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n", true);
      try (ConfigReloader reloader = new ConfigReloader(server.apiClient(), "kube-system", "basalt", PLUGINS)) {
        assertEquals("gang", names(reloader.get()));
        putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n  - name: priority\n", false);
        Await.until("the edit seen", WAIT, () -> names(reloader.get()).equals("gang,priority"));
        putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gnag\n", false);
        Await.until("the invalid edit reported", WAIT, () -> reloader.get() != null
            && !server.list(Resources.EVENTS, "kube-system").isEmpty());
        assertEquals("gang,priority", names(reloader.get()), "unknown plugin: the edit is rejected");
        reloader.get();
        assertEquals(1, server.list(Resources.EVENTS, "kube-system").size(), "one event per rejected edit");
        JsonObject event = server.list(Resources.EVENTS, "kube-system").get(0);
        assertEquals("InvalidConfig", event.get("reason").getAsString());
        assertEquals("ConfigMap", event.getAsJsonObject("involvedObject").get("kind").getAsString());
        assertTrue(event.get("message").getAsString().contains("unknown plugin 'gnag'"), event.toString());
        putConf(server, "actions: [\n", false);
        Await.until("the broken edit reported", WAIT, () -> reloader.get() != null
            && server.list(Resources.EVENTS, "kube-system").size() == 2);
        assertEquals("gang,priority", names(reloader.get()), "broken YAML: the edit is rejected");
        putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n  - name: priority\n", false);
        Await.until("the revert seen", WAIT, () -> reloader.seenText().contains("priority"));
        assertEquals("gang,priority", names(reloader.get()), "back to the config in force");
        putConf(server, "actions: [\n", false);
        Await.until("the same broken edit again is reported again", WAIT, () -> reloader.get() != null
            && server.list(Resources.EVENTS, "kube-system").size() == 3);
        server.mergePatch(Resources.CONFIGMAPS, "kube-system", "basalt", "{\"data\":null}");
        Await.until("a ConfigMap without the key is reported", WAIT, () -> reloader.get() != null
            && server.list(Resources.EVENTS, "kube-system").size() == 4);
        assertEquals("gang,priority", names(reloader.get()), "no key: the last good config stays");
        server.delete(Resources.CONFIGMAPS, "kube-system", "basalt");
        Thread.sleep(200);
        assertEquals("gang,priority", names(reloader.get()), "deleted: the last good config stays");
      }
    }
  }

  @Test
  void eachEditIsCompiledOnceAndItsProfileServesEveryCycleUntilTheNextGoodEdit() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    PluginRegistry counting = PluginRegistry.of(PluginDescriptor.of("gang", args -> reads.incrementAndGet(),
        n -> new Noop("gang")), PluginDescriptor.of("priority", () -> new Noop("priority")));
    try (FakeApiServer server = FakeApiServer.start()) {
      putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n", true);
      try (ConfigReloader reloader = new ConfigReloader(server.apiClient(), "kube-system", "basalt", counting)) {
        SchedulerProfile first = reloader.get();
        assertSame(first, reloader.get());
        assertEquals(1, reads.get());
        putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n  - name: priority\n", false);
        Await.until("the edit seen", WAIT, () -> names(reloader.get()).equals("gang,priority"));
        SchedulerProfile second = reloader.get();
        assertSame(second, reloader.get());
        assertEquals(2, reads.get(), "compiled once for the edit");
        putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gnag\n", false);
        Await.until("the invalid edit reported", WAIT, () -> reloader.get() != null
            && !server.list(Resources.EVENTS, "kube-system").isEmpty());
        assertSame(second, reloader.get(), "the last good profile stays, as it was");
      }
    }
  }

  @Test
  void aMissingOrInvalidConfigMapAtStartIsAClearError() throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      ConfigException missing = assertThrows(ConfigException.class,
          () -> new ConfigReloader(server.apiClient(), "kube-system", "basalt", PLUGINS));
      assertTrue(missing.getMessage().contains("ConfigMap kube-system/basalt not found"),
          missing.getMessage());
      putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: nope\n", true);
      ConfigException invalid = assertThrows(ConfigException.class,
          () -> new ConfigReloader(server.apiClient(), "kube-system", "basalt", PLUGINS));
      assertTrue(invalid.getMessage().contains("unknown plugin 'nope'"), invalid.getMessage());
    }
  }
}
