package io.basalt.app.bench;

import io.basalt.cache.ClusterCache;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuTopology;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.session.SessionResult;
import io.basalt.sim.InMemoryBinder;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the GPUs ended up: how many nodes could still take an 8-GPU pod, and how well connected the GPUs of each
 * multi-GPU pod are. Pods bound without a device choice get the lowest free indices, as a device plugin hands
 * them out, so runs with and without gpu-aware compare on the same terms.
 */
record DeviceStats(int nodesFor8Gpus, int multiGpuPods, double avgLinkQuality) {
  static DeviceStats of(Workload workload, ClusterCache cache, InMemoryBinder binder) {
    Map<String, Long> free = new HashMap<>();
    Map<String, GpuTopology> topology = new HashMap<>();
    for (Node n : workload.nodes()) {
      GpuTopology t = io.basalt.gpu.protocol.DeviceProtocols.topology(n.annotations());
      topology.put(n.name(), t != null ? t : GpuTopology.uniform(WorkloadGenerator.GPUS_PER_NODE));
      free.put(n.name(), (1L << WorkloadGenerator.GPUS_PER_NODE) - 1);
    }
    int multi = 0;
    double quality = 0;
    for (SessionResult.Binding b : binder.bound()) {
      Pod pod = cache.pod(b.pod().uid());
      int k = (int) b.pod().request().get(workload.gpuResource());
      if (pod == null || !pod.isAssigned() || k == 0) {
        continue;
      }
      String annotated = b.annotations().get(GpuAnnotations.DEVICES);
      long mask = annotated != null ? DeviceSet.parse(annotated).mask() : lowest(free.get(b.node()), k);
      free.merge(b.node(), mask, (f, m) -> f & ~m);
      if (k >= 2) {
        multi++;
        quality += averagePair(topology.get(b.node()), mask);
      }
    }
    int full = 0;
    for (long f : free.values()) {
      if (Long.bitCount(f) == WorkloadGenerator.GPUS_PER_NODE) {
        full++;
      }
    }
    return new DeviceStats(full, multi, multi == 0 ? 0 : quality / multi);
  }

  private static long lowest(long free, int k) {
    long mask = 0;
    for (long m = free; m != 0 && k > 0; m &= m - 1, k--) {
      mask |= Long.lowestOneBit(m);
    }
    return mask;
  }

  private static double averagePair(GpuTopology t, long mask) {
    double sum = 0;
    int pairs = 0;
    for (int i = 0; i < t.size(); i++) {
      for (int j = i + 1; j < t.size(); j++) {
        if ((mask & (1L << i)) != 0 && (mask & (1L << j)) != 0) {
          sum += t.score(i, j);
          pairs++;
        }
      }
    }
    return pairs == 0 ? 0 : sum / pairs;
  }
}
