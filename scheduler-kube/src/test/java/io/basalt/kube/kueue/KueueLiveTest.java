package io.basalt.kube.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.model.Queue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Live admission over the records the informers hand over: order, quota, in-flight Jobs, StrictFIFO, no queue. */
class KueueLiveTest {
  private static final KueueRecord.Flavor A100 = new KueueRecord.Flavor("a100", Map.of("gpu", "a100"), List.of(),
      List.of(), List.of());

  private static KueueRecord.ClusterQueue cq(String name, long gpus, boolean strict) {
    return new KueueRecord.ClusterQueue(name, null, List.of(new KueueRecord.ResourceGroup(List.of("nvidia.com/gpu"),
        List.of(new KueueRecord.FlavorQuotas("a100", List.of(new KueueRecord.Quota("nvidia.com/gpu", gpus, null,
            null)))))), strict, false, 1, false, Map.of(), List.of());
  }

  private static KueueJob job(String name, String lq, boolean suspended, int pods, long gpusEach, int minute) {
    return new KueueJob("ml", name, name + "-uid", lq, suspended, false, pods, Map.of("nvidia.com/gpu", gpusEach),
        Map.of(), List.of(), null, null, Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * minute));
  }

  private static KueueLive live(boolean strict) {
    KueueLive live = new KueueLive();
    live.put(A100);
    live.put(cq("gpu", 16, strict));
    live.put(new KueueRecord.LocalQueue("ml", "team", "gpu", false, List.of()));
    return live;
  }

  private static List<String> started(KueueLive.Plan p) {
    return p.unsuspend().stream().map(KueueLive.Unsuspend::name).toList();
  }

  @Test
  void theOldestJobsThatFitAreStartedOnTheFlavorsNodesAndRunningOnesAreCharged() {
    KueueLive live = live(false);
    live.putJob("ml/running", job("running", "team", false, 1, 8, 0));
    live.putJob("ml/big", job("big", "team", true, 2, 8, 1)); // 16 > the 8 left
    live.putJob("ml/small", job("small", "team", true, 1, 8, 2));
    live.putJob("ml/later", job("later", "team", true, 1, 1, 3)); // nothing left after small
    KueueLive.Plan p = live.plan(q -> false);
    assertEquals(List.of("small"), started(p), "BestEffortFIFO: big does not fit, small behind it does");
    KueueLive.Unsuspend u = p.unsuspend().get(0);
    assertEquals(Map.of("gpu", "a100"), u.nodeSelector());
    assertEquals("gpu", u.clusterQueue());
    assertEquals(List.of("gpu"), p.queues().stream().map(Queue::name).toList());
    assertTrue(p.warnings().stream().anyMatch(w -> w.contains("Job ml/big stays suspended")), p.warnings().toString());
  }

  @Test
  void aJobStartedButNotYetSeenUnsuspendedStillHoldsItsQuota() {
    KueueLive live = live(false);
    live.putJob("ml/a", job("a", "team", true, 2, 8, 0));
    live.putJob("ml/b", job("b", "team", true, 2, 8, 1));
    assertEquals(List.of("a"), started(live.plan(q -> false)));
    assertEquals(List.of(), started(live.plan(q -> false)), "a is in flight: b must not be admitted on top of it");
    live.putJob("ml/a", job("a", "team", false, 2, 8, 0));
    assertEquals(List.of(), started(live.plan(q -> false)), "a runs now, charged as running");
    live.removeJob("ml/a");
    assertEquals(List.of("b"), started(live.plan(q -> false)), "a is gone: its quota is free");
  }

  @Test
  void aFailedStartIsRetried() {
    KueueLive live = live(false);
    live.putJob("ml/a", job("a", "team", true, 1, 8, 0));
    KueueLive.Plan first = live.plan(q -> false);
    live.failed(first.unsuspend().get(0));
    assertEquals(List.of("a"), started(live.plan(q -> false)));
  }

  @Test
  void strictFifoHeadThatDoesNotFitBlocksItsQueue() {
    KueueLive live = live(true);
    live.putJob("ml/big", job("big", "team", true, 3, 8, 0));
    live.putJob("ml/small", job("small", "team", true, 1, 8, 1));
    assertEquals(List.of(), started(live.plan(q -> false)));
  }

  @Test
  void jobsWhoseLocalQueueMapsToNoClusterQueueAreNeverStarted() {
    KueueLive live = live(false);
    live.putJob("ml/lost", job("lost", "nowhere", true, 1, 1, 0));
    live.put(new KueueRecord.LocalQueue("ml", "dangling", "no-such-cq", false, List.of()));
    live.putJob("ml/dangling", job("dangling", "dangling", true, 1, 1, 1));
    assertEquals(List.of(), started(live.plan(q -> false)));
    live.remove("ClusterQueue", "gpu");
    live.putJob("ml/orphan", job("orphan", "team", true, 1, 1, 2));
    assertEquals(List.of(), started(live.plan(q -> false)), "the ClusterQueue was deleted");
  }

  @Test
  void aClusterQueueNamedAsAVolcanoQueueIsNotMadeTwice() {
    KueueLive.Plan p = live(false).plan(q -> q.equals("gpu"));
    assertEquals(List.of(), p.queues());
    assertTrue(p.warnings().stream().anyMatch(w -> w.contains("already exists")), p.warnings().toString());
  }

  @Test
  void aClusterQueueWithAdmissionChecksAdmitsNothingLive() {
    KueueLive live = live(false);
    live.put(new KueueRecord.ClusterQueue("gpu", null, cq("gpu", 16, false).resourceGroups(), false, false, 1, false,
        Map.of(), List.of("spec.admissionChecks")));
    live.putJob("ml/a", job("a", "team", true, 1, 8, 0));
    KueueLive.Plan p = live.plan(q -> false);
    assertEquals(List.of(), started(p), "Kueue would wait for the check (a ProvisioningRequest): so does Basalt");
    assertTrue(p.warnings().stream().anyMatch(w -> w.contains("admission checks")), p.warnings().toString());
  }
}
