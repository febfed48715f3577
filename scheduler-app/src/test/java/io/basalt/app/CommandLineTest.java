package io.basalt.app;

import static io.basalt.app.CliRun.basalt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands as a user runs them: exit codes, and what they print. */
class CommandLineTest {
  /** Exit code plus what went to stdout and stderr. */
  private static String config(String name) {
    return Scenarios.fixture("../config/" + name).normalize().toString();
  }

  @Test
  void validateAcceptsMetaxsGpuAwareAndSupernodeConfigs() {
    CliRun aware = basalt("validate", "--config", config("metax-gpu-aware-configmap.yaml"));
    assertEquals(0, aware.exit(), aware.out());
    CliRun supernode = basalt("validate", "--config", config("metax-supernode-configmap.yaml"));
    assertEquals(0, supernode.exit(), supernode.out());
    assertTrue(supernode.out().endsWith(": OK\n"), supernode.out());
  }

  @Test
  void validateNamesAnUnknownPluginAndItsPlace(@TempDir Path dir) throws Exception {
    Path conf = dir.resolve("typo.conf");
    Files.writeString(conf, "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gang\n  - name: gpu-podafinity\n");
    CliRun r = basalt("validate", "--config", conf.toString());
    assertEquals(1, r.exit());
    List<String> lines = r.out().lines().toList();
    assertEquals(1, lines.size(), r.out());
    assertTrue(lines.get(0).contains("tiers[0].plugins[1] (gpu-podafinity): unknown plugin 'gpu-podafinity' "
        + "(known: binpack, "), lines.get(0));
  }

  @Test
  void validateAcceptsTheShippedConfigs() {
    for (String c : List.of("basalt-default.conf", "gpu-binpack.conf", "gpu-aware.conf", "capacity-reclaim.conf",
        "preempt.conf")) {
      CliRun r = basalt("validate", "--config", config(c));
      assertEquals(0, r.exit(), r.out());
      assertTrue(r.out().endsWith(": OK\n"), r.out());
    }
  }

  @Test
  void validateReportsEveryProblemOnItsOwnLine(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.conf");
    Files.writeString(bad, """
        actions: "enqueue, allocate, shuffle"
        tiers:
        - plugins:
          - name: gang
            enableJobReadyy: false
          - name: binpack
            arguments:
              binpack.weight: heavy
        """);
    CliRun r = basalt("validate", "--config", bad.toString());
    assertEquals(1, r.exit());
    assertTrue(r.out().contains("tiers[0].plugins[0] (gang): unknown field 'enableJobReadyy'"), r.out());
    // Structure problems come first; a config that parses is then checked for names and arguments.
    Files.writeString(bad, """
        actions: "enqueue, allocate, shuffle"
        tiers:
        - plugins:
          - name: binpack
            arguments:
              binpack.weight: heavy
        """);
    r = basalt("validate", "--config", bad.toString());
    assertEquals(1, r.exit());
    List<String> lines = r.out().lines().toList();
    assertEquals(2, lines.size(), r.out());
    assertTrue(lines.get(0).contains("actions: unknown action 'shuffle'"), lines.get(0));
    assertTrue(lines.get(1).contains("tiers[0].plugins[0] (binpack): argument 'binpack.weight' must be a number, "
        + "got 'heavy'"), lines.get(1));
  }

  @Test
  void validatePrintsTheRulesTheBuiltinPluginsDeclare(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("rules.conf");
    Files.writeString(bad, """
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins:
          - name: gang
            enableHierarchy: true
          - name: drf
            enableHierarchy: true
          - name: proportion
        - plugins:
          - name: capacity
        configurations:
        - name: backfill
          arguments:
            percentageOfNodesToScore: -5
        """);
    CliRun r = basalt("validate", "--config", bad.toString());
    assertEquals(1, r.exit());
    String at = bad + ": ";
    assertEquals(List.of(
        at + "configurations.backfill: argument 'percentageOfNodesToScore' must be between 0 and 100, got -5",
        at + "tiers[0].plugins[0] (gang): enableHierarchy is not supported by plugin 'gang' in this build",
        at + "tiers[0].plugins[1] (drf): drf with enableHierarchy cannot share a tier with proportion "
            + "(tiers[0].plugins[2] (proportion)): both order queues by their own notion of share",
        at + "tiers[1].plugins[0] (capacity): plugin 'capacity' cannot be used together with 'proportion' "
            + "(tiers[0].plugins[2] (proportion)): both divide the cluster between queues"),
        r.out().lines().toList());
  }

  @Test
  void simulateJsonHasEveryFieldAndPrintsEmptyArrays() {
    CliRun r = basalt("simulate", "--cluster", Scenarios.fixture("gang-partial").toString(), "--output", "json");
    assertEquals(0, r.exit(), r.err());
    JsonObject json = JsonParser.parseString(r.out()).getAsJsonObject();
    assertEquals(0, json.getAsJsonArray("bindings").size());
    assertEquals(0, json.getAsJsonArray("evicted").size());
    assertEquals(4, json.getAsJsonArray("pending").size());
    JsonObject pg = json.getAsJsonArray("podGroups").get(0).getAsJsonObject();
    assertEquals("ml/train", pg.get("name").getAsString());
    assertEquals(4, pg.get("minMember").getAsInt());
    assertEquals(0, pg.get("scheduled").getAsInt());
    JsonObject summary = json.getAsJsonObject("summary");
    assertEquals(2, summary.get("nodes").getAsInt());
    assertEquals(4, summary.get("pending").getAsInt());
    assertEquals(0, summary.get("bound").getAsInt());
    assertTrue(summary.get("cycles").getAsInt() >= 1);
  }

  @Test
  void explainShowsFilterVerdictsAndPerPluginScores() {
    CliRun r = basalt("simulate", "--cluster", Scenarios.fixture("node-constraints").toString(), "--output", "json",
        "--explain", "--config", config("gpu-binpack.conf"));
    assertEquals(0, r.exit(), r.err());
    JsonObject json = JsonParser.parseString(r.out()).getAsJsonObject();
    JsonObject binding = null;
    for (var b : json.getAsJsonArray("bindings")) {
      if (b.getAsJsonObject().get("pod").getAsString().equals("team-a/wants-a100")) {
        binding = b.getAsJsonObject();
      }
    }
    JsonObject explain = binding.getAsJsonObject("explain");
    JsonObject chosen = explain.getAsJsonObject("a100-1");
    assertEquals("ok", chosen.get("filter").getAsString());
    JsonObject scores = chosen.getAsJsonObject("scores");
    assertTrue(scores.has("binpack") && scores.has("nodeorder"), scores.toString());
    assertEquals(scores.get("binpack").getAsDouble() + scores.get("nodeorder").getAsDouble(),
        chosen.get("total").getAsDouble(), 1e-6);
    assertEquals("node(s) were unschedulable", explain.getAsJsonObject("cordoned-1").get("filter").getAsString());
    assertEquals("Insufficient nvidia.com/gpu", explain.getAsJsonObject("cpu-1").get("filter").getAsString());
  }

  @Test
  void simulateWithABrokenConfigFailsWithTheProblemNotAStackTrace(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.conf");
    Files.writeString(bad, "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gpu-awre\n");
    CliRun r = basalt("simulate", "--config", bad.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("tiers[0].plugins[0] (gpu-awre): unknown plugin 'gpu-awre'"), r.err());
    assertTrue(!r.err().contains("Exception"), r.err());
  }

  @Test
  void runRefusesFlagsThatCannotWorkBeforeConnecting() {
    CliRun r = basalt("run", "--kube-api-qps", "0", "--bind-workers", "0", "--leader-elect", "--lease-duration", "5s",
        "--renew-deadline", "10s", "--config-map", "kube-system/basalt", "--config", "x.conf");
    assertEquals(2, r.exit());
    for (String problem : List.of("--kube-api-qps must be above 0, got 0.0", "--bind-workers must be at least 1",
        "--config-map and --config both given", "--lease-duration > --renew-deadline > --retry-period > 0")) {
      assertTrue(r.err().contains(problem), r.err());
    }
    assertTrue(!r.err().contains("Exception"), r.err());
  }

  @Test
  void runWithAMissingKubeconfigSaysSo(@TempDir Path dir) {
    CliRun r = basalt("run", "--kubeconfig", dir.resolve("nope").toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("basalt run: --kubeconfig " + dir.resolve("nope") + ": no such readable file"),
        r.err());
  }

  @Test
  void simulateWithAMissingClusterPathSaysSo() {
    CliRun r = basalt("simulate", "--cluster", "/no/such/dir");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("--cluster /no/such/dir: no such file or directory"), r.err());
  }

  @Test
  void simulateReportsManifestsItCannotUse(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("c.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status: {allocatable: {cpu: "4", memory: 8Gi}}
        ---
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: bad, namespace: default}
        spec:
          schedulerName: basalt-scheduler
          containers:
          - name: c
            resources: {requests: {cpu: "-2"}}
        """);
    CliRun r = basalt("simulate", "--cluster", dir.toString(), "--output", "json");
    assertEquals(0, r.exit(), r.err());
    JsonObject json = JsonParser.parseString(r.out()).getAsJsonObject();
    String warnings = json.getAsJsonArray("warnings").toString();
    assertTrue(warnings.contains("Deployment"), warnings);
    assertTrue(warnings.contains("Pod default/bad"), warnings);
  }
}
