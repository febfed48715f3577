package io.basalt.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.SchedulerConf;
import io.basalt.fabric.Fabric;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.NetworkTopology;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.scheduler.ConfValidator;
import io.basalt.scheduler.SchedulerProfile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The supernode bench on 2 switchboxes x 2 dragonflies x 8 nodes: with gpu-podaffinity every bound gang keeps each
 * group of 8 inside one dragonfly; the same seed without it straddles, so the comparison shows something.
 */
class SupernodeBenchTest {
  private static final long SEED = 1;

  private static SupernodeGenerator tiny(long seed) {
    return new SupernodeGenerator(2, 2, 8, seed, 95, 4);
  }

  private static SchedulerProfile profile(SchedulerConf conf) throws Exception {
    return ConfValidator.validate(conf, PluginRegistry.load(), ActionRegistry.builtin()).profileOrThrow("test: ");
  }

  @Test
  void topologyKeepsEveryGroupInOneDragonflyAndPlainDoesNot() throws Exception {
    SchedulerConf conf = ConfLoader.parse(BenchCommand.SUPERNODE_CONF, "supernode");
    SupernodeBench bench = new SupernodeBench(SupernodeBenchTest::tiny, 2000);
    SupernodeBench.Comparison c = bench.measure(profile(conf), profile(SupernodeBench.withoutTopology(conf)), SEED,
        0, 1);

    SupernodeStats with = c.topology().stats();
    assertTrue(with.gangsBound() >= 2, with.toString());
    assertEquals(with.gangsBound(), with.gangsInDragonflies(), with.toString());
    assertEquals(with.multiGroupGangsBound(), with.multiGroupGangsInOneSwitchbox(), with.toString());
    assertTrue(with.multiGroupGangsBound() >= 1, "the seed has a 16-pod gang bound: " + with);

    SupernodeStats without = c.plain().stats();
    assertTrue(without.gangsBound() >= 1, without.toString());
    assertTrue(without.gangsInDragonflies() < without.gangsBound(), "plain placement straddles: " + without);
  }

  @Test
  void clusterFabricAndWorkloadHaveTheDocumentedShape() {
    SupernodeGenerator g = tiny(SEED);
    Workload w = g.generate();
    Fabric fabric = g.fabric();
    assertEquals(32, w.nodes().size());
    assertEquals("sb2-df1-n3", w.nodes().get(18).name());
    assertEquals(List.of("sb1-df1", "sb1-df2", "sb2-df1", "sb2-df2"), fabric.domains(1));
    assertEquals(List.of("sb1", "sb2"), fabric.domains(2));
    assertEquals("sb2-df1", fabric.domainOf("sb2-df1-n3", 1));
    assertEquals("sb2", fabric.domainOf("sb2-df1-n3", 2));
    assertEquals(8, w.nodes().get(0).allocatable().get(SupernodeGenerator.GPU));
    assertEquals(SupernodeGenerator.GPU, w.gpuResource());
    for (PodGroup pg : w.podGroups()) {
      assertTrue(pg.minMember() == 8 || pg.minMember() == 16, pg.name());
    }
    for (Pod p : w.pods()) {
      long gpus = p.request().get(SupernodeGenerator.GPU);
      assertTrue(gpus == 1 || gpus == 8, p.key());
      assertEquals(p.groupName() != null ? "64" : null,
          p.annotations().get(NetworkTopology.GPU_GROUP_SIZE_ANNOTATION), p.key());
    }
  }

  @Test
  void thePlainConfigIsTheSameWithoutTheTopologyPlugin() throws Exception {
    SchedulerConf conf = ConfLoader.parse(BenchCommand.SUPERNODE_CONF, "supernode");
    assertTrue(SupernodeBench.hasTopology(conf));
    SchedulerConf plain = SupernodeBench.withoutTopology(conf);
    assertFalse(SupernodeBench.hasTopology(plain));
    assertEquals(conf.allPlugins().size() - 1, plain.allPlugins().size());
    assertEquals(ConfLoader.parse(BenchCommand.DEFAULT_CONF, "default").allPlugins().stream()
        .map(p -> p.name()).toList(), plain.allPlugins().stream().map(p -> p.name()).toList());
  }

  @Test
  void commandPrintsBothSidesAsJson() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new BenchCommand());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int exit = cmd.execute("--supernodes", "--switchboxes", "2", "--dragonflies", "2", "--dragonfly-nodes", "8",
        "--warmup", "0", "--seed", Long.toString(SEED), "--output", "json");
    assertEquals(0, exit, err.toString());
    JsonObject o = JsonParser.parseString(out.toString()).getAsJsonObject();
    assertEquals(32, o.get("nodes").getAsInt());
    assertTrue(o.has("decisionsPerSecondRatio"), out.toString());
    assertTrue(o.get("decisionsPerCpuSecondRatio").getAsDouble() > 0, out.toString());
    for (String side : List.of("topology", "plain")) {
      JsonObject s = o.getAsJsonObject(side);
      assertTrue(s.getAsJsonArray("podsPerCpuSecondRounds").get(0).getAsDouble() > 0, out.toString());
      for (String f : List.of("podsPerSecond", "gangsBound", "gangsInDragonflies", "gangsInDragonfliesPercent",
          "multiGroupGangsInOneSwitchbox", "freeDragonflies", "dragonflies")) {
        assertTrue(s.has(f), side + " lacks " + f + ": " + out);
      }
    }
    assertEquals(100.0, o.getAsJsonObject("topology").get("gangsInDragonfliesPercent").getAsDouble(), out.toString());
  }
}
