package io.basalt.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.ClusterSnapshot;
import io.basalt.api.ClusterTotals;
import io.basalt.model.ResourceNames;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The totals the cache keeps as nodes and pods change must equal the sums over the snapshot's nodes. */
class ClusterTotalsTest {
  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), "default");

  private ClusterSnapshot checked() {
    ClusterSnapshot s = cache.snapshot();
    int slots = ResourceNames.count();
    ClusterTotals summed = ClusterTotals.of(s.nodes(), slots);
    assertEquals(Arrays.toString(summed.allocatable(slots)), Arrays.toString(s.totals().allocatable(slots)));
    assertEquals(Arrays.toString(summed.used(slots)), Arrays.toString(s.totals().used(slots)));
    return s;
  }

  @Test
  void followNodesAddedUpdatedAndRemoved() {
    cache.putNode(TestNodes.node("n1").cpu("8").memory("16Gi").build());
    cache.putNode(TestNodes.node("n2").cpu("4").gpu(8).build());
    assertEquals(12000, checked().totals().allocatable()[ResourceNames.CPU]);
    cache.putNode(TestNodes.node("n2").cpu("6").gpu(4).build());
    assertEquals(14000, checked().totals().allocatable()[ResourceNames.CPU]);
    cache.removeNode("n1");
    assertEquals(6000, checked().totals().allocatable()[ResourceNames.CPU]);
    cache.removeNode("n1");
    checked();
  }

  @Test
  void followPodsOnlyOnNodesThatArePresent() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/a").cpu("2").onNode("n1").build());
    cache.putPod(TestPods.pod("ns/b").cpu("1").onNode("n2").build());
    cache.putPod(TestPods.pod("ns/pending").cpu("5").build());
    assertEquals(2000, checked().totals().used()[ResourceNames.CPU]);
    cache.putNode(TestNodes.node("n2").cpu("4").build());
    assertEquals(3000, checked().totals().used()[ResourceNames.CPU]);
    cache.putPod(TestPods.pod("ns/a").cpu("3").onNode("n1").terminating().build());
    assertEquals(4000, checked().totals().used()[ResourceNames.CPU]);
    cache.removeNode("n2");
    assertEquals(3000, checked().totals().used()[ResourceNames.CPU]);
    cache.removePod(cache.pods().stream().filter(p -> p.key().equals("ns/a"))
        .findFirst().orElseThrow().uid());
    assertEquals(0, checked().totals().used()[ResourceNames.CPU]);
    cache.putNode(TestNodes.node("n2").cpu("4").build());
    assertEquals(1000, checked().totals().used()[ResourceNames.CPU]);
  }

  @Test
  void followAssumedAndForgottenBinds() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/p").cpu("2").build());
    String uid = cache.pods().get(0).uid();
    cache.assume(uid, "n1", java.util.Map.of());
    assertEquals(2000, checked().totals().used()[ResourceNames.CPU]);
    cache.forget(uid, false);
    assertEquals(0, checked().totals().used()[ResourceNames.CPU]);
  }
}
