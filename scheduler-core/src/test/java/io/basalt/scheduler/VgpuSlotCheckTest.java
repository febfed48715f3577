package io.basalt.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.cache.ClusterCache;
import io.basalt.config.SchedulerConf;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.model.Node;
import io.basalt.model.Queue;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class VgpuSlotCheckTest {
  private static final SchedulerConf WITHOUT = TestSessions.parse("""
      actions: "allocate"
      tiers:
      - plugins:
        - name: predicates
        - name: gpu-aware
      """);
  private static final SchedulerConf WITH = TestSessions.parse("""
      actions: "allocate"
      tiers:
      - plugins:
        - name: predicates
        - name: deviceshare
      """);

  private static List<Node> hamiNodes(int count) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      nodes.add(TestNodes.node("gpu-" + i).cpu("64").hamiGpus(2).build());
    }
    return nodes;
  }

  @Test
  void slotNodesWithoutDeviceshareAreNamedWithTheFix() {
    Optional<String> w = VgpuSlotCheck.warning(WITHOUT, hamiNodes(5));
    assertTrue(w.isPresent());
    assertTrue(w.get().startsWith("5 node(s) offer vGPU slots"), w.get());
    assertTrue(w.get().contains("gpu-0, gpu-1, gpu-2 and 2 more"), w.get());
    assertTrue(w.get().contains("Add deviceshare to the tiers, see config/gpu-cluster.conf"), w.get());
  }

  @Test
  void deviceshareInTheTiersOrNoSlotNodesMeansNoWarning() {
    assertEquals(Optional.empty(), VgpuSlotCheck.warning(WITH, hamiNodes(2)));
    // One GPU per device listed, a node without an inventory, and a node without GPUs: no slots anywhere.
    List<Node> plain = List.of(TestNodes.node("whole").gpu(2).annotation(GpuAnnotations.TOPOLOGY,
            "{\"devices\":[{\"index\":0},{\"index\":1}],\"links\":[[\"X\",\"PHB\"],[\"PHB\",\"X\"]]}").build(),
        TestNodes.node("uniform").gpu(8).build(), TestNodes.node("cpu").cpu("8").build());
    assertEquals(Optional.empty(), VgpuSlotCheck.warning(WITHOUT, plain));
  }

  @Test
  void aMalformedInventoryIsNotCountedNorThrown() {
    Node bad = TestNodes.node("bad").gpu(20).annotation(GpuAnnotations.TOPOLOGY, "{not json").build();
    assertEquals(Optional.empty(), VgpuSlotCheck.warning(WITHOUT, List.of(bad)));
  }

  /** A logger that keeps what it is given. */
  private static System.Logger recorder(List<String> into) {
    return new System.Logger() {
      @Override
      public String getName() {
        return "test";
      }

      @Override
      public boolean isLoggable(Level level) {
        return true;
      }

      @Override
      public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        into.add(msg);
      }

      @Override
      public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        into.add(format);
      }
    };
  }

  @Test
  void runLogsOncePerConfigWhenNodesAppearAndAgainAfterAReload() {
    ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), Queue.DEFAULT);
    List<String> logged = new ArrayList<>();
    SchedulerConf[] current = {WITHOUT};
    Supplier<SchedulerConf> profiles =
        VgpuSlotCheck.watching(() -> current[0], Function.identity(), cache, recorder(logged));
    profiles.get();
    assertEquals(List.of(), logged, "no nodes yet");
    hamiNodes(2).forEach(cache::putNode);
    profiles.get();
    profiles.get();
    cache.putNode(TestNodes.node("gpu-9").hamiGpus(1).build());
    profiles.get();
    assertEquals(1, logged.size(), () -> "once: " + logged);
    current[0] = WITH;
    profiles.get();
    current[0] = TestSessions.parse("actions: \"allocate\"\ntiers:\n- plugins:\n  - name: predicates\n");
    profiles.get();
    assertEquals(2, logged.size(), () -> "again after a reload without deviceshare: " + logged);
    assertTrue(logged.get(1).startsWith("3 node(s)"), logged.get(1));
  }
}
