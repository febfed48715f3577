package io.basalt.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basalt.api.ClusterSnapshot;
import io.basalt.api.NodeInfo;
import io.basalt.model.ResourceNames;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterCacheTest {
  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), "default");

  @Test
  void assignedPodsOfAnySchedulerCountAsUsedButOnlyOursAreScheduled() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/other").cpu("2").scheduler("default-scheduler").onNode("n1").build());
    cache.putPod(TestPods.pod("ns/theirs-pending").cpu("1").scheduler("default-scheduler").build());
    cache.putPod(TestPods.pod("ns/ours").cpu("1").build());
    ClusterSnapshot s = cache.snapshot();
    assertEquals(2000, s.nodes().get(0).used(ResourceNames.CPU));
    assertEquals(1, s.pods().size());
    assertEquals("ns/ours", s.pods().get(0).key());
  }

  @Test
  void terminatingPodsAreUsedAndReleasing() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/t").cpu("3").onNode("n1").terminating().build());
    NodeInfo n = cache.snapshot().nodes().get(0);
    assertEquals(3000, n.used(ResourceNames.CPU));
    assertEquals(8000, n.futureIdle(ResourceNames.CPU));
  }

  @Test
  void snapshotReusesUnchangedNodesAndRecopiesChangedOnes() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putNode(TestNodes.node("n2").cpu("8").build());
    ClusterSnapshot first = cache.snapshot();
    cache.putPod(TestPods.pod("ns/p").cpu("1").onNode("n2").build());
    ClusterSnapshot second = cache.snapshot();
    assertSame(first.nodes().get(0), second.nodes().get(0));
    assertNotSame(first.nodes().get(1), second.nodes().get(1));
    assertEquals(1000, second.nodes().get(1).used(ResourceNames.CPU));
  }

  @Test
  void podsArrivingBeforeTheirNodeAreCountedWhenItArrives() {
    cache.putPod(TestPods.pod("ns/p").cpu("1").onNode("late").build());
    cache.putNode(TestNodes.node("late").cpu("4").build());
    assertEquals(1000, cache.snapshot().nodes().get(0).used(ResourceNames.CPU));
  }

  @Test
  void movingAndDeletingPodsKeepsAccountingExact() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/p").cpu("2").build());
    cache.putPod(TestPods.pod("ns/p").cpu("2").onNode("n1").build());
    assertEquals(2000, cache.snapshot().nodes().get(0).used(ResourceNames.CPU));
    cache.removePod("ns-p-uid");
    assertEquals(0, cache.snapshot().nodes().get(0).used(ResourceNames.CPU));
  }

  @Test
  void aHoldKeepsItsAgeWhenRenewedAndExpiresAfterTheTtl() {
    long[] now = {0};
    cache.clock(() -> now[0]);
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/p").cpu("1").build());
    String p = "ns-p-uid";
    cache.nominate(p, "n1");
    assertEquals(java.util.Map.of(p, "n1"), cache.snapshot().nominations());
    now[0] = ClusterCache.NOMINATION_TTL.toNanos() - 1;
    cache.nominate(p, "n1");
    assertEquals(java.util.Map.of(p, "n1"), cache.snapshot().nominations(), "renewed, same age, not yet expired");
    now[0] = ClusterCache.NOMINATION_TTL.toNanos() + 1;
    cache.nominate(p, "n1");
    assertEquals(java.util.Map.of(), cache.snapshot().nominations(), "a hold renewed on the same node still ages");
    cache.nominate(p, "n1");
    assertEquals(java.util.Map.of(p, "n1"), cache.snapshot().nominations(), "a new hold after expiry starts anew");
    cache.nominate(p, null);
    assertEquals(java.util.Map.of(), cache.snapshot().nominations());
  }

  @Test
  void aHoldDoesNotAgeWhileItsNodeIsStillReleasingVictims() {
    long[] now = {0};
    cache.clock(() -> now[0]);
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/victim").cpu("4").onNode("n1").terminating().build());
    cache.putPod(TestPods.pod("ns/p").cpu("4").build());
    cache.nominate("ns-p-uid", "n1");
    now[0] = ClusterCache.NOMINATION_TTL.toNanos() * 3;
    assertEquals(java.util.Map.of("ns-p-uid", "n1"), cache.snapshot().nominations(), "the victim is still going");
    cache.removePod("ns-victim-uid");
    now[0] += ClusterCache.NOMINATION_TTL.toNanos() - 1;
    assertEquals(java.util.Map.of("ns-p-uid", "n1"), cache.snapshot().nominations(), "the clock restarted");
    now[0] += 2;
    assertEquals(java.util.Map.of(), cache.snapshot().nominations());
  }

  @Test
  void aBoundPodIsNotNominated() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/p").cpu("1").onNode("n1").build());
    cache.nominate("ns-p-uid", "n1");
    assertEquals(java.util.Map.of(), cache.snapshot().nominations());
  }
}
