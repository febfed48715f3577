package io.basalt.session;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceConstraints;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.ShareSize;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.List;

/**
 * The engine's own device accounting, which no tiers can turn off: on a node that reports its GPUs, a pod gets no more
 * whole devices than are untouched there, never a device its {@code use-gputype}/{@code use-gpuuuid} annotations
 * exclude, and a share only on a device not held whole with compute left for it. Without it a node offering vGPU
 * slots (HAMi: {@code nvidia.com/gpu} = GPUs x 10) took ten whole-GPU pods per GPU whenever {@code gpu-aware} and
 * {@code deviceshare} were left out of the tiers, and nothing said so.
 *
 * <p>The check runs after every plugin filter passed, so {@code gpu-aware}'s and {@code deviceshare}'s reasons, which
 * say more, come first; its own reasons are worded as theirs. It applies to placements that bind now: a task that must wait for releasing pods (pipelined) is checked again
 * when it binds. When no plugin chose devices for a task, {@link #fallback} books the lowest free ones, as a device
 * plugin would hand them out, so later placements in the same cycle see them taken; that booking is the session's
 * accounting only, not written on the pod (the cache assumes the same lowest free devices for a pod bound without
 * a device annotation).
 */
final class DeviceGuard {
  private static final List<String> WHOLE_DOMAINS =
      GpuResources.DEFAULT.stream().map(r -> r.substring(0, r.indexOf('/'))).toList();

  private int[] wholeSlots = new int[0];
  private TaskInfo lastTask;
  private Want lastWant;

  /**
   * What a task asks of a node's devices: {@code whole} devices, or one share of {@code cores} percent and
   * {@code memoryMiB} (0: the whole memory of its device, see {@link ShareSize}).
   */
  private record Want(int whole, boolean share, int cores, long memoryMiB, DeviceConstraints constraints) {}

  private static final Want NOTHING = new Want(0, false, 0, 0, DeviceConstraints.NONE);

  /** Resolves the resource slots once per session (resources are registered as pods are read). */
  void open() {
    wholeSlots = GpuResources.DEFAULT.stream().mapToInt(ResourceNames::indexIfKnown).filter(i -> i >= 0).toArray();
    lastTask = null;
  }

  /** What {@link #check} reads of {@code task}: equal keys get equal verdicts on an unchanged node. */
  Object taskKey(TaskInfo task) {
    return want(task);
  }

  /** {@link #check} for {@code task} across a search; null when the task asks for no device (OK everywhere). */
  java.util.function.Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
    Want want = want(task);
    return want == NOTHING ? null : node -> check(task.request(), want, node);
  }

  /** Whether {@code node}'s devices can take {@code task} now; OK for nodes without a GPU inventory. */
  FilterResult check(TaskInfo task, NodeInfo node) {
    return node.gpus() == null ? FilterResult.OK : check(task.request(), want(task), node);
  }

  /** {@link #check} for a task asking {@code request}, of which it wants {@code want} of the node's devices. */
  private static FilterResult check(ResourceVector request, Want want, NodeInfo node) {
    GpuTopology gpus = node.gpus();
    if (gpus == null || want == NOTHING) {
      return FilterResult.OK;
    }
    if (want.share()) {
      return shareDevice(want, gpus, node.deviceUsage()) >= 0 ? FilterResult.OK
          : FilterResult.unfit("node(s) had no GPU " + matching(want) + "with " + want.cores() + "% compute free");
    }
    if (node.firstShortOfIdle(request) >= 0) {
      return FilterResult.OK; // pipelined: checked again when it binds
    }
    if (node.freeDevices().size() < want.whole()) {
      return FilterResult.unfit("Insufficient free GPU devices");
    }
    if (!want.constraints().isNone() && usable(want, node).size() < want.whole()) {
      return FilterResult.unfit("node(s) had no " + want.whole() + " free GPUs matching "
          + want.constraints().describe());
    }
    return FilterResult.OK;
  }

  /**
   * The devices {@code task} takes on {@code node} when no plugin chose: the lowest free ones it accepts, or
   * {@link DeviceClaim#NONE} when it asks for none or the node reports no GPUs.
   */
  DeviceClaim fallback(TaskInfo task, NodeInfo node) {
    GpuTopology gpus = node.gpus();
    Want want = gpus == null ? NOTHING : want(task);
    if (want == NOTHING) {
      return DeviceClaim.NONE;
    }
    if (want.share()) {
      int d = shareDevice(want, gpus, node.deviceUsage());
      return d < 0 ? DeviceClaim.NONE
          : DeviceClaim.share(d, want.cores(), ShareSize.memoryMiB(want.memoryMiB(), gpus.device(d).memoryMiB()));
    }
    DeviceSet free = usable(want, node);
    return free.size() < want.whole() ? DeviceClaim.NONE : DeviceClaim.whole(free.lowest(want.whole()));
  }

  /**
   * {@code chosen}, a plugin's choice for {@code task} on {@code node}, as the session books it: a share is booked at
   * least at the size its device plugin counts ({@link ShareSize}: the whole memory when the pod names none), and
   * refused (null) when its device cannot take that much, so no chooser can oversubscribe a device. Whole devices
   * and nodes without a GPU inventory pass as chosen.
   */
  DeviceClaim settle(TaskInfo task, NodeInfo node, DeviceClaim chosen) {
    GpuTopology gpus = node.gpus();
    if (chosen == null || !chosen.shared() || gpus == null || chosen.devices().size() != 1) {
      return chosen;
    }
    Want want = want(task);
    int d = chosen.devices().first();
    if (!want.share() || d >= gpus.size()) {
      return chosen;
    }
    int cores = Math.max(chosen.cores(), want.cores());
    long memory = Math.max(chosen.memoryMiB(), ShareSize.memoryMiB(want.memoryMiB(), gpus.device(d).memoryMiB()));
    if (!node.deviceUsage().canShare(d, cores, memory, gpus.device(d).memoryMiB(), Integer.MAX_VALUE)) {
      return null;
    }
    return cores == chosen.cores() && memory == chosen.memoryMiB() ? chosen : DeviceClaim.share(d, cores, memory);
  }

  private static DeviceSet usable(Want want, NodeInfo node) {
    DeviceSet free = node.freeDevices();
    return want.constraints().isNone() ? free : free.and(want.constraints().allowed(node.gpus()));
  }

  /** The lowest device that can take the share, or -1. */
  private static int shareDevice(Want want, GpuTopology gpus, DeviceUsage usage) {
    DeviceSet allowed = want.constraints().isNone() ? null : want.constraints().allowed(gpus);
    for (int d = 0; d < gpus.size(); d++) {
      if ((allowed == null || allowed.contains(d))
          && usage.canShare(d, want.cores(), ShareSize.memoryMiB(want.memoryMiB(), gpus.device(d).memoryMiB()),
              gpus.device(d).memoryMiB(), Integer.MAX_VALUE)) {
        return d;
      }
    }
    return -1;
  }

  private static String matching(Want want) {
    return want.constraints().isNone() ? "" : "matching " + want.constraints().describe() + " ";
  }

  /** The task last asked about: a search asks for one task, node after node. */
  private Want want(TaskInfo task) {
    if (task != lastTask) {
      lastTask = task;
      lastWant = read(task);
    }
    return lastWant;
  }

  private Want read(TaskInfo task) {
    ResourceVector r = task.request();
    if (GpuResources.isShare(r)) {
      boolean metax = ShareSize.metax(r);
      long cores = ShareSize.cores(r);
      long memory = ShareSize.askedMemoryMiB(r); // 0: the whole memory of the device it gets
      String domain = metax ? "metax-tech.com" : "nvidia.com";
      return new Want(0, true, (int) Math.min(cores, 101), memory,
          DeviceConstraints.of(task.pod().annotations(), List.of(domain)));
    }
    long k = 0;
    for (int slot : wholeSlots) {
      k += r.get(slot);
    }
    if (k <= 0) {
      return NOTHING;
    }
    return new Want((int) Math.min(k, GpuAnnotations.MAX_DEVICES + 1), false, 0, 0,
        DeviceConstraints.of(task.pod().annotations(), WHOLE_DOMAINS));
  }
}
