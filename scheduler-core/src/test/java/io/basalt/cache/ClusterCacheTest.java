package io.basalt.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.ClusterSnapshot;
import io.basalt.api.NodeInfo;
import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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
  void snapshotListsEverySchedulersAssignedPodsPerNodeButNotFinishedOnes() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putNode(TestNodes.node("n2").cpu("8").build());
    cache.putPod(TestPods.pod("ns/theirs").cpu("1").scheduler("default-scheduler").onNode("n1").build());
    cache.putPod(TestPods.pod("ns/ours").cpu("1").onNode("n1").build());
    cache.putPod(TestPods.pod("ns/done").cpu("1").onNode("n1").phase("Succeeded").build());
    cache.putPod(TestPods.pod("ns/pending").cpu("1").build());
    ClusterSnapshot first = cache.snapshot();
    assertEquals(List.of("ns/theirs", "ns/ours"), first.podsOn("n1").stream().map(Pod::key).toList());
    assertEquals(List.of(), first.podsOn("n2"));
    assertSame(first.assignedPods(), cache.snapshot().assignedPods(), "unchanged pods share one view");

    cache.putPod(TestPods.pod("ns/pending").cpu("1").onNode("n2").build());
    cache.removePod(TestPods.pod("ns/theirs").cpu("1").build().uid());
    ClusterSnapshot second = cache.snapshot();
    assertEquals(List.of("ns/ours"), second.podsOn("n1").stream().map(Pod::key).toList());
    assertEquals(List.of("ns/pending"), second.podsOn("n2").stream().map(Pod::key).toList());
    assertEquals(List.of("ns/theirs", "ns/ours"), first.podsOn("n1").stream().map(Pod::key).toList(),
        "an earlier snapshot keeps what it saw");
  }

  @Test
  void snapshotKeepsPodsWithAffinityApartAndSharesUnchangedNodesLists() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putNode(TestNodes.node("n2").cpu("8").build());
    io.basalt.model.PodAffinityTerm term = new io.basalt.model.PodAffinityTerm(
        io.basalt.model.LabelSelector.EVERYTHING, null, null, "kubernetes.io/hostname", null, null);
    io.basalt.model.PodConstraints anti = new io.basalt.model.PodConstraints(List.of(), List.of(), List.of(),
        List.of(), List.of(), List.of(term), List.of(), List.of(), List.of());
    Pod lonely = TestPods.pod("ns/lonely").cpu("1").onNode("n1").build().withConstraints(anti);
    cache.putPod(lonely);
    cache.putPod(TestPods.pod("ns/plain").cpu("1").onNode("n2").build());
    ClusterSnapshot first = cache.snapshot();
    assertEquals(List.of("ns/lonely"), first.assignedPods().withAffinity().stream().map(Pod::key).toList());

    cache.putPod(TestPods.pod("ns/more").cpu("1").onNode("n2").build());
    ClusterSnapshot second = cache.snapshot();
    assertSame(first.podsOn("n1"), second.podsOn("n1"), "a node whose pods did not change keeps its list");
    assertEquals(List.of("ns/plain", "ns/more"), second.podsOn("n2").stream().map(Pod::key).toList());

    cache.removePod(lonely.uid());
    assertEquals(List.of(), cache.snapshot().assignedPods().withAffinity());
    assertEquals(List.of("ns/lonely"), second.assignedPods().withAffinity().stream().map(Pod::key).toList(),
        "an earlier snapshot keeps what it saw");
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
  void aCopyASessionChangedIsKeptOnceTheClusterHoldsWhatTheSessionPlaced() {
    cache.putNode(TestNodes.node("n1").cpu("8").gpu(4).build());
    NodeInfo copy = cache.snapshot().nodes().get(0);
    Pod pod = TestPods.pod("ns/p").cpu("1").gpu(1).onNode("n1").annotation(GPU, "2").build();
    // What a session does when it places the pod: its resources and its device.
    copy.adjustUsed(pod.request(), 1);
    copy.claimDevices(io.basalt.gpu.DeviceClaim.whole(io.basalt.gpu.DeviceSet.of(2)), 1);
    long serial = copy.serial();
    int version = copy.version();
    assertTrue(copy.touched());
    cache.putPod(pod); // the bind, as the informer reports it
    NodeInfo next = cache.snapshot().nodes().get(0);
    assertSame(copy, next, "the cluster holds what the session placed: the copy, and what was found on it, stay");
    assertEquals(serial, next.serial());
    assertEquals(version, next.version());
    assertFalse(next.touched());
    assertEquals(1000, next.used(ResourceNames.CPU));
    assertEquals("0,1,3", next.freeDevices().format());
    assertSame(next, cache.snapshot().nodes().get(0), "and then unchanged");
  }

  @Test
  void aCopyASessionChangedIsMadeAnewWhereTheClusterDiffers() {
    cache.putNode(TestNodes.node("n1").cpu("8").gpu(4).build());
    Pod pod = TestPods.pod("ns/p").cpu("1").gpu(1).onNode("n1").annotation(GPU, "2").build();
    // Another device than the session chose.
    NodeInfo copy = cache.snapshot().nodes().get(0);
    copy.adjustUsed(pod.request(), 1);
    copy.claimDevices(io.basalt.gpu.DeviceClaim.whole(io.basalt.gpu.DeviceSet.of(1)), 1);
    cache.putPod(pod);
    NodeInfo next = cache.snapshot().nodes().get(0);
    assertNotSame(copy, next);
    assertEquals("0,1,3", next.freeDevices().format());
    // More used than the session placed.
    next.adjustUsed(pod.request(), 1);
    cache.putPod(TestPods.pod("ns/q").cpu("1").onNode("n1").build());
    cache.putPod(TestPods.pod("ns/p").cpu("1").gpu(1).onNode("n1").annotation(GPU, "2").build());
    NodeInfo third = cache.snapshot().nodes().get(0);
    assertNotSame(next, third);
    assertEquals(2000, third.used(ResourceNames.CPU));
    // Something pipelined: the cluster knows nothing of it.
    third.adjustPipelined(pod.request(), 1);
    cache.putPod(TestPods.pod("ns/r").cpu("0").onNode("n1").build());
    third.adjustUsed(TestPods.pod("ns/r").cpu("0").build().request(), 1);
    NodeInfo fourth = cache.snapshot().nodes().get(0);
    assertNotSame(third, fourth);
    assertEquals(0, fourth.pipelined(ResourceNames.CPU));
    // A node object that changed (a label): a new copy even with the same accounting.
    cache.putNode(TestNodes.node("n1").cpu("8").gpu(4).label("zone", "b").build());
    assertNotSame(fourth, cache.snapshot().nodes().get(0));
  }

  @Test
  void snapshotsShareThePodListUntilOneOfOurPodsChanges() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/a").cpu("1").build());
    List<Pod> first = cache.snapshot().pods();
    assertSame(first, cache.snapshot().pods(), "nothing changed: the same list");
    cache.putPod(TestPods.pod("ns/other").cpu("1").scheduler("default-scheduler").build());
    assertSame(first, cache.snapshot().pods(), "another scheduler's pod is not in the list");
    cache.putPod(TestPods.pod("ns/b").cpu("1").build());
    List<Pod> added = cache.snapshot().pods();
    assertEquals(List.of("ns/a", "ns/b"), added.stream().map(Pod::key).toList());
    Pod a = added.get(0);
    cache.assume(a.uid(), "n1", Map.of());
    List<Pod> assumed = cache.snapshot().pods();
    assertEquals("n1", assumed.get(0).nodeName(), "an assumed binding shows in the next snapshot");
    cache.forget(a.uid(), false);
    assertNull(cache.snapshot().pods().get(0).nodeName(), "a forgotten binding too");
    cache.removePod(added.get(1).uid());
    assertEquals(List.of("ns/a"), cache.snapshot().pods().stream().map(Pod::key).toList());
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
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/p").cpu("1").build());
    String p = "ns-p-uid";
    cache.nominate(p, "n1");
    assertEquals(java.util.Map.of(p, "n1"), cache.snapshot().nominations());
    snapshots(ClusterCache.NOMINATION_TTL_CYCLES - 2);
    cache.nominate(p, "n1");
    assertEquals(java.util.Map.of(p, "n1"), cache.snapshot().nominations(), "renewed, same age, not yet expired");
    cache.nominate(p, "n1");
    assertEquals(java.util.Map.of(), cache.snapshot().nominations(), "a hold renewed on the same node still ages");
    cache.nominate(p, "n1");
    assertEquals(java.util.Map.of(p, "n1"), cache.snapshot().nominations(), "a new hold after expiry starts anew");
    cache.nominate(p, null);
    assertEquals(java.util.Map.of(), cache.snapshot().nominations());
  }

  @Test
  void aHoldDoesNotAgeWhileItsNodeIsStillReleasingVictims() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/victim").cpu("4").onNode("n1").terminating().build());
    cache.putPod(TestPods.pod("ns/p").cpu("4").build());
    cache.nominate("ns-p-uid", "n1");
    snapshots(ClusterCache.NOMINATION_TTL_CYCLES * 3);
    assertEquals(java.util.Map.of("ns-p-uid", "n1"), cache.snapshot().nominations(), "the victim is still going");
    cache.removePod("ns-victim-uid");
    snapshots(ClusterCache.NOMINATION_TTL_CYCLES - 1);
    assertEquals(java.util.Map.of("ns-p-uid", "n1"), cache.snapshot().nominations(), "the count restarted");
    assertEquals(java.util.Map.of(), cache.snapshot().nominations());
  }

  private void snapshots(int n) {
    for (int i = 0; i < n; i++) {
      cache.snapshot();
    }
  }

  @Test
  void aBoundPodIsNotNominated() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/p").cpu("1").onNode("n1").build());
    cache.nominate("ns-p-uid", "n1");
    assertEquals(java.util.Map.of(), cache.snapshot().nominations());
  }

  // ---- assume / forget / observe ----------------------------------------------------------------------------------

  private static final String GPU = "basalt.io/gpu-devices";
  private static final String P = "ns-p-uid";

  private Pod pendingOnEightCpus() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putNode(TestNodes.node("n2").cpu("8").build());
    Pod pending = TestPods.pod("ns/p").cpu("2").annotation("team", "a").build();
    cache.putPod(pending);
    return pending;
  }

  private long usedCpu(String node) {
    return cache.snapshot().nodes().stream().filter(n -> n.name().equals(node)).findFirst().orElseThrow()
        .used(ResourceNames.CPU);
  }

  @Test
  void assumePlacesThePodWithItsAnnotationsAndTakesTheRoom() {
    Pod pending = pendingOnEightCpus();
    assertSame(pending, cache.assume(P, "n1", Map.of(GPU, "0")), "returns the pod as it was pending");
    Pod placed = cache.pod(P);
    assertEquals("n1", placed.nodeName());
    assertEquals(Map.of("team", "a", GPU, "0"), placed.annotations());
    assertEquals(2000, usedCpu("n1"));
    assertTrue(cache.bindInFlight(P));
    assertEquals(List.of(), cache.snapshot().pods().stream().filter(p -> !p.isAssigned()).toList(),
        "not offered to the next cycle again");
  }

  @Test
  void assumeAcceptedIsAssumeThenFinishBinding() {
    Pod pending = pendingOnEightCpus();
    assertSame(pending, cache.assumeAccepted(P, "n1", Map.of(GPU, "0")));
    Pod placed = cache.pod(P);
    assertEquals("n1", placed.nodeName());
    assertEquals(Map.of("team", "a", GPU, "0"), placed.annotations());
    assertEquals(2000, usedCpu("n1"));
    assertFalse(cache.bindInFlight(P), "accepted: no bind in flight");
    // Accepted: an informer report of the pod still unbound is older than the bind and is ignored, as after
    // assume and finishBinding.
    cache.observe(pending);
    assertEquals("n1", cache.pod(P).nodeName());
    assertEquals(2000, usedCpu("n1"));
    assertNull(cache.assumeAccepted("nobody", "n1", Map.of()));
    assertEquals("n1", cache.assumeAccepted(P, "n2", Map.of()).nodeName(), "returns where it already is");
    assertEquals(0, usedCpu("n2"));
  }

  @Test
  void assumeLeavesUnknownAndAlreadyPlacedPodsAlone() {
    pendingOnEightCpus();
    assertNull(cache.assume("nobody", "n1", Map.of()));
    cache.putPod(cache.pod(P).withNodeName("n2"));
    assertEquals("n2", cache.assume(P, "n1", Map.of()).nodeName(), "returns where it already is");
    assertEquals(0, usedCpu("n1"));
    assertFalse(cache.bindInFlight(P));
  }

  @Test
  void forgetRestoresTheNodesFreeResourcesAndThePendingPod() {
    Pod pending = pendingOnEightCpus();
    cache.assume(P, "n1", Map.of(GPU, "0"));
    cache.forget(P, false);
    assertEquals(0, usedCpu("n1"));
    assertEquals(pending, cache.pod(P));
    assertEquals(Map.of(), cache.snapshot().nominations());
    assertFalse(cache.bindInFlight(P));
  }

  @Test
  void forgetWithAHoldNominatesTheAssumedNode() {
    pendingOnEightCpus();
    cache.assume(P, "n2", Map.of());
    cache.forget(P, true);
    assertNull(cache.pod(P).nodeName());
    assertEquals(0, usedCpu("n2"));
    assertEquals(Map.of(P, "n2"), cache.snapshot().nominations(), "the room stays held for the pod");
  }

  @Test
  void forgetLeavesTheInformersFresherWordAndHoldsNothing() {
    Pod pending = pendingOnEightCpus();
    cache.assume(P, "n1", Map.of());
    cache.observe(pending.withNodeName("n2")); // another scheduler won the pod
    cache.forget(P, true);
    assertEquals("n2", cache.pod(P).nodeName());
    assertEquals(0, usedCpu("n1"));
    assertEquals(2000, usedCpu("n2"));
    assertEquals(Map.of(), cache.snapshot().nominations(), "a bound pod is never nominated");
  }

  @Test
  void anObserveOfTheStillUnboundPodDuringTheBindKeepsTheAssumption() {
    Pod pending = pendingOnEightCpus();
    cache.assume(P, "n1", Map.of(GPU, "0,1"));
    Pod echo = pending.withAnnotations(Map.of("team", "b", "status", "written"));
    cache.observe(echo);
    Pod now = cache.pod(P);
    assertEquals("n1", now.nodeName(), "the room being bound into does not look free");
    assertEquals("0,1", now.annotations().get(GPU), "nor do the chosen GPUs");
    assertEquals("written", now.annotations().get("status"), "the update itself is taken");
    assertEquals(2000, usedCpu("n1"));
  }

  @Test
  void aBindFailingAfterAnUnboundReportPutsThatReportBackPending() {
    Pod pending = pendingOnEightCpus();
    cache.assume(P, "n1", Map.of(GPU, "0"));
    Pod echo = pending.withAnnotations(Map.of("team", "a", "status", "written"));
    cache.observe(echo); // the status write's echo, while the bind is in flight
    cache.forget(P, true);
    assertEquals(echo, cache.pod(P), "pending again as last reported, not left on n1 with nobody to free it");
    assertEquals(0, usedCpu("n1"));
    assertEquals(Map.of(P, "n1"), cache.snapshot().nominations());
  }

  @Test
  void afterTheApiAcceptedTheBindOnlyTheInformerReportingItBoundEndsTheAssumption() {
    Pod pending = pendingOnEightCpus();
    cache.assume(P, "n1", Map.of(GPU, "0,1"));
    cache.finishBinding(P);
    assertFalse(cache.bindInFlight(P));
    // The informer lags: an update from before the bind (or a re-list read before it) still shows the pod unbound.
    // Taking it would free n1's room for the next cycle while the pod runs there.
    cache.observe(pending.withAnnotations(Map.of("team", "a", "status", "written")));
    assertEquals("n1", cache.pod(P).nodeName(), "a pod's node never changes once set: the report is stale");
    assertEquals("0,1", cache.pod(P).annotations().get(GPU));
    assertEquals("written", cache.pod(P).annotations().get("status"), "the update itself is taken");
    assertEquals(2000, usedCpu("n1"));
    assertEquals(List.of(), cache.snapshot().pods().stream().filter(p -> !p.isAssigned()).toList(),
        "not offered to the next cycle again");
    Pod bound = pending.withAnnotations(Map.of("team", "a", GPU, "0,1")).withNodeName("n1");
    cache.observe(bound);
    assertEquals(bound, cache.pod(P), "the informer caught up; its word stands from now on");
    cache.observe(pending);
    assertNull(cache.pod(P).nodeName(), "no assumption left to keep");
    assertEquals(0, usedCpu("n1"));
  }

  @Test
  void anAcceptedBindEndsWithThePodsDeletion() {
    Pod pending = pendingOnEightCpus();
    cache.assume(P, "n1", Map.of());
    cache.finishBinding(P);
    cache.removePod(P);
    assertEquals(0, usedCpu("n1"));
    cache.putPod(pending);
    cache.observe(pending);
    assertNull(cache.pod(P).nodeName(), "nothing of the old bind is kept for a pod put back later");
  }

  @Test
  void assumeThenObserveBoundIsIdempotent() {
    Pod pending = pendingOnEightCpus();
    cache.assume(P, "n1", Map.of(GPU, "0"));
    Pod assumed = cache.pod(P);
    cache.observe(assumed);
    cache.finishBinding(P);
    cache.observe(pending.withAnnotations(Map.of("team", "a", GPU, "0")).withNodeName("n1"));
    assertEquals(assumed, cache.pod(P));
    assertEquals(2000, usedCpu("n1"), "counted once");
    assertEquals(1, cache.pods().size());
    assertEquals(List.of(), cache.snapshot().pods().stream().filter(p -> !p.isAssigned()).toList());
  }

  @Test
  void removingThePodEndsItsBind() {
    pendingOnEightCpus();
    cache.assume(P, "n1", Map.of());
    cache.removePod(P);
    assertFalse(cache.bindInFlight(P));
    cache.forget(P, true);
    assertNull(cache.pod(P));
    assertEquals(Map.of(), cache.snapshot().nominations());
  }

  @Test
  void aSnapshotNeverSeesTheForgottenRoomFreeWithoutItsHold() throws Exception {
    cache.nominationTtl(Integer.MAX_VALUE); // the reader takes snapshots as fast as it can: no hold may age out
    pendingOnEightCpus();
    cache.assume(P, "n1", Map.of());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> seen = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      while (!stop.get() && seen.get() == null) {
        ClusterSnapshot s = cache.snapshot();
        boolean pending = s.pods().stream().anyMatch(p -> !p.isAssigned());
        if (pending && !s.nominations().containsKey(P)) {
          seen.set("pending without its hold");
        }
      }
    });
    reader.start();
    try {
      for (int i = 0; i < 20_000 && seen.get() == null; i++) {
        cache.forget(P, true);
        cache.assume(P, "n1", Map.of());
      }
    } finally {
      stop.set(true);
      reader.join();
    }
    assertNull(seen.get());
  }

  @Test
  void aRefusedEvictionPutsTheVictimBackRunningUnlessTheInformerSpoke() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    Pod victim = TestPods.pod("ns/v").cpu("4").onNode("n1").build();
    cache.putPod(victim);
    Pod marked = cache.assumeTerminating(victim.uid());
    assertTrue(cache.pod(victim.uid()).terminating());
    assertEquals(4000, cache.snapshot().nodes().get(0).releasing(ResourceNames.CPU));
    assertNull(cache.assumeTerminating(victim.uid()), "already terminating");
    cache.forgetTerminating(marked);
    assertEquals(victim, cache.pod(victim.uid()));
    assertEquals(0, cache.snapshot().nodes().get(0).releasing(ResourceNames.CPU));

    Pod again = cache.assumeTerminating(victim.uid());
    Pod reported = victim.withTerminating(true).withAnnotations(Map.of("deleted-by", "kubelet"));
    cache.observe(reported);
    cache.forgetTerminating(again);
    assertSame(reported, cache.pod(victim.uid()), "the informer's word wins");
  }
}
