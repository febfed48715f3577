package io.basalt.plugins.nodeorder;

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
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.plugins.podaffinity.PodAffinity;
import io.basalt.plugins.topologyspread.PodTopologySpread;
import java.util.function.ToDoubleFunction;

/**
 * Volcano's {@code nodeorder}: kube-scheduler's resource scores, each 0..100 times its weight, summed.
 *
 * <ul>
 *   <li>{@code leastrequested.weight} (default 1): LeastAllocated over cpu and memory, spreading pods.
 *   <li>{@code mostrequested.weight} (default 0): MostAllocated over cpu and memory, packing pods.
 *   <li>{@code balancedresource.weight} (default 1): BalancedAllocation over cpu, memory and, for pods that request
 *       it, {@code nvidia.com/gpu} (Volcano configures exactly these three).
 * </ul>
 *
 * <p>"Requested" is the node's used amount plus this pod's request. For least and most requested, like
 * kube-scheduler, a pod that requests no cpu (memory) counts as 100m (200Mi), so best-effort pods still spread;
 * Basalt sees requests per pod, not per container, so the default applies only when the whole pod requests none, and
 * the node's used amount is the plain sum of requests. Balanced allocation uses the plain requests and, as current
 * kube-scheduler does (kubernetes#130260), does not score a pod that requests none of its resources.
 *
 * <p>Preferences normalized across the feasible nodes of a search (Volcano runs these in its batch node order, as
 * kube-scheduler's Score and NormalizeScore; {@link PreferenceScores}), each 0..100 times its weight:
 * <ul>
 *   <li>{@code nodeaffinity.weight} (default 2): the pod's preferred node affinity terms the node matches.
 *   <li>{@code tainttoleration.weight} (default 3): the node's PreferNoSchedule taints the pod does not tolerate,
 *       fewer is better.
 * </ul>
 * Also read, with Volcano's default, and not scored: {@code imagelocality.weight} (1; the node model carries no
 * images).
 *
 * <p>{@code podaffinity.weight} (2): kube-scheduler's InterPodAffinity score ({@code plugins.podaffinity}), normalised
 * across the candidates.
 *
 * <p>{@code podtopologyspread.weight} (2): kube-scheduler's PodTopologySpread score ({@code plugins.topologyspread}),
 * normalised across the candidates. {@code podtopologyspread.defaultConstraints} (Basalt's, default false): spread
 * pods without constraints of their own by kube-scheduler's system defaults (hostname 3, zone 5, ScheduleAnyway), as
 * Volcano always does; off by default so a batch cluster's pods are not spread unasked.
 *
 * <p>GPU nodes: for a pod asking for GPUs (whole or a share) on a node that reports its devices, balanced allocation's
 * GPU fraction is the node's physical devices in use after the pod ({@link DeviceFill}), not {@code nvidia.com/gpu},
 * which a HAMi node advertises as GPUs x 10 vGPU slots (on a node whose devices and {@code nvidia.com/gpu} agree the
 * two are the same for whole GPUs). With {@code gpuPacking: true} (Basalt's GPU configs set it; Volcano has no such
 * argument, so a Volcano config scores as Volcano does) least-requested adds nothing for such a pod: spreading GPU
 * pods leaves no node whole for eight-GPU jobs.
 */
public final class NodeOrderPlugin implements Plugin {
  public static final String NAME = "nodeorder";

  static final String LEAST_REQUESTED_WEIGHT = "leastrequested.weight";
  static final String MOST_REQUESTED_WEIGHT = "mostrequested.weight";
  static final String BALANCED_RESOURCE_WEIGHT = "balancedresource.weight";
  static final String NODE_AFFINITY_WEIGHT = "nodeaffinity.weight";
  static final String POD_AFFINITY_WEIGHT = "podaffinity.weight";
  static final String TAINT_TOLERATION_WEIGHT = "tainttoleration.weight";
  static final String IMAGE_LOCALITY_WEIGHT = "imagelocality.weight";
  static final String POD_TOPOLOGY_SPREAD_WEIGHT = "podtopologyspread.weight";
  static final String POD_TOPOLOGY_SPREAD_DEFAULTS = "podtopologyspread.defaultConstraints";
  /** Basalt's: least-requested does not spread GPU pods over nodes that report their devices. */
  static final String GPU_PACKING = "gpuPacking";

  /** kube-scheduler's {@code DefaultMilliCPURequest}: 100m. */
  static final long DEFAULT_MILLI_CPU_REQUEST = 100;
  /** kube-scheduler's {@code DefaultMemoryRequest}: 200Mi. */
  static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;
  /** The scalar Volcano adds to balanced allocation. */
  static final String BALANCED_GPU = "nvidia.com/gpu";

  private final Weights weights;

  /** The weights, with Volcano's defaults, read once per config. */
  record Weights(int leastRequested, int mostRequested, int balancedResource, int nodeAffinity, int podAffinity,
      int taintToleration, int imageLocality, int podTopologySpread, boolean gpuPacking, boolean spreadDefaults) {
    static Weights read(Arguments args) {
      return new Weights(args.getWeight(LEAST_REQUESTED_WEIGHT, 1), args.getWeight(MOST_REQUESTED_WEIGHT, 0),
          args.getWeight(BALANCED_RESOURCE_WEIGHT, 1), args.getWeight(NODE_AFFINITY_WEIGHT, 2),
          args.getWeight(POD_AFFINITY_WEIGHT, 2), args.getWeight(TAINT_TOLERATION_WEIGHT, 3),
          args.getWeight(IMAGE_LOCALITY_WEIGHT, 1), args.getWeight(POD_TOPOLOGY_SPREAD_WEIGHT, 2),
          args.getBoolean(GPU_PACKING, false), args.getBoolean(POD_TOPOLOGY_SPREAD_DEFAULTS, false));
    }
  }

  NodeOrderPlugin(Weights weights) {
    this.weights = weights;
  }

  public static PluginDescriptor<?> descriptor() {
    return PluginDescriptor.of(NAME, Weights::read, NodeOrderPlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** One registration per score; each scorer is left out when its weight is 0 (and so costs nothing). */
  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    Weights w = weights;
    if (w.leastRequested() != 0 || w.mostRequested() != 0 || w.balancedResource() != 0) {
      // A GPU no pod or node of this session mentions has no slot, and then no pod requests it.
      registrar.addScorer(new Scorer(w.leastRequested(), w.mostRequested(), w.balancedResource(),
          ResourceNames.indexIfKnown(BALANCED_GPU), DeviceFill.resolve(), w.gpuPacking()));
    }
    if (w.nodeAffinity() != 0) {
      registrar.addScorer(new PreferenceScores.NodeAffinity(w.nodeAffinity()));
    }
    if (w.taintToleration() != 0) {
      PreferenceScores.TaintToleration taints = PreferenceScores.TaintToleration.of(w.taintToleration(),
          session.totalsAtOpen().taints());
      if (taints != null) {
        registrar.addScorer(taints);
      }
    }
    if (w.podAffinity() != 0) {
      registrar.addScorer(PodAffinity.scorer(session, registrar, w.podAffinity()));
    }
    PodTopologySpread.addScorer(session, registrar, w.podTopologySpread(), w.spreadDefaults());
  }

  /** The weighted sum; fields only, so scoring a node reads arrays and allocates nothing. */
  static final class Scorer implements PreparedScorer, PodSigner {
    private final int least;
    private final int most;
    private final int balanced;
    private final int gpu;
    private final DeviceFill fill;
    /** Whether least-requested leaves out GPU pods on nodes that report devices ({@link #GPU_PACKING}). */
    private final boolean gpuPacking;

    Scorer(int least, int most, int balanced, int gpu, DeviceFill fill, boolean gpuPacking) {
      this.fill = fill;
      this.gpuPacking = gpuPacking;
      this.least = least;
      this.most = most;
      this.balanced = balanced;
      this.gpu = gpu;
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
     * The request's numbers and whether it asks for GPUs, read once for a search. A pod asking for no GPU gets a
     * {@link CpuMemoryScore}: its score reads only the node's cpu and memory.
     */
    @Override
    public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
      return prepare(task, true);
    }

    /** {@link #forTask}, the cpu-and-memory form allowed or not (tests compare the two). */
    ToDoubleFunction<NodeInfo> prepare(TaskInfo task, boolean cpuMemoryForm) {
      ResourceVector request = task.request();
      long cpuRequest = request.get(ResourceNames.CPU);
      long memRequest = request.get(ResourceNames.MEMORY);
      long cpuCounted = cpuRequest > 0 ? cpuRequest : DEFAULT_MILLI_CPU_REQUEST;
      long memCounted = memRequest > 0 ? memRequest : DEFAULT_MEMORY_REQUEST;
      boolean asksGpu = fill.asksGpu(request);
      long gpuRequest = gpu < 0 ? 0 : request.get(gpu);
      boolean balances = balanced != 0 && (cpuRequest > 0 || memRequest > 0 || gpuRequest > 0);
      Ask ask = new Ask(cpuRequest, memRequest, cpuCounted, memCounted, balances);
      if (cpuMemoryForm && !asksGpu && gpuRequest <= 0) {
        CpuMemoryScore plain = (cpuCapacity, cpuUsed, memCapacity, memUsed) ->
            sum(ask, cpuCapacity, cpuUsed, memCapacity, memUsed, false, Double.NaN);
        return plain;
      }
      return node -> {
        // A GPU pod on a node reporting devices: GPUs balanced by device, and no spreading when packing.
        boolean byDevice = asksGpu && node.gpus() != null;
        boolean gpuPod = byDevice && gpuPacking;
        double gpuFraction = !balances || gpuRequest <= 0 ? Double.NaN
            : byDevice ? Math.min(1.0, fill.after(request, node.gpus(), node.deviceUsage()))
                : KubeScores.fraction(node.used(gpu) + gpuRequest, node.allocatable(gpu));
        return sum(ask, node.allocatable(ResourceNames.CPU), node.used(ResourceNames.CPU),
            node.allocatable(ResourceNames.MEMORY), node.used(ResourceNames.MEMORY), gpuPod, gpuFraction);
      };
    }

    /** What the sum reads of a request, worked out once per search. */
    private record Ask(long cpuRequest, long memRequest, long cpuCounted, long memCounted, boolean balances) {}

    /** The weighted sum on a node with these amounts; {@code gpuFraction} NaN leaves GPUs out of the balance. */
    private double sum(Ask ask, long cpuCapacity, long cpuUsed, long memCapacity, long memUsed, boolean gpuPod,
        double gpuFraction) {
      double total = 0;
      if (least != 0 || most != 0) {
        long cpu = cpuUsed + ask.cpuCounted();
        long mem = memUsed + ask.memCounted();
        if (least != 0 && !gpuPod) {
          total += (double) least * KubeScores.leastAllocated(cpu, cpuCapacity, mem, memCapacity);
        }
        if (most != 0) {
          total += (double) most * KubeScores.mostAllocated(cpu, cpuCapacity, mem, memCapacity);
        }
      }
      if (ask.balances()) {
        total += (double) balanced * KubeScores.balancedAllocation(
            KubeScores.fraction(cpuUsed + ask.cpuRequest(), cpuCapacity),
            KubeScores.fraction(memUsed + ask.memRequest(), memCapacity),
            gpuFraction);
      }
      return total;
    }
  }
}
