package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.config.PluginOption;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.scheduler.ConfValidator;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.testing.Await;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
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

  /**
   * Each class of hostile edit from issue 15 (some once threw at every cycle or killed the loop): rejected with an
   * InvalidConfig event naming the problem, and the profile in force stays, so scheduling goes on.
   */
  @Test
  void everyHostileEditIsRejectedWithItsProblemAndTheProfileInForceStays() throws Exception {
    PluginRegistry plugins = PluginRegistry.of(PluginDescriptor.of("gang", () -> new Noop("gang")),
        PluginDescriptor.of("binpack", args -> {
          args.getWeight("binpack.weight", 1);
          args.getDouble("binpack.factor", 1);
          return null;
        }, n -> new Noop("binpack")),
        PluginDescriptor.of("explode", args -> {
          throw new StackOverflowError();
        }, n -> new Noop("explode")),
        PluginDescriptor.of("asserts", args -> {
          throw new AssertionError("weight out of range");
        }, n -> new Noop("asserts")),
        PluginDescriptor.of("unlinked", args -> {
          throw new NoClassDefFoundError("io/basalt/plugins/Gone");
        }, n -> new Noop("unlinked")));
    String binpack = "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n    arguments:\n      ";
    Map<String, String> edits = new LinkedHashMap<>();
    edits.put(binpack + "binpack.weight:\n", "argument 'binpack.weight' has no value");
    edits.put("actions: &a [[*a]]\n", "line 1, column 10: alias 'a' refers to a value that contains it");
    StringBuilder fanOut = new StringBuilder("a0: &a0 [x, x, x, x, x, x]\n");
    for (int i = 1; i <= 8; i++) {
      fanOut.append("a").append(i).append(": &a").append(i).append(" [").append(("*a" + (i - 1) + ", ").repeat(5))
          .append("*a").append(i - 1).append("]\n");
    }
    edits.put(fanOut + "actions: *a8\n", "aliases expand to more than 10000 values");
    edits.put("actions: allocate\ntiers:\n- plugins:\n  - name: gang\ntiers: []\n",
        "line 5, column 1: not valid YAML: found duplicate key tiers");
    edits.put("actions: !!binary aGVsbG8=\n", "got binary data (5 bytes)");
    edits.put(binpack + "binpack.weight: 1e400\n", "'binpack.weight' must be a finite number, got .inf");
    edits.put(binpack + "binpack.weight: 2147483648\n", "must be between -2147483648 and 2147483647");
    edits.put(binpack + "binpack.factor: .nan\n", "'binpack.factor' must be a number, got .nan");
    edits.put("actions: allocate, backfill\nconfigurations:\n- name: backfill\n  arguments:\n"
        + "    percentageOfNodesToScore: -5\n", "must be between 0 and 100, got -5");
    edits.put("actions: \"allocate\ntiers: [", "line 2, column 9: not valid YAML: found unexpected end of stream");
    edits.put("actions: allocate\ntiers:\n- plugins:\n  - name: explode\n", "cannot be built: StackOverflowError");
    edits.put("actions: allocate\ntiers:\n- plugins:\n  - name: asserts\n",
        "cannot be built: AssertionError: weight out of range");
    edits.put("actions: allocate\ntiers:\n- plugins:\n  - name: unlinked\n",
        "cannot be built: NoClassDefFoundError: io/basalt/plugins/Gone");
    try (FakeApiServer server = FakeApiServer.start()) {
      putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n", true);
      try (ConfigReloader reloader = new ConfigReloader(server.apiClient(), "kube-system", "basalt", plugins)) {
        SchedulerProfile good = reloader.get();
        int events = 0;
        for (Map.Entry<String, String> edit : edits.entrySet()) {
          putConf(server, edit.getKey(), false);
          int before = events++;
          Await.until(edit.getValue(), WAIT, () -> reloader.get() == good
              && server.list(Resources.EVENTS, "kube-system").size() > before);
          assertSame(good, reloader.get(), edit.getValue());
          String message = server.list(Resources.EVENTS, "kube-system").get(before).get("message").getAsString();
          assertTrue(message.contains(edit.getValue()), message);
          assertTrue(message.length() < 2100, message);
        }
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

  private static SchedulerProfile profile(String conf) throws ConfigException {
    return ConfValidator.validate(ConfLoader.parse(conf, "test"), PLUGINS, ActionRegistry.builtin())
        .profileOrThrow("test: ");
  }

  @Test
  void aBadConfigMapAtStartRunsTheFallbackUntilAGoodEditArrives() throws Exception {
    SchedulerProfile fallback = profile("actions: allocate\ntiers:\n- plugins:\n  - name: priority\n");
    try (FakeApiServer server = FakeApiServer.start()) {
      putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gnag\n", true);
      try (ConfigReloader reloader = new ConfigReloader(server.apiClient(), server.apiClient(), "kube-system",
          "basalt", PLUGINS, fallback)) {
        assertSame(fallback, reloader.get());
        ConfigState bad = reloader.state();
        assertTrue(bad.fallback() && !bad.valid(), bad.toString());
        assertTrue(bad.describe().startsWith("FALLBACK built-in default: ConfigMap kube-system/basalt: "
            + "tiers[0].plugins[0] (gnag): unknown plugin 'gnag'"), bad.describe());
        Await.until("the Warning event", WAIT, () -> !server.list(Resources.EVENTS, "kube-system").isEmpty());
        String message = server.list(Resources.EVENTS, "kube-system").get(0).get("message").getAsString();
        assertTrue(message.startsWith("cannot be used, the built-in default config runs until a valid edit: "),
            message);
        assertTrue(message.contains("unknown plugin 'gnag'"), message);

        putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n", false);
        Await.until("the fixed edit in force", WAIT, () -> names(reloader.get()).equals("gang"));
        ConfigState good = reloader.state();
        assertTrue(good.valid() && !good.fallback(), good.toString());
        String version = server.get(Resources.CONFIGMAPS, "kube-system", "basalt").getAsJsonObject("metadata")
            .get("resourceVersion").getAsString();
        assertEquals("ConfigMap kube-system/basalt (resourceVersion " + version + ")", good.describe());

        putConf(server, "actions: [\n", false);
        Await.until("a later bad edit reported", WAIT, () -> !reloader.state().valid());
        assertEquals("gang", names(reloader.get()), "after a good edit, a bad one keeps the good one, not the fallback");
        assertTrue(reloader.state().describe().startsWith("ConfigMap kube-system/basalt (resourceVersion " + version
            + "); latest edit rejected, last good config kept: "), reloader.state().describe());
      }
    }
  }

  @Test
  void aMissingConfigMapAtStartRunsTheFallbackUntilItIsCreated() throws Exception {
    SchedulerProfile fallback = profile("actions: allocate\ntiers:\n- plugins:\n  - name: priority\n");
    try (FakeApiServer server = FakeApiServer.start()) {
      try (ConfigReloader reloader = new ConfigReloader(server.apiClient(), server.apiClient(), "kube-system",
          "basalt", PLUGINS, fallback)) {
        assertSame(fallback, reloader.get());
        assertTrue(reloader.state().describe().contains("ConfigMap kube-system/basalt not found"),
            reloader.state().describe());
        putConf(server, "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n", true);
        Await.until("the created ConfigMap in force", WAIT, () -> names(reloader.get()).equals("gang"));
        assertTrue(reloader.state().valid());
        assertTrue(server.list(Resources.EVENTS, "kube-system").isEmpty(), "no event about an object not there");
      }
    }
  }
}
