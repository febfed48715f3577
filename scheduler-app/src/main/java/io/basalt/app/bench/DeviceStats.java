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
    Map<String, DeviceSet> free = new HashMap<>();
    Map<String, GpuTopology> topology = new HashMap<>();
    for (Node n : workload.nodes()) {
      GpuTopology t = io.basalt.gpu.protocol.DeviceProtocols.topology(n.annotations());
      topology.put(n.name(), t != null ? t : GpuTopology.uniform(WorkloadGenerator.GPUS_PER_NODE));
      free.put(n.name(), DeviceSet.all(WorkloadGenerator.GPUS_PER_NODE));
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
      DeviceSet mask = annotated != null ? DeviceSet.parse(annotated) : free.get(b.node()).lowest(k);
      free.merge(b.node(), mask, DeviceSet::andNot);
      if (k >= 2) {
        multi++;
        quality += averagePair(topology.get(b.node()), mask);
      }
    }
    int full = 0;
    for (DeviceSet f : free.values()) {
      if (f.size() == WorkloadGenerator.GPUS_PER_NODE) {
        full++;
      }
    }
    return new DeviceStats(full, multi, multi == 0 ? 0 : quality / multi);
  }

  private static double averagePair(GpuTopology t, DeviceSet devices) {
    double sum = 0;
    int pairs = 0;
    for (int i = 0; i < t.size(); i++) {
      for (int j = i + 1; j < t.size(); j++) {
        if (devices.contains(i) && devices.contains(j)) {
          sum += t.score(i, j);
          pairs++;
        }
      }
    }
    return pairs == 0 ? 0 : sum / pairs;
  }
}
