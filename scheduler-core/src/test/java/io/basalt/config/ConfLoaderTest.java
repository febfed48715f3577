package io.basalt.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfLoaderTest {
  private static final String CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins:
        - name: priority
        - name: gang
          enablePreemptable: false
      - plugins:
        - name: binpack
          arguments:
            binpack.weight: 10
            binpack.resources: nvidia.com/gpu
      configurations:
      - name: allocate
        arguments:
          percentageOfNodesToScore: 100
      """;

  @Test
  void readsActionsTiersFlagsArgumentsAndConfigurations() throws Exception {
    SchedulerConf c = ConfLoader.parse(CONF, "t");
    assertEquals(List.of("enqueue", "allocate", "backfill"), c.actions());
    assertEquals(2, c.tiers().size());
    PluginOption gang = c.tiers().get(0).plugins().get(1);
    assertEquals("gang", gang.name());
    assertFalse(gang.enabled(Hook.PREEMPTABLE));
    assertTrue(gang.enabled(Hook.JOB_READY), "unset flags are on");
    assertFalse(gang.enabled(Hook.HIERARCHY), "enableHierarchy is off unless set");
    assertEquals(10, c.tiers().get(1).plugins().get(0).arguments().get("binpack.weight"));
    assertEquals(100, c.actionArguments("allocate").getInt("percentageOfNodesToScore", 0));
  }

  @Test
  void readsTheConfFromAConfigMapManifest() throws Exception {
    String cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: volcano-scheduler-configmap\ndata:\n"
        + "  volcano-scheduler.conf: |\n" + CONF.indent(4);
    assertEquals(2, ConfLoader.parse(cm, "cm").tiers().size());
  }

  @Test
  void aConfigMapWithoutTheKeyIsAnError() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfLoader.parse("kind: ConfigMap\ndata:\n  other: x\n", "cm.yaml"));
    assertEquals("cm.yaml: ConfigMap has no data key 'volcano-scheduler.conf'", e.problems().get(0));
  }

  @Test
  void misspelledFlagNamesItsPlaceAndSuggestsTheRightKey() {
    ConfigException e = assertThrows(ConfigException.class, () -> ConfLoader.parse(
        "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n  - name: drf\n    enableOverused: false\n", "c"));
    assertEquals("c: tiers[0].plugins[1] (drf): unknown field 'enableOverused' (did you mean 'enabledOverused'?)",
        e.problems().get(0));
  }

  @Test
  void reportsEveryProblemAtOnce() {
    ConfigException e = assertThrows(ConfigException.class, () -> ConfLoader.parse(
        "actions: [allocate]\ntiers:\n- plugins:\n  - enableJobOrder: true\n  - name: gang\n    enableJobReady: maybe\n",
        "c"));
    assertEquals(3, e.problems().size(), e.getMessage());
  }

  @Test
  void malformedYamlIsAClearError() {
    ConfigException e = assertThrows(ConfigException.class, () -> ConfLoader.parse("actions: \"a\ntiers: [", "f"));
    assertEquals("f: line 2, column 9: not valid YAML: found unexpected end of stream (while scanning a quoted scalar"
        + " at line 1, column 10)", e.getMessage());
  }

  @Test
  void defaultConfIsVolcanosDefaultTiers() {
    SchedulerConf c = ConfLoader.defaultConf();
    assertEquals(List.of("enqueue", "allocate", "backfill"), c.actions());
    assertEquals(List.of("priority", "gang", "conformance"),
        c.tiers().get(0).plugins().stream().map(PluginOption::name).toList());
  }

  @Test
  void argumentsAcceptNumbersWrittenAsStringsAndCollectBadOnes() {
    Arguments a = new Arguments(java.util.Map.of("w", "10", "x", "abc"), "tiers[0].plugins[0] (binpack)");
    assertEquals(10, a.getInt("w", 1));
    assertEquals(1.5, a.getDouble("x", 1.5));
    assertEquals(List.of("tiers[0].plugins[0] (binpack): argument 'x' must be a number, got 'abc'"), a.problems());
  }
}
