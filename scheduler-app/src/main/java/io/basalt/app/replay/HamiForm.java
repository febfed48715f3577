package io.basalt.app.replay;

import io.basalt.app.replay.OpenbTrace.TraceNode;
import io.basalt.app.replay.OpenbTrace.TracePod;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuDevice;
import io.basalt.gpu.GpuResources;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The trace in the form a HAMi cluster states it, as a new user would write it (issue 14): a node offers
 * {@code nvidia.com/gpu} = GPUs x {@value #VGPU_SLOTS} vGPU slots and lists its devices and their model in
 * {@code basalt.io/gpu-topology} (links unknown, so uniform PHB); a pod asks for {@code nvidia.com/gpu} = its GPUs,
 * a share adds {@code nvidia.com/gpucores} = its milli-GPU / 10 (percent, rounded up), and a {@code gpu_spec} becomes
 * {@code nvidia.com/use-gputype} (the models, comma-separated).
 */
final class HamiForm {
  static final String SCHEDULER_NAME = "basalt-scheduler";
  static final String NAMESPACE = "openb";
  static final String GPU = GpuResources.DEFAULT.get(0);
  static final String USE_GPUTYPE = "nvidia.com/use-gputype";
  static final int VGPU_SLOTS = 10;
  /** Not a limit of the trace, so high enough never to bind: 8 GPUs of 5% shares plus CPU pods stay far below. */
  static final int MAX_PODS = 1000;
  /** The seconds of the trace are counted from here. */
  static final long EPOCH = 1_700_000_000L;
  private static final long MIB = 1L << 20;

  private HamiForm() {}

  static Node node(TraceNode n) {
    ResourceVector allocatable = ResourceVector.builder()
        .add(ResourceNames.CPU, n.cpuMilli())
        .add(ResourceNames.MEMORY, n.memoryMib() * MIB)
        .add(ResourceNames.PODS, MAX_PODS)
        .add(GPU, (long) n.gpus() * VGPU_SLOTS)
        .build();
    Map<String, String> labels = Map.of("kubernetes.io/hostname", n.name(), "nvidia.com/gpu.product", n.model(),
        "nvidia.com/gpu.count", Integer.toString(n.gpus()));
    return new Node(n.name(), allocatable, labels, Map.of(GpuAnnotations.TOPOLOGY, topology(n.gpus(), n.model())),
        List.of(), false, true);
  }

  /** {@code count} devices of {@code model}, every pair PCIe (PHB): the trace says nothing about links. */
  static String topology(int count, String model) {
    List<GpuDevice> devices = new ArrayList<>();
    List<List<String>> links = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      devices.add(new GpuDevice(i, "", model, 0));
      List<String> row = new ArrayList<>();
      for (int j = 0; j < count; j++) {
        row.add(i == j ? "X" : "PHB");
      }
      links.add(row);
    }
    return GpuAnnotations.format(devices, links);
  }

  /** The pod, pending, with {@code uid} (unique per replayed copy) and created at trace second {@code at}. */
  static Pod pod(TracePod p, String uid, long at) {
    ResourceVector.Builder request = ResourceVector.builder()
        .add(ResourceNames.CPU, p.cpuMilli())
        .add(ResourceNames.MEMORY, p.memoryMib() * MIB)
        .add(ResourceNames.PODS, 1);
    if (p.numGpu() > 0) {
      request.add(GPU, p.numGpu());
    }
    if (p.isShare()) {
      request.add(GpuResources.NVIDIA_CORES, (p.gpuMilli() + 9) / 10);
    }
    Map<String, String> annotations = p.gpuSpec().isEmpty() ? Map.of()
        : Map.of(USE_GPUTYPE, String.join(",", p.gpuSpec().split("\\|")));
    return new Pod(uid, NAMESPACE, uid, SCHEDULER_NAME, null, "Pending", false, 0, null, null, request.build(),
        Map.of(), annotations, Map.of(), List.of(), List.of(), Instant.ofEpochSecond(EPOCH + at));
  }
}
