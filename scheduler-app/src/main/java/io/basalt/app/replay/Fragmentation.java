package io.basalt.app.replay;

import io.basalt.app.replay.DeviceLedger.NodeBook;
import io.basalt.app.replay.OpenbTrace.TracePod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * GPU fragmentation as the FGD paper (Weng et al., USENIX ATC'23, section 3) defines it: free GPU capacity that the
 * workload cannot use. For one request shape m (cpu, memory, GPUs, milli-GPU, gpu_spec), a node's free GPU capacity
 * counts as fragmented when m fits nowhere on the node (not enough cpu, memory, matching model, or free devices):
 * all of it; when m fits, the free capacity of the devices m cannot use (a device with less free than m's per-GPU
 * need: m's milli for a share, a whole device for whole-GPU shapes). The node's fragmentation is the expectation
 * over the workload's shapes, weighted by how often each occurs among the trace's GPU pods (CPU-only pods use no
 * GPU and are left out); the cluster's is the sum over nodes, reported as a share of all GPUs and per GPU model
 * ("stranded": free but unusable by the workload's shapes).
 */
final class Fragmentation {
  /** A request shape, how often it occurs, and which of the ledger's models it accepts (by model index). */
  private record Shape(TracePod pod, double weight, boolean[] accepts) {}

  /** Fragmented and free milli-GPUs, in all and per model (models in name order). */
  record Measure(double fragmentedMilli, long freeMilli, Map<String, Double> fragmentedByModel,
      Map<String, Long> freeByModel) {}

  private final List<Shape> shapes = new ArrayList<>();

  /** The distribution of GPU request shapes among {@code pods}, over nodes of {@code models}. */
  Fragmentation(List<TracePod> pods, List<String> models) {
    Map<List<Object>, int[]> counts = new LinkedHashMap<>();
    Map<List<Object>, TracePod> sample = new HashMap<>();
    int total = 0;
    for (TracePod p : pods) {
      if (p.numGpu() == 0) {
        continue;
      }
      List<Object> key = List.of(p.numGpu(), p.gpuMilli(), p.cpuMilli(), p.memoryMib(), p.gpuSpec());
      counts.computeIfAbsent(key, k -> new int[1])[0]++;
      sample.putIfAbsent(key, p);
      total++;
    }
    for (Map.Entry<List<Object>, int[]> e : counts.entrySet()) {
      TracePod p = sample.get(e.getKey());
      boolean[] accepts = new boolean[models.size()];
      for (int m = 0; m < accepts.length; m++) {
        accepts[m] = p.accepts(models.get(m));
      }
      shapes.add(new Shape(p, e.getValue()[0] / (double) total, accepts));
    }
  }

  int shapeCount() {
    return shapes.size();
  }

  Measure measure(DeviceLedger ledger) {
    double fragmented = 0;
    long free = 0;
    Map<String, Double> fragByModel = new TreeMap<>();
    Map<String, Long> freeByModel = new TreeMap<>();
    for (NodeBook b : ledger.books()) {
      double f = node(b);
      long nodeFree = 0;
      for (int d = 0; d < b.used.length; d++) {
        nodeFree += b.free(d);
      }
      fragmented += f;
      free += nodeFree;
      fragByModel.merge(b.node.model(), f, Double::sum);
      freeByModel.merge(b.node.model(), nodeFree, Long::sum);
    }
    return new Measure(fragmented, free, fragByModel, freeByModel);
  }

  /** The node's expected fragmented milli-GPUs over the workload's shapes. */
  double node(NodeBook b) {
    int n = b.used.length;
    long free = 0;
    int wholeFree = 0;
    for (int d = 0; d < n; d++) {
      free += b.free(d);
      if (b.used[d] == 0 && b.whole[d] == 0) {
        wholeFree++;
      }
    }
    if (free == 0) {
      return 0;
    }
    double sum = 0;
    for (Shape s : shapes) {
      TracePod m = s.pod();
      boolean resources = m.cpuMilli() <= b.freeCpu && m.memoryMib() <= b.freeMemory && s.accepts()[b.model];
      int need = m.isShare() ? m.gpuMilli() : 1000;
      long unusable = 0;
      boolean fits = false;
      for (int d = 0; d < n; d++) {
        int f = b.free(d);
        if (f < need) {
          unusable += f;
        } else if (m.isShare()) {
          fits = true;
        }
      }
      if (!m.isShare()) {
        fits = wholeFree >= m.numGpu();
      }
      sum += s.weight() * (resources && fits ? unusable : free);
    }
    return sum;
  }
}
