package io.basalt.app.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.app.replay.DeviceLedger.Violation;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The replay checks its own output: no device over 1000 milli-GPUs, no whole device shared, every {@code gpu_spec}
 * honoured, no node's cpu or memory overcommitted, whatever the protocol. Runs on the openb slice, which has pods
 * restricted to V100 and to T4.
 */
class ReplayCorrectnessTest {
  private final OpenbTrace slice = ReplayFixtures.slice();

  @Test
  void gpuTiersPlaceTheSliceWithoutViolationInBothProtocols() {
    ReplayResult fgd = FgdReplay.run(slice, ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "gpu", 42, 130, 50,
        Progress.NONE);
    assertEquals(List.of(), fgd.violations());
    assertTrue(fgd.placed() > 100 && fgd.unplaced() > 0, "the slice saturates at 130%: " + fgd.placed());
    assertTrue(fgd.allocationAt(100) > 50, "allocation at 100% arrived: " + fgd.allocationAt(100));
    ReplayResult clock = ClockReplay.run(slice, ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "gpu", 10,
        Progress.NONE);
    assertEquals(List.of(), clock.violations());
    assertEquals(slice.pods().size(), clock.arrived());
  }

  @Test
  void restrictedPodsLandOnlyOnTheirModels() {
    ReplayResult fgd = FgdReplay.run(slice, ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "gpu", 43, 130, 500,
        Progress.NONE);
    long restricted = slice.pods().stream().filter(p -> !p.gpuSpec().isEmpty()).count();
    assertTrue(restricted >= 20, "the slice has restricted pods: " + restricted);
    assertTrue(fgd.violations().stream().noneMatch(v -> v.kind() == DeviceLedger.Kind.GPU_SPEC));
  }

  /**
   * The shipped default tiers have neither deviceshare nor gpu-aware: issue 14 found whole-GPU pods stacked on nodes
   * by vGPU slot. The engine's own device accounting ({@code session.DeviceGuard}) keeps them to real devices whatever
   * the tiers; this fails if it is taken away.
   */
  @Test
  void defaultTiersPlaceTheSliceWithoutViolation() {
    ReplayResult fgd = FgdReplay.run(slice, ReplayFixtures.profile(null), "default", 42, 130, 50, Progress.NONE);
    List<Violation> v = fgd.violations();
    assertTrue(v.isEmpty(), () -> "the default tiers give " + ReplayText.violationSummary(v) + ", e.g. " + v.get(0));
    assertTrue(fgd.placed() > 0, "nothing placed");
  }

  /**
   * The recommended GPU tiers ({@code config/gpu-cluster.conf}: gpu-fragmentation with deviceshare and gpu-aware)
   * keep every device rule and pack the slice better than deviceshare and gpu-aware alone: clearly at 130% arrived,
   * seed by seed, and on the mean at 100% (22 nodes are few: one seed's 100% point can go either way).
   */
  @Test
  void recommendedGpuTiersKeepTheRulesAndPackAtLeastAsWell() throws Exception {
    String conf = Files.readString(
        ReplayFixtures.sliceDir().getParent().getParent().resolve("config").resolve("gpu-cluster.conf"));
    double sumCluster = 0;
    double sumPlain = 0;
    for (long seed : new long[] {42, 43, 44}) {
      ReplayResult cluster = FgdReplay.run(slice, ReplayFixtures.profile(conf), "gpu-cluster", seed, 130, 50,
          Progress.NONE);
      ReplayResult plain = FgdReplay.run(slice, ReplayFixtures.profile(ReplayFixtures.GPU_CONF), "gpu", seed, 130, 50,
          Progress.NONE);
      assertEquals(List.of(), cluster.violations());
      assertTrue(cluster.allocationAt(130) > plain.allocationAt(130) + 2, () -> "seed " + seed + ": gpu-cluster "
          + cluster.allocationAt(130) + " against " + plain.allocationAt(130) + " at 130% arrived");
      sumCluster += cluster.allocationAt(100);
      sumPlain += plain.allocationAt(100);
    }
    assertTrue(sumCluster >= sumPlain, "mean at 100% arrived: " + sumCluster / 3 + " against " + sumPlain / 3);
  }
}
