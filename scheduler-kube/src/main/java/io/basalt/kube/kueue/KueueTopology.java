package io.basalt.kube.kueue;

import io.basalt.fabric.FabricBuilder;
import io.basalt.kube.fabric.LabelTopologyReader;
import io.basalt.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Kueue's topology-aware scheduling as a network-fabric source: a {@code Topology}'s levels are node label keys, widest
 * first, which is what {@link LabelTopologyReader} builds domains from (each key names its tier, so a pod set's
 * {@code podset-required-topology: <level label>} names the tier its gang must fit in one domain of).
 */
final class KueueTopology {
  private KueueTopology() {}

  /** The fabric of the first Topology in {@code records}, or null when there is none; more than one is warned. */
  static Function<List<Node>, FabricBuilder.Result> source(List<KueueRecord> records, List<String> warnings) {
    List<KueueRecord.Topology> all = new ArrayList<>();
    for (KueueRecord r : records) {
      if (r instanceof KueueRecord.Topology t) {
        all.add(t);
      }
    }
    if (all.isEmpty()) {
      return null;
    }
    if (all.size() > 1) {
      warnings.add("Kueue: " + all.size() + " Topologies; the network fabric is built from the first, "
          + all.get(0).name() + " (one fabric per cluster)");
    }
    List<String> levels = all.get(0).levels();
    return nodes -> LabelTopologyReader.read(levels, nodes);
  }
}
