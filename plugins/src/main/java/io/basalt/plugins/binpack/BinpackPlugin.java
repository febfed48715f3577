package io.basalt.plugins.binpack;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.CpuMemoryScore;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedScorer;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.gpu.DeviceFill;
import io.basalt.gpu.GpuResources;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

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
 * {@code binpack.resources.<name>} (1). A Volcano config scores exactly as in Volcano, but for GPUs by device (below).
 *
 * <p>GPUs by device, unlike Volcano: when a pod asks for GPUs (whole, or a share such as HAMi's {@code gpucores}) and
 * the node reports its devices, the GPU term is the fraction of the node's physical devices in use after the pod
 * ({@link DeviceFill}: {@code n} devices for {@code n} whole GPUs, a share its compute fraction of one), not of
 * {@code nvidia.com/gpu}, which a HAMi node advertises as GPUs x 10 vGPU slots (eight whole-GPU pods fill an 8-GPU node
 * but use 8 of its 80 slots). On a node whose devices and {@code nvidia.com/gpu} agree, a whole-GPU pod's term is
 * Volcano's. Overflow of any resource still scores 0.
 *
 * <p>Basalt's GPU packing, with {@code binpack.gpuPacking: true} (Basalt's GPU configs set it): {@value #NVIDIA_GPU}
 * and {@value #METAX_GPU} are weighted even when not listed (their weight keys are read), and for a GPU pod on a node
 * with devices the GPU term decides while the other weighted resources break ties: their weights are scaled by
 * {@value #TIE_BREAK}, so they only order nodes the pod leaves equally (to about a thousandth) full of GPUs. A GPU pod
 * then goes to the node it leaves fullest in GPUs, not to one whose cpu it fills while GPUs stay unused there
 * (stranded once the cpu runs out). Pods without GPUs, and nodes without a device inventory, score as in Volcano.
 */
public final class BinpackPlugin implements Plugin {
  public static final String NAME = "binpack";

  static final String WEIGHT = "binpack.weight";
  static final String CPU = "binpack.cpu";
  static final String MEMORY = "binpack.memory";
  static final String RESOURCES = "binpack.resources";
  static final String RESOURCES_PREFIX = RESOURCES + ".";
  /** Basalt's: GPUs weighted unlisted, and the GPU term deciding for GPU pods on nodes with devices. */
  static final String GPU_PACKING = "binpack.gpuPacking";

  static final String NVIDIA_GPU = "nvidia.com/gpu";
  static final String METAX_GPU = "metax-tech.com/gpu";
  static final List<String> DEFAULT_GPUS = List.of(NVIDIA_GPU, METAX_GPU);
  /**
   * What cpu, memory and other non-GPU weights count for a GPU pod on a node with devices: small enough that they only
   * order nodes the pod leaves equally full of GPUs (larger weights tried on the openb replay packed no better;
   * docs/BENCHMARKS-HISTORY.md).
   */
  static final double TIE_BREAK = 0.001;

  private final int weight;
  /** Weighted resources by name, cpu and memory first; names resolve to slots when a session opens. */
  private final Map<String, Integer> resourceWeights;
  private final boolean gpuPacking;

  /** The plugin weight, the resource weights in order and the GPU packing switch, read once per config. */
  record Settings(int weight, Map<String, Integer> resourceWeights, boolean gpuPacking) {
    Settings {
      resourceWeights = Collections.unmodifiableMap(new LinkedHashMap<>(resourceWeights));
    }
  }

  BinpackPlugin(Settings settings) {
    this.weight = settings.weight();
    this.resourceWeights = settings.resourceWeights();
    this.gpuPacking = settings.gpuPacking();
  }

  public static PluginDescriptor<?> descriptor() {
    return PluginDescriptor.of(NAME, BinpackPlugin::read, BinpackPlugin::new);
  }

  private static Settings read(Arguments args) {
    int weight = args.getWeight(WEIGHT, 1);
    Map<String, Integer> weights = new LinkedHashMap<>();
    weights.put(ResourceNames.CPU_NAME, args.getWeight(CPU, 1));
    weights.put(ResourceNames.MEMORY_NAME, args.getWeight(MEMORY, 1));
    boolean gpuPacking = args.getBoolean(GPU_PACKING, false);
    List<String> listed = List.of(args.getString(RESOURCES, "").split(",")).stream().map(String::trim).toList();
    for (String gpu : DEFAULT_GPUS) {
      // Read either way, so a weight for a GPU left unlisted is not an unknown key; Volcano then ignores it.
      int w = args.getWeight(RESOURCES_PREFIX + gpu, 1);
      if (gpuPacking || listed.contains(gpu)) {
        weights.put(gpu, w);
      }
    }
    for (String name : listed) {
      String r = name.trim();
      // cpu and memory have their own keys; a name listed twice keeps its one weight.
      if (!r.isEmpty() && !weights.containsKey(r)) {
        weights.put(r, args.getWeight(RESOURCES_PREFIX + r, 1));
      }
    }
    return new Settings(weight, weights, gpuPacking);
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
    boolean[] gpu = new boolean[n];
    for (int i = 0; i < n; i++) {
      gpu[i] = GpuResources.DEFAULT.contains(ResourceNames.name(slots[i]));
    }
    registrar.addScorer(new Scorer(weight, Arrays.copyOf(slots, n), Arrays.copyOf(weights, n), gpu,
        DeviceFill.resolve(), gpuPacking ? TIE_BREAK : 1));
  }

  /**
   * Volcano's BinPackingScore over precomputed slots and weights, GPUs counted by device where the node reports them;
   * allocates nothing.
   */
  static final class Scorer implements PreparedScorer, PodSigner {
    private final double scale;
    private final int[] slots;
    private final int[] weights;
    /** Per slot: a whole-GPU resource, measured by device on nodes that report theirs. */
    private final boolean[] gpu;
    /** The largest GPU weight: the device term's weight for a share that names no GPU resource (MetaX sgpu). */
    private final int maxGpuWeight;
    private final DeviceFill fill;
    /** What the other weights count for next to the GPU term: {@link #TIE_BREAK} when packing GPUs, else 1. */
    private final double others;

    Scorer(int binpackWeight, int[] slots, int[] weights, boolean[] gpu, DeviceFill fill, double others) {
      this.others = others;
      this.scale = 100.0 * binpackWeight;
      this.slots = slots;
      this.weights = weights;
      this.gpu = gpu;
      this.fill = fill;
      int max = 0;
      for (int i = 0; i < slots.length; i++) {
        max = gpu[i] ? Math.max(max, weights[i]) : max;
      }
      this.maxGpuWeight = max;
    }

    /** The score reads the request and the node's own state only. */
    @Override
    public Object sign(TaskInfo task) {
      return task.request();
    }

    @Override
    public double score(TaskInfo task, NodeInfo node) {
      return forTask(task).applyAsDouble(node);
    }

    /**
     * The request's weighted slots and whether it asks for GPUs, read once for a search. A request weighing only cpu
     * and memory gets a {@link CpuMemoryScore}: its score reads only the node's cpu and memory.
     */
    @Override
    public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
      return prepare(task, true);
    }

    /** {@link #forTask}, the cpu-and-memory form allowed or not (tests compare the two). */
    ToDoubleFunction<NodeInfo> prepare(TaskInfo task, boolean cpuMemoryForm) {
      ResourceVector request = task.request();
      int n = 0;
      int[] asked = new int[slots.length];
      long[] amounts = new long[slots.length];
      for (int i = 0; i < slots.length; i++) {
        long requested = request.get(slots[i]);
        if (requested > 0) {
          asked[n] = i;
          amounts[n++] = requested;
        }
      }
      int count = n;
      boolean asksGpu = maxGpuWeight > 0 && fill.asksGpu(request);
      if (cpuMemoryForm && !asksGpu) {
        CpuMemoryScore plain = cpuMemory(asked, amounts, count);
        if (plain != null) {
          return plain;
        }
      }
      return node -> {
        boolean byDevice = asksGpu && node.gpus() != null;
        double sum = 0;
        long weightSum = 0;
        long gpuWeight = 0;
        for (int k = 0; k < count; k++) {
          int i = asked[k];
          int w = weights[i];
          if (byDevice && gpu[i]) {
            gpuWeight += w;
            continue;
          }
          weightSum += w;
          int r = slots[i];
          long capacity = node.allocatable(r);
          if (capacity <= 0) {
            continue;
          }
          long used = node.used(r) + amounts[k];
          if (used > capacity) {
            return 0;
          }
          sum += (double) used * w / capacity;
        }
        if (!byDevice) {
          return weightSum > 0 ? sum / weightSum * scale : 0;
        }
        double devices = fill.after(request, node.gpus(), node.deviceUsage());
        if (devices > 1 + 1e-9) {
          return 0;
        }
        double g = gpuWeight > 0 ? gpuWeight : maxGpuWeight;
        return (g * devices + others * sum) / (g + others * weightSum) * scale;
      };
    }

    /**
     * The score of a request whose weighted slots ({@code asked}, in slot order, with their {@code amounts}) are cpu
     * or memory only, as the general form adds it up (cpu first); null for any other request.
     */
    private CpuMemoryScore cpuMemory(int[] asked, long[] amounts, int count) {
      long cpuAmount = 0;
      long memAmount = 0;
      int cpuWeight = 0;
      int memWeight = 0;
      for (int k = 0; k < count; k++) {
        int slot = slots[asked[k]];
        if (slot == ResourceNames.CPU) {
          cpuAmount = amounts[k];
          cpuWeight = weights[asked[k]];
        } else if (slot == ResourceNames.MEMORY) {
          memAmount = amounts[k];
          memWeight = weights[asked[k]];
        } else {
          return null;
        }
      }
      long cpuAsked = cpuAmount;
      long memAsked = memAmount;
      int cpuW = cpuWeight;
      int memW = memWeight;
      long weightSum = cpuWeight + memWeight;
      return (cpuCapacity, cpuUsed, memCapacity, memUsed) -> {
        double sum = 0;
        if (cpuW > 0 && cpuCapacity > 0) {
          long used = cpuUsed + cpuAsked;
          if (used > cpuCapacity) {
            return 0;
          }
          sum += (double) used * cpuW / cpuCapacity;
        }
        if (memW > 0 && memCapacity > 0) {
          long used = memUsed + memAsked;
          if (used > memCapacity) {
            return 0;
          }
          sum += (double) used * memW / memCapacity;
        }
        return weightSum > 0 ? sum / weightSum * scale : 0;
      };
    }
  }
}
