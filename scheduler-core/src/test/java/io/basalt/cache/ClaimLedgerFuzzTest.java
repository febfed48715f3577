package io.basalt.cache;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.protocol.hami.HamiFormat;
import io.basalt.model.Pod;
import io.basalt.testing.FuzzJson;
import io.basalt.testing.TestPods;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random nodes of 1 to 130 GPUs (some unhealthy) and random pods on them, of this and other schedulers, requesting
 * whole GPUs, a share or none, with valid, repeated, out-of-range, conflicting, oversized and garbage claims. For
 * each node the ledger returns, and whatever the claims say: no more GPUs are held than the unhealthy ones plus what
 * the pods request (no annotation hides GPUs), and no fewer than the whole-GPU requests of the pods that share no
 * GPU (no GPU a pod may be using is free). Set {@code -Dbasalt.fuzz.seed} and {@code -Dbasalt.fuzz.count} to explore further.
 */
class ClaimLedgerFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 11L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 2000);

  @Test
  void noClaimHidesGpusItsPodCannotHoldAndNoHeldGpuIsFree() {
    FuzzJson text = new FuzzJson(SEED);
    Random r = text.random();
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      for (int i = 0; i < COUNT; i++) {
        int size = 1 + r.nextInt(r.nextBoolean() ? 8 : r.nextBoolean() ? 64 : 130);
        GpuTopology t = topology(size, r);
        List<Pod> pods = new ArrayList<>();
        long requested = 0;
        long whole = 0;
        for (int p = r.nextInt(12); p > 0; p--) {
          Pod pod = pod(p, size, t, r, text);
          pods.add(pod);
          long want = pod.request().get("nvidia.com/gpu");
          boolean share = pod.request().get("nvidia.com/gpucores") > 0;
          requested += want > 0 ? want : share ? 1 : 0;
          // HAMi's share entries (4096 MiB of 81920) may sit with other pods' on one GPU, by design
          whole += share || pod.annotations().getOrDefault("hami.io/vgpu-devices-allocated", "").contains(",4096,")
              ? 0 : want;
        }
        DeviceUsage u;
        try {
          u = new ClaimLedger("n1", t, Set.of("basalt-scheduler"), (k, m) -> { }).build(pods);
        } catch (Throwable e) {
          throw new AssertionError(failure(i, size, pods, "threw " + e), e);
        }
        int held = DeviceSet.all(size).andNot(u.untouched()).size();
        long most = Math.min(size, t.unhealthy().size() + requested);
        assertTrue(held <= most, failure(i, size, pods, held + " GPUs held, at most " + most + " may be"));
        assertTrue(held >= Math.min(size, whole), failure(i, size, pods, held + " GPUs held, pods request " + whole));
      }
    });
  }

  private static GpuTopology topology(int size, Random r) {
    if (r.nextInt(3) > 0) {
      return GpuTopology.uniform(size);
    }
    StringBuilder register = new StringBuilder();
    for (int d = 0; d < size; d++) {
      register.append("GPU-").append(d).append(",10,81920,100,H100,0,").append(r.nextInt(6) > 0).append(':');
    }
    return io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(HamiFormat.NVIDIA_REGISTER, register.toString()));
  }

  private static Pod pod(int p, int size, GpuTopology t, Random r, FuzzJson text) {
    TestPods b = TestPods.pod("ns/p" + p).onNode("n1").cpu("1")
        .scheduler(r.nextBoolean() ? "basalt-scheduler" : "default-scheduler")
        .created(Instant.EPOCH.plusSeconds(r.nextInt(5)));
    int want = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(Math.min(size, 8));
    if (want > 0) {
      b.gpu(want);
      if (want == 1 && r.nextInt(4) == 0) {
        b.resource("nvidia.com/gpucores", Integer.toString(1 + r.nextInt(100)));
      }
    }
    switch (r.nextInt(5)) {
      case 0 -> { }
      case 1 -> b.annotation(GpuAnnotations.DEVICES, text.next(List.of("0", "0,1", "1,1", "0,1,2,3,4,5,6,7")));
      case 2 -> b.annotation("hami.io/vgpu-devices-allocated", "GPU-" + r.nextInt(size + 2) + ",NVIDIA,81920,"
          + r.nextInt(101) + ":" + (r.nextBoolean() ? "GPU-" + r.nextInt(size) + ",NVIDIA,4096,30:" : "") + ";");
      default -> b.annotation(GpuAnnotations.DEVICES, indices(size, r));
    }
    return b.build();
  }

  /** Mostly well-formed lists of indices, some repeated or beyond the node, of any length. */
  private static String indices(int size, Random r) {
    List<String> out = new ArrayList<>();
    for (int n = 1 + r.nextInt(Math.min(size, 9)); n > 0; n--) {
      out.add(Integer.toString(r.nextInt(size + (r.nextInt(10) == 0 ? 3 : 0))));
    }
    return String.join(",", out);
  }

  private static String failure(int i, int size, List<Pod> pods, String problem) {
    StringBuilder sb = new StringBuilder("node " + i + " of seed " + SEED + " (" + size + " GPUs): " + problem);
    for (Pod p : pods) {
      sb.append("\n  ").append(p.key()).append(' ').append(p.schedulerName()).append(' ').append(p.request())
          .append(' ').append(p.annotations());
    }
    return sb.toString();
  }
}
