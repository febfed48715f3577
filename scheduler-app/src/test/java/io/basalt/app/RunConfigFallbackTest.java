package io.basalt.app;

import static io.basalt.app.LiveRun.node;
import static io.basalt.app.LiveRun.nodeOf;
import static io.basalt.app.LiveRun.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code basalt run} started with a config that cannot be built: it schedules with the built-in default instead of
 * exiting into a crash loop, says so on /readyz and in {@code basalt_config_valid}, and takes the fixed edit.
 */
@Timeout(60)
class RunConfigFallbackTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String BAD = "actions: allocate\ntiers:\n- plugins:\n  - name: gnag\n";
  private static final String GOOD = "actions: enqueue, allocate\ntiers:\n- plugins:\n  - name: priority\n"
      + "  - name: gang\n- plugins:\n  - name: predicates\n  - name: proportion\n  - name: nodeorder\n";

  private static JsonObject data(String conf) {
    JsonObject data = new JsonObject();
    data.addProperty("volcano-scheduler.conf", conf);
    return data;
  }

  private static JsonObject configMap(String conf) {
    JsonObject cm = new JsonObject();
    cm.addProperty("apiVersion", "v1");
    cm.addProperty("kind", "ConfigMap");
    JsonObject meta = new JsonObject();
    meta.addProperty("name", "basalt");
    meta.addProperty("namespace", "kube-system");
    cm.add("metadata", meta);
    cm.add("data", data(conf));
    return cm;
  }

  private static int readyStatus(LiveRun run) {
    try {
      return run.get("/readyz").statusCode();
    } catch (Exception e) {
      throw new IllegalStateException("GET /readyz failed", e);
    }
  }

  private static String readyz(LiveRun run) throws Exception {
    HttpResponse<String> ready = run.get("/readyz");
    assertEquals(200, ready.statusCode(), "a config fallback keeps readiness: " + ready.body());
    return ready.body();
  }

  @Test
  void aBadConfigMapAtStartRunsTheBuiltInDefaultUntilItIsFixed(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 4));
      server.seed(pod("first", "basalt-scheduler", 1, null));
      server.seed(configMap(BAD));
      try (LiveRun run = LiveRun.start(server, dir, "--config-map", "kube-system/basalt")) {
        Await.until("a pod bound under the built-in default", WAIT, () -> "gpu-1".equals(nodeOf(server, "first")));
        Await.until("ready", WAIT, () -> readyStatus(run) == 200);
        String body = readyz(run);
        assertTrue(body.startsWith("ok; config: FALLBACK built-in default: ConfigMap kube-system/basalt: "
            + "tiers[0].plugins[0] (gnag): unknown plugin 'gnag'"), body);
        assertEquals(0, run.metric("basalt_config_valid"));
        Await.until("an InvalidConfig event on the ConfigMap", WAIT, () -> server.list(Resources.EVENTS,
            "kube-system").stream().anyMatch(e -> e.get("reason").getAsString().equals("InvalidConfig")));

        JsonObject patch = new JsonObject();
        patch.add("data", data(GOOD));
        server.mergePatch(Resources.CONFIGMAPS, "kube-system", "basalt", patch.toString());
        Await.until("the fixed edit in force", WAIT, () -> run.metric("basalt_config_valid") == 1);
        String version = server.get(Resources.CONFIGMAPS, "kube-system", "basalt").getAsJsonObject("metadata")
            .get("resourceVersion").getAsString();
        assertEquals("ok; config: ConfigMap kube-system/basalt (resourceVersion " + version + ")\n", readyz(run));
        server.seed(pod("second", "basalt-scheduler", 1, null));
        Await.until("scheduling goes on under the fixed config", WAIT,
            () -> "gpu-1".equals(nodeOf(server, "second")));
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aBadConfigFileAtStartRunsTheBuiltInDefaultUntilItIsFixed(@TempDir Path dir) throws Exception {
    Path conf = Files.writeString(dir.resolve("volcano-scheduler.conf"), "actions: [\n");
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed(node("gpu-1", 4));
      server.seed(pod("first", "basalt-scheduler", 1, null));
      try (LiveRun run = LiveRun.start(server, dir, "--config", conf.toString())) {
        Await.until("a pod bound under the built-in default", WAIT, () -> "gpu-1".equals(nodeOf(server, "first")));
        Await.until("ready", WAIT, () -> readyStatus(run) == 200);
        String body = readyz(run);
        assertTrue(body.startsWith("ok; config: FALLBACK built-in default: " + conf + ": line 2, column 1: "
            + "not valid YAML"), body);
        assertEquals(0, run.metric("basalt_config_valid"));

        Files.writeString(conf, GOOD);
        Await.until("the fixed file in force", WAIT, () -> run.metric("basalt_config_valid") == 1);
        assertTrue(readyz(run).matches("ok; config: \\Q" + conf + "\\E \\(sha256 [0-9a-f]{16}\\)\n"), readyz(run));
        assertEquals(0, run.stop());
      }
    }
  }
}
