package io.basalt.plugins.binpack;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code binpack}: prefers nodes the pod would fill most, so whole nodes (and whole GPU boxes) stay free
 * for large jobs.
 *
 * <p>For every resource the pod requests that has a weight {@code w}: {@code w * (used + request) / allocatable};
 * the sum divided by the sum of those weights, times 100, times {@code binpack.weight}. As in Volcano, a node where
 * any weighted resource would overflow ({@code used + request > allocatable}) scores 0 as a whole, and a resource the
 * node has none of adds its weight but no score.
 *
 * <p>Arguments, as Volcano spells them: {@code binpack.weight} (1; 0 turns the score off), {@code binpack.cpu} (1),
 * {@code binpack.memory} (1), {@code binpack.resources} (more resource names, comma-separated) and
 * {@code binpack.resources.<name>} (1). Unlike Volcano, {@value #NVIDIA_GPU} and {@value #METAX_GPU} are weighted
 * even when not listed, since packing GPUs is what a GPU cluster wants binpack for; their weight keys are read too.
 */
public final class BinpackPlugin implements Plugin {
  public static final String NAME = "binpack";

  static final String WEIGHT = "binpack.weight";
  static final String CPU = "binpack.cpu";
  static final String MEMORY = "binpack.memory";
  static final String RESOURCES = "binpack.resources";
  static final String RESOURCES_PREFIX = RESOURCES + ".";

  static final String NVIDIA_GPU = "nvidia.com/gpu";
  static final String METAX_GPU = "metax-tech.com/gpu";
  static final List<String> DEFAULT_GPUS = List.of(NVIDIA_GPU, METAX_GPU);

  private final int weight;
  /** Weighted resources by name, cpu and memory first; names resolve to slots when a session opens. */
  private final Map<String, Integer> resourceWeights;

  /** The plugin weight and the resource weights in order, read once per config. */
  record Settings(int weight, Map<String, Integer> resourceWeights) {
    Settings {
      resourceWeights = Collections.unmodifiableMap(new LinkedHashMap<>(resourceWeights));
    }
  }

  BinpackPlugin(Settings settings) {
    this.weight = settings.weight();
    this.resourceWeights = settings.resourceWeights();
  }

  public static PluginDescriptor<?> descriptor() {
    return PluginDescriptor.of(NAME, BinpackPlugin::read, BinpackPlugin::new);
  }

  private static Settings read(Arguments args) {
    int weight = args.getWeight(WEIGHT, 1);
    Map<String, Integer> weights = new LinkedHashMap<>();
    weights.put(ResourceNames.CPU_NAME, args.getWeight(CPU, 1));
    weights.put(ResourceNames.MEMORY_NAME, args.getWeight(MEMORY, 1));
    for (String gpu : DEFAULT_GPUS) {
      weights.put(gpu, args.getWeight(RESOURCES_PREFIX + gpu, 1));
    }
    for (String name : args.getString(RESOURCES, "").split(",")) {
      String r = name.trim();
      // cpu and memory have their own keys; a name listed twice keeps its one weight.
      if (!r.isEmpty() && !weights.containsKey(r)) {
        weights.put(r, args.getWeight(RESOURCES_PREFIX + r, 1));
      }
    }
    return new Settings(weight, weights);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    if (weight == 0) {
      return;
    }
    int[] slots = new int[resourceWeights.size()];
    int[] weights = new int[slots.length];
    int n = 0;
    for (Map.Entry<String, Integer> e : resourceWeights.entrySet()) {
      // A name nothing in this session uses has no slot: no pod can request it, so it cannot count.
      int slot = ResourceNames.indexIfKnown(e.getKey());
      if (slot >= 0 && e.getValue() > 0) {
        slots[n] = slot;
        weights[n] = e.getValue();
        n++;
      }
    }
    registrar.addScorer(new Scorer(weight, Arrays.copyOf(slots, n), Arrays.copyOf(weights, n)));
  }

  /** Volcano's BinPackingScore over precomputed slots and weights; allocates nothing. */
  static final class Scorer implements NodeScorer {
    private final double scale;
    private final int[] slots;
    private final int[] weights;

    Scorer(int binpackWeight, int[] slots, int[] weights) {
      this.scale = 100.0 * binpackWeight;
      this.slots = slots;
      this.weights = weights;
    }

    @Override
    public double score(TaskInfo task, NodeInfo node) {
      ResourceVector request = task.request();
      double sum = 0;
      long weightSum = 0;
      for (int i = 0; i < slots.length; i++) {
        int r = slots[i];
        long requested = request.get(r);
        if (requested <= 0) {
          continue;
        }
        int w = weights[i];
        weightSum += w;
        long capacity = node.allocatable(r);
        if (capacity <= 0) {
          continue;
        }
        long used = node.used(r) + requested;
        if (used > capacity) {
          return 0;
        }
        sum += (double) used * w / capacity;
      }
      return weightSum > 0 ? sum / weightSum * scale : 0;
    }
  }
}
