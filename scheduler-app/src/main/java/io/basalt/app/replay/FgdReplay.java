package io.basalt.app.replay;

import io.basalt.app.replay.OpenbTrace.TracePod;
import io.basalt.scheduler.SchedulerProfile;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The FGD paper's protocol: pods in a seeded random order, as many as it takes for their GPU requests to reach
 * {@code percent}% of the cluster's GPU capacity, no departures, each pod attempted once in that order and skipped
 * for good when it is not placed. The order is successive seeded shuffles of the whole trace (every pod once before
 * any repeats: "resampled" beyond the trace's own 98% of capacity), so a shorter run is a prefix of a longer one and
 * the curve of a 130% run passes through the 100% run's figure.
 *
 * <p>Pods go to the engine in cycles of up to {@code batch} pods, a cycle also ending where the arrived workload
 * crosses a multiple of {@value #FRAGMENTATION_STEP}%. Within a cycle the engine takes the pods in creation order
 * (they are created one second apart), each placement seeing the ones before it, and with no departures a later
 * pod never changes an earlier one's fate: so the allocation at each whole percent is exact whatever the batch
 * (sum of the placed requests among the pods up to the one crossing it). Fragmentation is measured at the end of
 * each cycle and given to the percents inside it.
 */
final class FgdReplay {
  /** One pod of the sequence: its replay uid (the trace name, with {@code -rN} from the second pass on). */
  record Entry(String uid, TracePod pod) {}

  /** Cycles end where the arrived workload crosses a multiple of this percent; fragmentation is sampled there. */
  static final int FRAGMENTATION_STEP = 5;

  private FgdReplay() {}

  static List<Entry> sequence(OpenbTrace trace, long seed, double percent, long capacityMilli) {
    SplittableRandom random = new SplittableRandom(seed);
    double target = capacityMilli * percent / 100;
    List<Entry> out = new ArrayList<>();
    long sum = 0;
    List<TracePod> pods = trace.pods();
    if (pods.stream().noneMatch(p -> p.numGpu() > 0)) {
      throw new IllegalArgumentException("the trace has no GPU pods: no arrived GPU workload to grow");
    }
    for (int pass = 1; sum < target; pass++) {
      int[] order = shuffled(pods.size(), random);
      for (int i = 0; i < order.length && sum < target; i++) {
        TracePod p = pods.get(order[i]);
        out.add(new Entry(pass == 1 ? p.name() : p.name() + "-r" + pass, p));
        sum += p.gpuMilliTotal();
      }
    }
    return out;
  }

  private static int[] shuffled(int n, SplittableRandom random) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  static ReplayResult run(OpenbTrace trace, SchedulerProfile profile, String config, long seed, double percent,
      int batch, Progress progress) {
    long start = System.nanoTime();
    ReplayRun run = new ReplayRun(trace, profile);
    long capacity = run.capacityMilli();
    List<Entry> sequence = sequence(trace, seed, percent, capacity);
    Set<String> bound = new HashSet<>();
    long submitted = 0;
    long arrived = 0;
    long allocated = 0;
    int placed = 0;
    int nextPercent = 1;
    run.sample(0, 0, 0, 0);
    for (int i = 0; i < sequence.size(); ) {
      int from = i;
      int cycleEnd = nextPercent + FRAGMENTATION_STEP - 1 - (nextPercent - 1) % FRAGMENTATION_STEP;
      while (i < sequence.size() && i - from < batch && submitted * 100 < (long) cycleEnd * capacity) {
        Entry e = sequence.get(i++);
        run.submit(e.uid(), e.pod(), i);
        submitted += e.pod().gpuMilliTotal();
      }
      bound.clear();
      bound.addAll(run.cycle());
      List<long[]> points = new ArrayList<>();
      for (int k = from; k < i; k++) {
        Entry e = sequence.get(k);
        arrived += e.pod().gpuMilliTotal();
        if (bound.contains(e.uid())) {
          allocated += e.pod().gpuMilliTotal();
          placed++;
        } else {
          run.remove(e.uid());
        }
        if (arrived * 100 >= (long) nextPercent * capacity || k == sequence.size() - 1) {
          points.add(new long[] {k + 1, arrived, allocated, placed});
          while (arrived * 100 >= (long) nextPercent * capacity) {
            nextPercent++;
          }
        }
      }
      double fragmented = run.fragmentedPercent();
      for (long[] p : points) {
        run.sample(p[0], p[1], p[2], fragmented, 0, (int) p[3]);
      }
      progress.update(i, sequence.size());
    }
    progress.done();
    return run.result("fgd", config, seed, sequence.size(), new long[0], (System.nanoTime() - start) / 1e9);
  }
}
