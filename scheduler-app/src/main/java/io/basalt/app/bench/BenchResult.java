package io.basalt.app.bench;

/**
 * One measured round.
 *
 * @param pods pods submitted
 * @param bound pods bound during the round
 * @param pending pods still unbound at the end
 * @param evicted pods evicted by preempt or reclaim (they leave the cluster, as if their controller gave up)
 * @param gangs gangs (PodGroups) submitted; {@code gangsBound} of them bound whole
 * @param podsPerSecond pods bound per second spent inside {@code Scheduler.runOnce} (scheduling decisions per second)
 * @param podsPerCpuSecond pods bound per second of the scheduling thread's CPU time inside {@code runOnce}: what
 *     other processes on the machine change least
 * @param schedulingSeconds total time inside {@code runOnce}
 * @param wallSeconds the whole round: submitting batches to the cache, cycles and bookkeeping
 * @param peakHeapMiB sum of the heap pools' peak usage during the round
 * @param gpuAllocationPercent GPUs held by bound pods at the end, of all GPUs
 * @param nodesFor8Gpus nodes whose 8 GPUs are all free at the end: what an 8-GPU pod could still get
 * @param multiGpuPods bound pods with two or more GPUs
 * @param avgLinkQuality mean pair score over the GPUs of each multi-GPU pod (NV4 = 400, NODE 20, SYS 10); pods
 *     without a device annotation are given the lowest free indices, as a device plugin would
 * @param cycleMs each cycle's time in order (a backlog's p50 says little of how cycles change over a run)
 */
public record BenchResult(
    int nodes,
    int pods,
    int bound,
    int pending,
    int evicted,
    int gangs,
    int gangsBound,
    int cycles,
    double podsPerSecond,
    double podsPerCpuSecond,
    double schedulingSeconds,
    double wallSeconds,
    double cycleP50Ms,
    double cycleP99Ms,
    double cycleMaxMs,
    double peakHeapMiB,
    double gpuAllocationPercent,
    int nodesFor8Gpus,
    int multiGpuPods,
    double avgLinkQuality,
    java.util.List<Double> cycleMs) {}
