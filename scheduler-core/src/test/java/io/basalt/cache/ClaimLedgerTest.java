package io.basalt.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuTopology;
import io.basalt.model.Pod;
import io.basalt.testing.TestPods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Whose GPU claims count, and what a bad or conflicting claim costs (docs/GPU.md, "Whose claims count"). */
class ClaimLedgerTest {
  private static final GpuTopology EIGHT = GpuTopology.uniform(8);
  private final List<String> warnings = new ArrayList<>();

  private DeviceSet free(Pod... pods) {
    DeviceUsage u = new ClaimLedger("n1", EIGHT, Set.of("basalt-scheduler"), (k, m) -> warnings.add(m))
        .build(List.of(pods));
    return u.untouched();
  }

  private String warning() {
    assertEquals(1, warnings.size(), warnings.toString());
    return warnings.get(0);
  }

  private static TestPods onN1(String key) {
    return TestPods.pod(key).onNode("n1");
  }

  @Test
  void aForeignCpuOnlyPodClaimingEveryGpuHidesNone() {
    Pod cpuOnly = onN1("other-team/cpu").cpu("1").scheduler("default-scheduler")
        .annotation(GpuAnnotations.DEVICES, "0,1,2,3,4,5,6,7").build();
    assertEquals("0,1,2,3,4,5,6,7", free(cpuOnly).format());
    assertTrue(warning().contains("pod other-team/cpu on node n1 requests no GPUs; its annotation "
        + "basalt.io/gpu-devices is ignored"), warning());
  }

  @Test
  void hamiAnnotationsOnAPodRequestingNoGpusAreIgnoredToo() {
    Pod cpuOnly = onN1("ns/cpu").cpu("1").scheduler("hami-scheduler")
        .annotation("hami.io/vgpu-devices-allocated", "GPU-0,NVIDIA,81920,0:;").build();
    assertEquals("0,1,2,3,4,5,6,7", free(cpuOnly).format());
    assertTrue(warning().contains("requests no GPUs; its annotation of HAMi's is ignored"), warning());
  }

  @Test
  void aRepeatedIndexIsRejectedByNameAndThePodAssumedOnTheLowestFree() {
    Pod p = onN1("ns/dup").gpu(2).annotation(GpuAnnotations.DEVICES, "5,5").build();
    assertEquals("2,3,4,5,6,7", free(p).format(), "not GPU 5: GPUs 0 and 1, as for a pod without a claim");
    assertEquals("pod ns/dup on node n1: annotation basalt.io/gpu-devices: '5,5' names GPU 5 twice; assuming it "
        + "holds the lowest free 2 GPUs", warning());
  }

  @Test
  void anIndexBeyondTheNodesGpusIsRejectedByName() {
    Pod p = onN1("ns/far").gpu(1).annotation(GpuAnnotations.DEVICES, "9").build();
    assertEquals("1,2,3,4,5,6,7", free(p).format());
    assertTrue(warning().contains("'9' names GPU 9, but the node has 8 GPUs (0..7)"), warning());
  }

  @Test
  void aClaimOfMoreGpusThanThePodRequestsIsRejected() {
    Pod p = onN1("other/greedy").gpu(1).scheduler("default-scheduler")
        .annotation(GpuAnnotations.DEVICES, "0,1,2,3,4,5,6,7").build();
    assertEquals("1,2,3,4,5,6,7", free(p).format(), "one GPU held, not eight");
    assertTrue(warning().contains("names 8 GPUs but the pod requests 1; assuming it holds the lowest free 1 GPU"),
        warning());
  }

  @Test
  void aClaimOfFewerGpusThanRequestedHoldsThemAndTheRestOnTheLowestFree() {
    Pod p = onN1("ns/short").gpu(2).annotation(GpuAnnotations.DEVICES, "5").build();
    assertEquals("1,2,3,4,6,7", free(p).format());
    assertTrue(warning().contains("names 1 GPUs but the pod requests 2"), warning());
  }

  @Test
  void twoPodsClaimingOneGpuKeepItUsedOnceAndTheLaterIsAssumedElsewhere() {
    Instant t = Instant.parse("2024-01-01T00:00:00Z");
    Pod first = onN1("ns/first").gpu(1).created(t).annotation(GpuAnnotations.DEVICES, "0").build();
    Pod second = onN1("ns/second").gpu(1).created(t.plusSeconds(1)).annotation(GpuAnnotations.DEVICES, "0").build();
    assertEquals("2,3,4,5,6,7", free(second, first).format(), "GPU 0, and one more for the pod whose claim is wrong");
    assertEquals("pod ns/second on node n1 claims GPU 0 held by ns/first; it stays used, and ns/second is assumed "
        + "on another free GPU", warning());
  }

  @Test
  void aForeignClaimCountsOnlyForGpusOurPodsDoNotHold() {
    Instant t = Instant.parse("2024-01-01T00:00:00Z");
    Pod theirs = onN1("other/theirs").gpu(2).scheduler("default-scheduler").created(t)
        .annotation(GpuAnnotations.DEVICES, "0,3").build();
    Pod ours = onN1("ns/ours").gpu(1).created(t.plusSeconds(60)).annotation(GpuAnnotations.DEVICES, "0").build();
    DeviceSet free = free(theirs, ours);
    assertEquals("2,4,5,6,7", free.format(), "ours keeps 0 though it is younger; theirs holds 3 and is assumed on 1");
    assertTrue(warning().contains("pod other/theirs on node n1 claims GPU 0 held by ns/ours"), warning());
  }

  @Test
  void aClaimOnAnUnhealthyGpuIsNoConflict() {
    GpuTopology hami = io.basalt.gpu.protocol.DeviceProtocols.topology(java.util.Map.of("hami.io/node-nvidia-register",
        "GPU-0,10,81920,100,H100,0,false:GPU-1,10,81920,100,H100,0,true:"));
    Pod p = onN1("ns/p").gpu(1).annotation(GpuAnnotations.DEVICES, "0").build();
    DeviceUsage u = new ClaimLedger("n1", hami, Set.of("basalt-scheduler"), (k, m) -> warnings.add(m))
        .build(List.of(p));
    assertEquals("1", u.untouched().format(), "GPU 0 held (unhealthy and claimed), GPU 1 free");
    assertEquals(List.of(), warnings);
  }

  /** Found by ClaimLedgerFuzzTest (seed 99): an unhealthy GPU claimed by two pods counted for both. */
  @Test
  void twoClaimsOnOneUnhealthyGpuStillConflict() {
    GpuTopology hami = io.basalt.gpu.protocol.DeviceProtocols.topology(java.util.Map.of("hami.io/node-nvidia-register",
        "GPU-0,10,81920,100,H100,0,false:GPU-1,10,81920,100,H100,0,true:GPU-2,10,81920,100,H100,0,true:"));
    Instant t = Instant.parse("2024-01-01T00:00:00Z");
    Pod a = onN1("ns/a").gpu(1).created(t).annotation(GpuAnnotations.DEVICES, "0").build();
    Pod b = onN1("ns/b").gpu(1).created(t.plusSeconds(1)).annotation(GpuAnnotations.DEVICES, "0").build();
    DeviceUsage u = new ClaimLedger("n1", hami, Set.of("basalt-scheduler"), (k, m) -> warnings.add(m))
        .build(List.of(a, b));
    assertEquals("2", u.untouched().format(), "GPU 0 for a, GPU 1 assumed for b");
    assertTrue(warning().startsWith("pod ns/b on node n1 claims GPU 0 held by ns/a"), warning());
  }

  @Test
  void aShareOnAGpuHeldWholeIsNamedAndTheGpuStaysUsed() {
    Instant t = Instant.parse("2024-01-01T00:00:00Z");
    Pod whole = onN1("ns/whole").gpu(1).created(t).annotation(GpuAnnotations.DEVICES, "2").build();
    Pod share = onN1("ns/share").gpu(1).resource("nvidia.com/gpucores", "30").created(t.plusSeconds(1))
        .annotation(GpuAnnotations.DEVICES, "2").build();
    assertEquals("0,1,3,4,5,6,7", free(whole, share).format());
    assertTrue(warning().startsWith("pod ns/share on node n1 claims GPU 2 held by ns/whole"), warning());
  }

  @Test
  void validClaimsOfOurPodsAreTakenAsTheyAreWithoutWarnings() {
    Pod a = onN1("ns/a").gpu(2).annotation(GpuAnnotations.DEVICES, "6,7").build();
    Pod b = onN1("ns/b").resource("metax-tech.com/sgpu", "1").resource("metax-tech.com/vcore", "40")
        .annotation(GpuAnnotations.DEVICES, "3").build();
    DeviceUsage u = new ClaimLedger("n1", EIGHT, Set.of("basalt-scheduler"), (k, m) -> warnings.add(m))
        .build(List.of(a, b));
    assertEquals("0,1,2,4,5", u.untouched().format());
    assertEquals(40, u.coresUsed(3));
    assertEquals(List.of(), warnings);
  }
}
