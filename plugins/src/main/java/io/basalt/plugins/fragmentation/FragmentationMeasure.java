package io.basalt.plugins.fragmentation;

import io.basalt.gpu.DeviceConstraints;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuTopology;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * How much of a node's free GPU capacity the workload could not use: the fragmentation of the FGD paper (Weng et al.,
 * "Beware of Fragmentation", USENIX ATC'23), stated here as Basalt computes it.
 *
 * <p>For one shape m and a node with free cpu C, free memory M and per-GPU free compute f_d (percent: 100 for a GPU
 * nobody holds, 0 for one held whole, 100 minus the shares' compute otherwise), the free capacity m cannot use is
 * <ul>
 *   <li>all of it, sum f_d, when m does not fit the node's cpu or memory, none of the node's GPUs is of a model m
 *       accepts, or the GPUs cannot take m (fewer than k untouched GPUs for a k-GPU pod; no GPU with f_d >= c for a
 *       share of c percent);</li>
 *   <li>otherwise the GPUs m could not take: for a k-GPU pod every GPU that is not untouched (or not of an accepted
 *       model), for a share of c percent every GPU with f_d < c (or not accepted).</li>
 * </ul>
 * The node's fragmentation is the mix-weighted sum over shapes, F = sum_m p_m F_m. A placement is judged by how much
 * it raises F (a share filling a GPU's last gap lowers it). Results are cached per node state (many nodes of a fleet are
 * in the same state) for as long as the mix is unchanged, across sessions ({@link WorkloadMix#measure()}).
 */
final class FragmentationMeasure {
  private final List<WorkloadMix.Entry> mix;
  private final DeviceConstraints[] constraints;
  private final Map<GpuTopology, DeviceSet[]> allowed = new IdentityHashMap<>();
  private final Map<State, Double> cache = new HashMap<>();

  FragmentationMeasure(List<WorkloadMix.Entry> mix) {
    this.mix = mix;
    this.constraints = mix.stream().map(e -> e.shape().constraints()).toArray(DeviceConstraints[]::new);
  }

  boolean isEmpty() {
    return mix.isEmpty();
  }

  /**
   * A node's free resources as the measure reads them; {@code free[d]} in percent of GPU d, {@code untouched} the GPUs
   * nobody holds or shares.
   */
  record State(long cpu, long memory, long packed, GpuTopology gpus, int[] free, DeviceSet untouched) {
    static State of(long cpu, long memory, GpuTopology gpus, int[] free, DeviceSet untouched) {
      return new State(cpu, memory, pack(free, untouched), gpus, free, untouched);
    }

    /**
     * A byte per GPU for up to 8 GPUs (the count is the topology's), bit 7 marking untouched; -1 when not packable
     * (no byte can be 0xff, as free compute is at most 100).
     */
    private static long pack(int[] free, DeviceSet untouched) {
      if (free.length > 8) {
        return -1;
      }
      long p = 0;
      for (int d = 0; d < free.length; d++) {
        p = (p << 8) | free[d] | (untouched.contains(d) ? 0x80 : 0);
      }
      return p;
    }

    // Equality by the numbers and the topology's identity: nodes with the same GPUs share one topology object.
    @Override
    public boolean equals(Object o) {
      return o instanceof State s && s.cpu == cpu && s.memory == memory && s.packed == packed && s.packed != -1
          && s.gpus == gpus;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(cpu * 31 + memory) * 31 + Long.hashCode(packed) * 17 + System.identityHashCode(gpus);
    }
  }

  /** F of {@code s}: free GPU percent the mix could not use, weighted by the shapes' shares of the mix. */
  double of(State s) {
    if (s.packed() == -1) {
      return compute(s);
    }
    Double known = cache.get(s);
    if (known == null) {
      known = compute(s);
      if (cache.size() > 200_000) {
        cache.clear();
      }
      cache.put(s, known);
    }
    return known;
  }

  private double compute(State s) {
    int[] free = s.free();
    long total = 0;
    for (int f : free) {
      total += f;
    }
    if (total == 0) {
      return 0;
    }
    DeviceSet[] masks = allowed.computeIfAbsent(s.gpus(), this::allowedSets);
    double sum = 0;
    for (int i = 0; i < constraints.length; i++) {
      Shape m = mix.get(i).shape();
      sum += mix.get(i).weight() * unusable(m, masks[i], s, total);
    }
    return sum;
  }

  /** Free percent of {@code s} that {@code m} cannot use. */
  private static long unusable(Shape m, DeviceSet accepted, State s, long total) {
    if (m.cpu() > s.cpu() || m.memory() > s.memory() || accepted.isEmpty()) {
      return total;
    }
    int[] free = s.free();
    long usable = 0;
    if (!m.share()) {
      int count = s.untouched().and(accepted).size();
      return count < m.whole() ? total : total - 100L * count;
    }
    for (int d = 0; d < free.length; d++) {
      if (free[d] >= m.cores() && accepted.contains(d)) {
        usable += free[d];
      }
    }
    return total - usable;
  }

  private DeviceSet[] allowedSets(GpuTopology t) {
    DeviceSet all = DeviceSet.all(t.size());
    DeviceSet[] out = new DeviceSet[constraints.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = constraints[i].isNone() ? all : constraints[i].allowed(t);
    }
    return out;
  }
}
