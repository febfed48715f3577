package io.basalt.plugins.deviceshare;

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
import io.basalt.model.ResourceNames;
import java.util.Arrays;
import java.util.List;

/**
 * Fractional GPUs: several pods share one GPU, each with a slice of its compute and memory (MetaX sGPU, HAMi on
 * NVIDIA).
 *
 * <p>A <em>share pod</em> requests any of {@code metax-tech.com/sgpu} (count), {@code metax-tech.com/vcore} (percent
 * of one GPU's compute), {@code metax-tech.com/vmemory} (GiB), or {@code nvidia.com/gpucores} (percent) /
 * {@code nvidia.com/gpumem} (MiB) next to {@code nvidia.com/gpu}. It gets one device: its count ({@code sgpu}, or
 * {@code nvidia.com/gpu} for HAMi) must be at most 1, its compute at most 100, and it must not mix MetaX and NVIDIA
 * names; otherwise every node rejects it with a reason saying so. A share is sized as its device plugin counts it
 * ({@code ShareSize}): memory left out is the device's whole memory (HAMi and MetaX alike), compute left out is none
 * on NVIDIA and the whole device on MetaX. Pods
 * without share resources are not this plugin's: it neither filters nor scores them, and its chooser returns null so
 * {@code gpu-aware} (or nothing) picks their whole GPUs.
 *
 * <p>A device can take the share when no pod holds it whole, it has fewer than maxShares sharers, the sharers'
 * compute plus this one's is at most 100, and their memory plus this one's is at most the device's memory (a device
 * whose memory is unknown, 0, as on a node without a topology annotation, is limited by compute and share count
 * only). maxShares is {@code deviceshare.maxShares} when set above 0; else the node's allocatable share count
 * ({@code sgpu} for MetaX pods, {@code nvidia.com/gpu}, HAMi's vGPU slots, for NVIDIA pods) divided by its device
 * count, at least 1. HAMi's {@code use-/nouse-gputype} and {@code use-/nouse-gpuuuid} annotations of the pod's
 * domain narrow the devices (see {@link DeviceConstraints}). Whole-GPU pods take only devices no one shares
 * ({@code NodeInfo.freeDevices()}), so the two kinds never meet on a device.
 *
 * <p>Among the devices that fit, {@code binpack} (default) picks the fullest and {@code spread} the emptiest, by
 * fullness = (1 if the device already has sharers) + the largest of its compute, memory and share-count fractions
 * with this pod added; ties go to the lowest index. The node scores {@code 50 * fullness} of that device under
 * binpack and {@code 100 - 50 * fullness} under spread (0..100), times {@code deviceshare.weight}: binpack prefers
 * nodes whose devices are already shared and fuller, spread the opposite. A node with no fitting device is filtered
 * ("node(s) had no GPU with 30% compute and 4Gi memory free", naming the annotations when the pod set any). The
 * chosen device is the pod's {@code DeviceClaim.share}, recorded in the statement and written as
 * {@code basalt.io/gpu-devices}.
 *
 * <p>The per-device resources ({@code vcore}, {@code vmemory}, {@code gpucores}, {@code gpumem}) are left out of the
 * engine's node-level fit, since nodes seldom list them; {@code sgpu} and {@code nvidia.com/gpu} stay counted there.
 *
 * <p>Arguments: {@code deviceshare.policy} (binpack | spread), {@code deviceshare.maxShares} (0: from the node),
 * {@code deviceshare.weight} (1), and the resource names {@code deviceshare.sgpu}, {@code deviceshare.vcore},
 * {@code deviceshare.vmemory}, {@code deviceshare.gpu}, {@code deviceshare.gpucores}, {@code deviceshare.gpumem}
 * (defaults as above).
 */
public final class DeviceSharePlugin implements Plugin {
  public static final String NAME = "deviceshare";
  static final String MAX_SHARES = "deviceshare.maxShares";
  static final String WEIGHT = "deviceshare.weight";

  private final ShareResources resources;
  private final SharePolicy policy;
  private final int maxShares;
  private final int weight;
  private TaskInfo lastTask;
  private ShareRequest lastRequest;
  private DeviceConstraints lastConstraints = DeviceConstraints.NONE;

  /** Everything the arguments say, read once per config. */
  record Settings(ShareResources resources, SharePolicy policy, int maxShares, int weight) {
    static Settings read(Arguments args) {
      ShareResources resources = ShareResources.from(args);
      SharePolicy policy = SharePolicy.from(args);
      int max = args.getInt(MAX_SHARES, 0);
      if (max < 0) {
        args.problem(MAX_SHARES, "must be at least 1 (or 0 for the node's own count), got " + max);
        max = 0;
      }
      return new Settings(resources, policy, max, args.getWeight(WEIGHT, 1));
    }
  }

  DeviceSharePlugin(Settings settings) {
    this.resources = settings.resources();
    this.policy = settings.policy();
    this.maxShares = settings.maxShares();
    this.weight = settings.weight();
  }

  public static PluginDescriptor<?> descriptor() {
    return PluginDescriptor.of(NAME, Settings::read, DeviceSharePlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    registrar.addDeviceResources(resources.perDevice());
    // Both read the share asked for, the pod's device annotations and the node only.
    registrar.addFilter(PodSigner.signedFilter(this::filter, this::shareKey));
    if (weight != 0) { // weight 0: the filter and the device choice without a node score
      registrar.addScorer(PodSigner.signedScorer(this::score, this::shareKey));
    }
    registrar.addDeviceChooser(this::choose);
  }

  private FilterResult filter(TaskInfo task, NodeInfo node) {
    ShareRequest r = request(task);
    if (r == null) {
      return FilterResult.OK;
    }
    if (r.problem() != null) {
      return FilterResult.unfit(r.problem());
    }
    if (node.gpus() == null || node.gpus().size() == 0) {
      return FilterResult.unfit("node(s) had no GPU devices to share");
    }
    if (pick(task, node, r) != null) {
      return FilterResult.OK;
    }
    String matching = lastConstraints.isNone() ? "" : "matching " + lastConstraints.describe() + " ";
    return FilterResult.unfit("node(s) had no GPU " + matching + "with " + r.describe() + " free");
  }

  private double score(TaskInfo task, NodeInfo node) {
    ShareRequest r = request(task);
    if (r == null || r.problem() != null || node.gpus() == null) {
      return 0;
    }
    ShareFit.Pick p = pick(task, node, r);
    if (p == null) {
      return 0;
    }
    double s = policy == SharePolicy.BINPACK ? 50 * p.fullness() : 100 - 50 * p.fullness();
    return weight * Math.max(0, Math.min(100, s));
  }

  private DeviceClaim choose(TaskInfo task, NodeInfo node) {
    ShareRequest r = request(task);
    if (r == null || r.problem() != null || node.gpus() == null) {
      return null;
    }
    ShareFit.Pick p = pick(task, node, r);
    return p == null ? null
        : DeviceClaim.share(p.device(), r.cores(), r.memoryOn(node.gpus().device(p.device()).memoryMiB()));
  }

  private ShareFit.Pick pick(TaskInfo task, NodeInfo node, ShareRequest r) {
    DeviceSet allowed = lastConstraints.isNone() ? null : lastConstraints.allowed(node.gpus());
    return ShareFit.pick(node.gpus(), node.deviceUsage(), r, allowed, maxShares(node, r), policy);
  }

  /** {@code deviceshare.maxShares}, else the node's allocatable share count per device, at least 1. */
  private int maxShares(NodeInfo node, ShareRequest r) {
    if (maxShares > 0) {
      return maxShares;
    }
    int slot = ResourceNames.indexIfKnown(r.countResource());
    long slots = slot < 0 ? 0 : node.allocatable(slot);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, slots / Math.max(1, node.gpus().size())));
  }

  /** The share and constraints of the task last asked about: one node search asks for one task, node after node. */
  /** What {@link #filter} and {@link #score} read of {@code task}: the share and the device constraints. */
  private Object shareKey(TaskInfo task) {
    return Arrays.asList(request(task), lastConstraints);
  }

  private ShareRequest request(TaskInfo task) {
    if (task != lastTask) {
      lastTask = task;
      lastRequest = resources.requestOf(task);
      lastConstraints = lastRequest == null ? DeviceConstraints.NONE
          : DeviceConstraints.of(task.pod().annotations(), List.of(lastRequest.domain()));
    }
    return lastRequest;
  }
}
