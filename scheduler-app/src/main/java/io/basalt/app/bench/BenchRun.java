package io.basalt.app.bench;

import io.basalt.cache.ClusterCache;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.session.SessionResult;
import io.basalt.sim.InMemoryBinder;
import io.basalt.sim.InMemoryStatus;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives the real scheduling cycle over a generated workload: each cycle adds the next batch of submissions to the
 * cache, then runs {@link Scheduler#runOnce()} and times it; once everything is submitted it keeps cycling until a
 * cycle binds nothing. The binder applies bindings to the cache as the informers would report them.
 */
public final class BenchRun {
  /** A safety net against a cycle that keeps binding forever (it cannot: every binding uses up a pending pod). */
  static final int MAX_IDLE_CYCLES = 10_000;

  private final Workload workload;
  private final int batchSize;
  private final ClusterCache cache;
  private final InMemoryBinder binder;
  private final InMemoryStatus status;
  private final InProcessEngine engine;
  private int minCycles;
  /**
   * The scheduling thread's CPU time inside each cycle, beside the wall time: on a machine other processes load, the
   * wall time counts the time the thread waited for a core, its CPU time does not.
   */
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  public BenchRun(SchedulerProfile profile, Workload workload, int batchSize) {
    if (batchSize <= 0) {
      throw new IllegalArgumentException("batch must be positive, got " + batchSize);
    }
    this.workload = workload;
    this.batchSize = batchSize;
    this.engine = new InProcessEngine(profile, WorkloadGenerator.SCHEDULER_NAME);
    this.cache = engine.cache();
    this.binder = engine.binder();
    this.status = engine.status();
  }

  /**
   * Runs at least {@code cycles} cycles even once one binds nothing: a backlog's cost is that of every cycle it is
   * pending for, not only of those that bind.
   */
  public BenchRun minCycles(int cycles) {
    this.minCycles = cycles;
    return this;
  }

  /** Runs the round; peak heap is whatever the pools recorded since their last reset (see {@link #resetPeakHeap}). */
  public BenchResult run() {
    long wallStart = System.nanoTime();
    for (Node n : workload.nodes()) {
      cache.putNode(n);
    }
    for (io.basalt.model.Queue q : workload.queues()) {
      cache.putQueue(q);
    }
    DraBench.publish(workload, cache);
    List<List<Workload.Submission>> batches = workload.batches(batchSize);
    long[] cycleNanos = new long[batches.size() + 16];
    long cpuNanos = 0;
    int cycles = 0;
    int idle = 0;
    boolean bound = true;
    while (cycles < batches.size() || cycles < minCycles || (bound && idle < MAX_IDLE_CYCLES)) {
      if (cycles < batches.size()) {
        submit(batches.get(cycles));
      } else {
        idle++;
      }
      long c0 = THREADS.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      SessionResult result = engine.runOnce();
      long t = System.nanoTime() - t0;
      cpuNanos += THREADS.getCurrentThreadCpuTime() - c0;
      if (cycles == cycleNanos.length) {
        cycleNanos = Arrays.copyOf(cycleNanos, cycles * 2);
      }
      cycleNanos[cycles++] = t;
      bound = !result.bindings().isEmpty() || !result.evictions().isEmpty() || status.finishTerminating();
    }
    long wall = System.nanoTime() - wallStart;
    return result(Arrays.copyOf(cycleNanos, cycles), wall, cpuNanos);
  }

  private void submit(List<Workload.Submission> batch) {
    for (Workload.Submission s : batch) {
      if (s.podGroup() != null) {
        cache.putPodGroup(s.podGroup());
      }
      for (Pod p : s.pods()) {
        DraBench.claimsOf(p).forEach(cache::putResourceClaim);
        cache.putPod(p);
      }
    }
  }

  private BenchResult result(long[] cycleNanos, long wallNanos, long cpuNanos) {
    DeviceStats devices = DeviceStats.of(workload, cache, binder);
    List<Pod> pods = cache.pods();
    int boundPods = 0;
    long gpusUsed = 0;
    Map<String, int[]> gangBound = new HashMap<>();
    for (Pod p : pods) {
      if (p.isAssigned()) {
        boundPods++;
        gpusUsed += p.request().get(workload.gpuResource());
        if (p.groupName() != null) {
          gangBound.computeIfAbsent(p.groupName(), g -> new int[1])[0]++;
        }
      }
    }
    int gangsBound = 0;
    for (PodGroup pg : workload.podGroups()) {
      int[] n = gangBound.get(pg.name());
      if (n != null && n[0] >= pg.minMember()) {
        gangsBound++;
      }
    }
    long total = 0;
    for (long c : cycleNanos) {
      total += c;
    }
    long[] sorted = cycleNanos.clone();
    Arrays.sort(sorted);
    double seconds = total / 1e9;
    return new BenchResult(
        workload.nodes().size(),
        workload.podCount(),
        binder.bound().size(),
        pods.size() - boundPods,
        binder.evicted().size(),
        workload.podGroups().size(),
        gangsBound,
        cycleNanos.length,
        seconds > 0 ? binder.bound().size() / seconds : 0,
        cpuNanos > 0 ? binder.bound().size() / (cpuNanos / 1e9) : 0,
        seconds,
        wallNanos / 1e9,
        percentile(sorted, 50) / 1e6,
        percentile(sorted, 99) / 1e6,
        (sorted.length == 0 ? 0 : sorted[sorted.length - 1]) / 1e6,
        peakHeapBytes() / (double) (1 << 20),
        workload.totalGpus() == 0 ? 0 : 100.0 * gpusUsed / workload.totalGpus(),
        devices.nodesFor8Gpus(), devices.multiGpuPods(), devices.avgLinkQuality(),
        Arrays.stream(cycleNanos).mapToObj(c -> c / 1e6).toList());
  }

  /** Nearest-rank percentile of an ascending array. */
  static long percentile(long[] sorted, int p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  public ClusterCache cache() {
    return cache;
  }

  public InMemoryBinder binder() {
    return binder;
  }

  /** Forgets the heap pools' peaks, so the next {@link #peakHeapBytes} covers only what runs after this. */
  public static void resetPeakHeap() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        pool.resetPeakUsage();
      }
    }
  }

  /** Sum of every heap pool's peak usage since the last reset. */
  public static long peakHeapBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid() && pool.getPeakUsage() != null) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
