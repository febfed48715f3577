package io.basalt.plugins.gpuaware;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.FilterResult;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PodSigner;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceConstraints;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.model.ResourceNames;

/**
 * Topology-aware GPU placement (the MetaX guide's {@code gpu-aware}): picks the exact GPUs each pod gets, preferring
 * GPUs that talk over the fastest links and leaving the node's remaining free GPUs well connected.
 *
 * <p>For a pod asking for k GPUs on a node with N GPUs, {@link DeviceSelector} finds the free set A maximising
 * {@code V = S(A) - loss.weight * cut(A, R)} (pair scores: SYS 10, NODE 20, PHB 30, PXB 40, PIX 50, 100 per NVLink or
 * MetaXLink lane). The node scores
 * <pre>
 *   100 * (V / M + loss.weight * k * (N - k)) / (k(k-1)/2 + loss.weight * k * (N - k))   (100 when that is 0/0)
 * </pre>
 * times {@code weight}, where M is the node's best pair score: V is mapped from its lowest possible value on this
 * node (every cut pair at M, nothing inside) to its highest (every inside pair at M, nothing cut) onto 0..100. So a
 * node whose free GPUs the pod would use up exactly scores highest, a node left badly fragmented scores low, and
 * the spread between them is wide enough to outweigh spreading scores such as nodeorder's least-requested. The
 * chosen set is what the pod gets ({@code basalt.io/gpu-devices}).
 *
 * <p>A pod may narrow the GPUs it accepts with HAMi's annotations ({@code nvidia.com/use-gputype: "H100"},
 * {@code nouse-gputype}, {@code use-gpuuuid}, {@code nouse-gpuuuid}; see {@link DeviceConstraints}); a node without
 * enough matching free GPUs is filtered with a reason naming the annotation.
 *
 * <p>Arguments: {@code weight} (1), {@code loss.weight} (0.5), {@code gpu.resources} (the whole-GPU resource names,
 * comma-separated; default {@code nvidia.com/gpu,metax-tech.com/gpu}; a node's GPU count for the uniform fallback
 * still comes from these defaults).
 */
public final class GpuAwarePlugin implements Plugin {
  public static final String NAME = "gpu-aware";

  private final double weight;
  private final double lossWeight;
  private final DeviceSelector selector;
  private int[] gpuSlots = new int[0];
  private final java.util.List<String> resources;
  private final java.util.List<String> domains;
  private TaskInfo lastTask;
  private DeviceConstraints lastConstraints = DeviceConstraints.NONE;

  /** The arguments, read once per config. */
  record Settings(double weight, double lossWeight, java.util.List<String> resources) {
    Settings {
      resources = java.util.List.copyOf(resources);
    }

    static Settings read(Arguments args) {
      double weight = args.getDouble("weight", 1);
      double lossWeight = args.getDouble("loss.weight", 0.5);
      if (weight < 0) {
        args.problem("weight", "must not be negative, got " + weight);
      }
      if (lossWeight < 0) {
        args.problem("loss.weight", "must not be negative, got " + lossWeight);
      }
      java.util.List<String> names = new java.util.ArrayList<>();
      for (String r : args.getString("gpu.resources", String.join(",", GpuResources.DEFAULT)).split(",")) {
        if (!r.isBlank()) {
          names.add(r.trim());
        }
      }
      return new Settings(weight, lossWeight, names);
    }
  }

  GpuAwarePlugin(Settings settings) {
    this.weight = settings.weight();
    this.lossWeight = settings.lossWeight();
    this.selector = new DeviceSelector(Math.max(0, lossWeight));
    this.resources = settings.resources();
    this.domains = resources.stream().map(r -> r.contains("/") ? r.substring(0, r.indexOf('/')) : r).toList();
  }

  public static PluginDescriptor<?> descriptor() {
    return PluginDescriptor.of(NAME, Settings::read, GpuAwarePlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    gpuSlots = resources.stream().mapToInt(ResourceNames::indexIfKnown).filter(i -> i >= 0).toArray();
    // Both read the request, the pod's device annotations and the node only.
    registrar.addFilter(PodSigner.signedFilter(this::filter, this::constraints));
    if (weight != 0) { // weight 0 (e.g. config/gpu-cluster.conf): the device choice without a node score
      registrar.addScorer(PodSigner.signedScorer(this::score, this::constraints));
    }
    registrar.addDeviceChooser(this::choose);
  }

  /** Whole GPUs the task asks for; 0 for a share pod, which deviceshare places. */
  private int wanted(TaskInfo task) {
    if (GpuResources.isShare(task.request())) {
      return 0;
    }
    long k = 0;
    for (int slot : gpuSlots) {
      k += task.request().get(slot);
    }
    return (int) Math.min(k, GpuAnnotations.MAX_DEVICES + 1);
  }

  private FilterResult filter(TaskInfo task, NodeInfo node) {
    int k = wanted(task);
    if (k == 0 || node.gpus() == null) {
      return FilterResult.OK;
    }
    if (node.freeDevices().size() < k) {
      return FilterResult.unfit("Insufficient free GPU devices");
    }
    DeviceConstraints c = constraints(task);
    if (!c.isNone() && usable(task, node).size() < k) {
      return FilterResult.unfit("node(s) had no " + k + " free GPUs matching " + c.describe());
    }
    return FilterResult.OK;
  }

  /** Free GPUs of {@code node} the pod accepts (its use-/nouse- annotations). */
  private DeviceSet usable(TaskInfo task, NodeInfo node) {
    DeviceConstraints c = constraints(task);
    return c.isNone() ? node.freeDevices() : node.freeDevices().and(c.allowed(node.gpus()));
  }

  /** The constraints of the task last asked about: one search asks for one task, node after node. */
  private DeviceConstraints constraints(TaskInfo task) {
    if (task != lastTask) {
      lastTask = task;
      lastConstraints = DeviceConstraints.of(task.pod().annotations(), domains);
    }
    return lastConstraints;
  }

  private double score(TaskInfo task, NodeInfo node) {
    int k = wanted(task);
    GpuTopology t = node.gpus();
    if (k == 0 || t == null) {
      return 0;
    }
    DeviceSelector.Choice c = selector.choose(t, usable(task, node), k);
    return c == null ? 0 : weight * normalise(c.value() / Math.max(1, t.maxScore()), k, t.size(), lossWeight);
  }

  /** @param value V divided by the node's best pair score */
  static double normalise(double value, int k, int n, double lossWeight) {
    double floor = lossWeight * k * (n - k);
    double span = k * (k - 1) / 2.0 + floor;
    if (span <= 0) {
      return 100;
    }
    return Math.max(0, Math.min(100, 100 * (value + floor) / span));
  }

  private DeviceClaim choose(TaskInfo task, NodeInfo node) {
    int k = wanted(task);
    if (k == 0 || node.gpus() == null) {
      return null;
    }
    DeviceSelector.Choice c = selector.choose(node.gpus(), usable(task, node), k);
    return c == null ? null : DeviceClaim.whole(c.devices());
  }
}
