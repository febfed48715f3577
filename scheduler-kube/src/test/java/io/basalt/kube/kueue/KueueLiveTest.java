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

  private static KueueRecord.ClusterQueue checked(String check) {
    KueueRecord.ClusterQueue plain = cq("gpu", 16, false);
    return new KueueRecord.ClusterQueue("gpu", null, plain.resourceGroups(), false, false, 1, false, Map.of(),
        List.of(), List.of(check));
  }

  private static final KueueRecord.AdmissionCheck PROV = new KueueRecord.AdmissionCheck("prov",
      KueueRecord.AdmissionCheck.PROVISIONING_CONTROLLER, "cfg", List.of());

  private static KueueRecord.ProvisioningConfig config(int retries) {
    return new KueueRecord.ProvisioningConfig("cfg", "queued-provisioning.gke.io", Map.of("a", "b"),
        List.of("nvidia.com/gpu"), retries, 10, 1800, List.of());
  }

  private static KueueRecord.ProvisioningRequest request(String name, io.basalt.kube.provisioning.ProvisioningState s) {
    return new KueueRecord.ProvisioningRequest("ml", name, "queued-provisioning.gke.io", s, "why", List.of());
  }

  @Test
  void aClusterQueueWithAnUnknownAdmissionCheckAdmitsNothing() {
    KueueLive live = live(false);
    live.put(checked("other"));
    live.put(new KueueRecord.AdmissionCheck("other", "example.com/check", null, List.of()));
    live.putJob("ml/a", job("a", "team", true, 1, 8, 0));
    KueueLive.Plan p = live.plan(q -> false);
    assertEquals(List.of(), started(p), "Kueue would wait for the check: so does Basalt");
    assertTrue(p.warnings().stream().anyMatch(w -> w.contains("is not Kueue's provisioning check")),
        p.warnings().toString());
  }

  @Test
  void aJobTheClusterHoldsPassesTheProvisioningCheckAtOnce() {
    KueueLive live = live(false);
    live.put(checked("prov"));
    live.put(PROV);
    live.put(config(3));
    live.putJob("ml/a", job("a", "team", true, 1, 8, 0));
    KueueLive.Plan p = live.plan(q -> false, (j, s, t) -> true);
    assertEquals(List.of("a"), started(p));
    assertEquals(List.of(), p.provision());
  }

  @Test
  void aJobTheClusterCannotHoldWaitsForItsRequestHoldingItsQuotaAndRetriesAfterTheBackoff() {
    java.time.Instant[] now = {Instant.parse("2026-01-01T00:00:00Z")};
    KueueLive live = new KueueLive(() -> now[0]);
    live.put(A100);
    live.put(checked("prov"));
    live.put(new KueueRecord.LocalQueue("ml", "team", "gpu", false, List.of()));
    live.put(PROV);
    live.put(config(1));
    live.putJob("ml/a", job("a", "team", true, 2, 4, 0));
    live.putJob("ml/b", job("b", "team", true, 1, 8, 1));
    KueueLive.Room none = (j, s, t) -> false;
    KueueLive.Plan p = live.plan(q -> false, none);
    assertEquals(List.of(), started(p));
    assertEquals(List.of("ml/a-prov-1", "ml/b-prov-1"), p.provision().stream()
        .map(io.basalt.kube.provisioning.NewRequest::key).toList());
    io.basalt.kube.provisioning.NewRequest r = p.provision().get(0);
    assertEquals(2, r.count());
    assertEquals("queued-provisioning.gke.io", r.requestObject().getAsJsonObject("spec")
        .get("provisioningClassName").getAsString());
    assertEquals(Map.of("gpu", "a100"), r.nodeSelector(), "the flavor's nodes");

    live.putJob("ml/c", job("c", "team", true, 1, 1, 2));
    p = live.plan(q -> false, none);
    assertEquals(List.of(), p.provision(), "a and b hold the 16 GPUs while they wait; nothing asked twice");
    assertTrue(p.warnings().stream().anyMatch(w -> w.contains("Job ml/c stays suspended")), p.warnings().toString());

    live.put(request("a-prov-1", io.basalt.kube.provisioning.ProvisioningState.PROVISIONED));
    live.put(request("b-prov-1", io.basalt.kube.provisioning.ProvisioningState.FAILED));
    p = live.plan(q -> false, none);
    assertEquals(List.of("a"), started(p));
    assertEquals(Map.of(io.basalt.kube.provisioning.ConsumeGate.CONSUME_ANNOTATION, "a-prov-1",
        io.basalt.kube.provisioning.ConsumeGate.CLASS_ANNOTATION, "queued-provisioning.gke.io"),
        p.unsuspend().get(0).annotations());
    assertEquals(List.of(), p.provision(), "b's retry waits for the backoff (10 s)");
    now[0] = now[0].plusSeconds(11);
    p = live.plan(q -> false, none);
    assertEquals(List.of("ml/b-prov-2"), p.provision().stream()
        .map(io.basalt.kube.provisioning.NewRequest::key).toList());
    live.put(request("b-prov-2", io.basalt.kube.provisioning.ProvisioningState.BOOKING_EXPIRED));
    now[0] = now[0].plusSeconds(3600);
    p = live.plan(q -> false, none);
    assertEquals(List.of(), p.provision(), "one retry allowed: given up");
    assertTrue(p.warnings().stream().anyMatch(w -> w.contains("Job ml/b stays suspended: ProvisioningRequest "
        + "ml/b-prov-2 is booking expired (why); no retry left")), p.warnings().toString());
  }

  @Test
  void aPodConsumingARequestIsGatedUntilItIsProvisionedAndSeenAgainWhenItIs() {
    KueueLive live = new KueueLive();
    io.basalt.model.Pod pod = pod("pi", Map.of(io.basalt.kube.provisioning.ConsumeGate.CONSUME_ANNOTATION,
        "pi-request"));
    java.util.List<io.basalt.model.Pod> seen = new java.util.ArrayList<>();
    live.observePod(pod, seen::add);
    assertEquals(List.of(io.basalt.kube.provisioning.ConsumeGate.GATE), seen.get(0).constraints().schedulingGates(),
        "the request does not exist yet");
    live.put(request("pi-request", io.basalt.kube.provisioning.ProvisioningState.PENDING), seen::add);
    assertEquals(2, seen.size(), "seen again, still gated");
    assertTrue(seen.get(1).isGated());
    live.put(request("pi-request", io.basalt.kube.provisioning.ProvisioningState.PENDING), seen::add);
    assertEquals(2, seen.size(), "the same state: not seen again");
    live.put(request("pi-request", io.basalt.kube.provisioning.ProvisioningState.PROVISIONED), seen::add);
    assertEquals(3, seen.size());
    assertEquals(List.of(), seen.get(2).constraints().schedulingGates(), "provisioned: schedulable");
    io.basalt.model.Pod other = pod("other", Map.of());
    live.observePod(other, seen::add);
    assertEquals(other, seen.get(3), "a pod consuming nothing passes unchanged");
    live.podGone("ml/pi");
    live.remove("ProvisioningRequest", "ml/pi-request", seen::add);
    assertEquals(4, seen.size(), "a pod gone is not seen again");
  }

  private static io.basalt.model.Pod pod(String name, Map<String, String> annotations) {
    return new io.basalt.model.Pod(name + "-uid", "ml", name, "basalt-scheduler", null, "Pending", false, 0, null,
        null, io.basalt.model.ResourceVector.ZERO, Map.of(), annotations, Map.of(), List.of(), List.of(), null);
  }
}
