package io.basalt.app.bench;

import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The least a scheduler must do for the bench's workload, as a reference rate for Basalt ({@code bench --floor}):
 * per pod a sampled fit over the nodes from a rotating start (kube-scheduler's share of nodes to score, as Basalt's
 * search), the best of binpack + least-requested + balanced-allocation scores, gangs placed all or nothing, pending
 * work retried each cycle by priority then age. No queues, preemption, plugins, snapshots or statuses: what Basalt
 * does beyond this is what its rate is compared against.
 *
 * <p>Nodes are four arrays of free amounts (cpu, memory, pods, GPUs); a request that found no node in a cycle is not
 * searched again in that cycle until a gang gives room back.
 */
final class FloorScheduler {
  private static final int CPU = 0;
  private static final int MEMORY = 1;
  private static final int PODS = 2;
  private static final int GPU = 3;

  /** One round's outcome: pods bound, their GPUs, and the time spent placing them. */
  record Result(int bound, long gpusBound, int cycles, double seconds) {
    double podsPerSecond() {
      return seconds > 0 ? bound / seconds : 0;
    }
  }

  private final long[][] allocatable;
  private final long[][] free;
  private final int nodes;
  private final int toFind;
  private int start;

  FloorScheduler(Workload workload) {
    this.nodes = workload.nodes().size();
    this.allocatable = new long[4][nodes];
    this.free = new long[4][nodes];
    int gpu = ResourceNames.index(workload.gpuResource());
    for (int n = 0; n < nodes; n++) {
      ResourceVector a = workload.nodes().get(n).allocatable();
      allocatable[CPU][n] = a.get(ResourceNames.CPU);
      allocatable[MEMORY][n] = a.get(ResourceNames.MEMORY);
      allocatable[PODS][n] = a.get(ResourceNames.PODS);
      allocatable[GPU][n] = a.get(gpu);
    }
    for (int r = 0; r < 4; r++) {
      System.arraycopy(allocatable[r], 0, free[r], 0, nodes);
    }
    this.toFind = nodes < 100 ? nodes : Math.max(100, nodes * Math.max(5, 50 - nodes / 125) / 100);
  }

  /** Submits {@code batchSize} pods per cycle, as {@link BenchRun}, then cycles until one binds nothing. */
  Result run(Workload workload, int batchSize) {
    int gpu = ResourceNames.index(workload.gpuResource());
    List<Job> pending = new ArrayList<>();
    int bound = 0;
    long gpusBound = 0;
    int cycles = 0;
    long nanos = 0;
    List<List<Workload.Submission>> batches = workload.batches(batchSize);
    boolean progress = true;
    while (cycles < batches.size() || progress) {
      long t0 = System.nanoTime();
      if (cycles < batches.size()) {
        for (Workload.Submission s : batches.get(cycles)) {
          pending.add(Job.of(s, gpu));
        }
      }
      pending.sort(Job.ORDER);
      int before = bound;
      Set<Request> noFit = new HashSet<>();
      List<Job> still = new ArrayList<>();
      for (Job job : pending) {
        if (place(job, noFit)) {
          bound += job.requests.size();
          for (Request r : job.requests) {
            gpusBound += r.gpus;
          }
        } else {
          still.add(job);
        }
      }
      pending = still;
      nanos += System.nanoTime() - t0;
      cycles++;
      progress = bound > before;
    }
    return new Result(bound, gpusBound, cycles, nanos / 1e9);
  }

  /** GPUs free on {@code node} now. */
  long freeGpus(int node) {
    return free[GPU][node];
  }

  /** Pod slots free on {@code node} now. */
  long freePods(int node) {
    return free[PODS][node];
  }

  /** Places every pod of {@code job} or none. */
  private boolean place(Job job, Set<Request> noFit) {
    int[] chosen = new int[job.requests.size()];
    for (int i = 0; i < chosen.length; i++) {
      Request r = job.requests.get(i);
      int n = noFit.contains(r) ? -1 : best(r);
      if (n < 0) {
        noFit.add(r);
        for (int j = 0; j < i; j++) {
          take(job.requests.get(j), chosen[j], -1);
        }
        if (i > 0) {
          noFit.clear(); // the gang's room is back
        }
        return false;
      }
      take(r, n, 1);
      chosen[i] = n;
    }
    return true;
  }

  private void take(Request r, int n, int sign) {
    free[CPU][n] -= sign * r.cpu;
    free[MEMORY][n] -= sign * r.memory;
    free[PODS][n] -= sign;
    free[GPU][n] -= sign * r.gpus;
  }

  /** The best-scoring of the first {@link #toFind} nodes that fit, from a rotating start; -1 when none fits. */
  private int best(Request r) {
    long[] cpu = free[CPU];
    long[] memory = free[MEMORY];
    long[] pods = free[PODS];
    long[] gpus = free[GPU];
    int found = 0;
    int best = -1;
    double bestScore = Double.NEGATIVE_INFINITY;
    int n = start;
    for (int i = 0; i < nodes && found < toFind; i++, n = n + 1 == nodes ? 0 : n + 1) {
      if (gpus[n] < r.gpus || cpu[n] < r.cpu || memory[n] < r.memory || pods[n] < 1) {
        continue;
      }
      found++;
      // Binpack (GPU-weighted use after placing) + least-requested + balanced allocation, each in 0..1. Written out
      // here, not called: it keeps best() above C2's FreqInlineSize (325 bytes), so C2 compiles this loop on its own
      // instead of inlining it into place() or run(), whose compiled forms ran it 2-3 times slower (JDK 17).
      double cpuUse = 1 - (double) (cpu[n] - r.cpu) / allocatable[CPU][n];
      double memUse = 1 - (double) (memory[n] - r.memory) / allocatable[MEMORY][n];
      double gpuUse = allocatable[GPU][n] == 0 ? 0 : 1 - (double) (gpus[n] - r.gpus) / allocatable[GPU][n];
      double binpack = r.gpus > 0 ? (gpuUse * 2 + cpuUse + memUse) / 4 : (cpuUse + memUse) / 2;
      double leastRequested = 1 - (cpuUse + memUse) / 2;
      double balanced = 1 - Math.abs(cpuUse - memUse);
      double score = binpack + leastRequested + balanced;
      if (score > bestScore) {
        bestScore = score;
        best = n;
      }
    }
    if (best >= 0) {
      start = n;
    }
    return best;
  }

  /** What placing looks at of a pod. */
  record Request(long cpu, long memory, long gpus) {}

  /** A submission: its pods' requests, priority and age. */
  private record Job(List<Request> requests, int priority, long created) {
    static final Comparator<Job> ORDER =
        Comparator.comparingInt((Job j) -> -j.priority).thenComparingLong(Job::created);

    static Job of(Workload.Submission s, int gpu) {
      List<Request> requests = new ArrayList<>(s.pods().size());
      for (Pod p : s.pods()) {
        ResourceVector q = p.request();
        requests.add(new Request(q.get(ResourceNames.CPU), q.get(ResourceNames.MEMORY), q.get(gpu)));
      }
      Pod first = s.pods().get(0);
      return new Job(requests, first.priority() == null ? 0 : first.priority(),
          first.creationTimestamp().toEpochMilli());
    }
  }
}
