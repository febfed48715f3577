package io.basalt.app.bench;

import io.basalt.app.bench.WorkloadGenerator.Placement;
import io.basalt.fabric.DomainSpec;
import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import io.basalt.model.Node;
import io.basalt.model.NetworkTopology;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The supernode cluster and workload of issue #10, from a seed: {@code switchboxes} x {@code dragonflies} (per
 * switchbox) x {@code nodesPerDragonfly} MetaX nodes, each with 8 {@value #GPU} (cpu, memory and pods as in
 * {@link WorkloadGenerator}), named for their place ({@code sb2-df7-n042} is node 42 of dragonfly 7 of switchbox 2),
 * and the fabric over them: tier-1 dragonflies inside tier-2 switchboxes, as MetaX's {@code node_group} states it.
 *
 * <p>Work is drawn until the GPUs asked for reach {@code gpuDemandPercent} of the cluster's: 70% single-GPU pods,
 * 15% 8-GPU pods, 10% gangs of 8 and 5% gangs of 16 pods x 8 GPUs (by GPUs about 5%, 8%, 44% and 44%). Every gang
 * pod carries {@code metax-tech.com/gpu-group-size: "64"}, so a group is 8 pods: a gang of 8 is one group, a gang of
 * 16 two. Queues and priorities are drawn as in {@link WorkloadGenerator}.
 */
final class SupernodeGenerator {
  static final String GPU = "metax-tech.com/gpu";
  static final String GPU_GROUP_SIZE = "64";
  static final String GPU_PRODUCT = "MetaX-C500";
  private static final long GI = 1L << 30;

  private final int switchboxes;
  private final int dragonflies;
  private final int nodesPerDragonfly;
  private final long seed;
  private final int gpuDemandPercent;
  private final int queueCount;

  SupernodeGenerator(int switchboxes, int dragonflies, int nodesPerDragonfly, long seed, int gpuDemandPercent,
      int queueCount) {
    if (switchboxes <= 0 || dragonflies <= 0 || nodesPerDragonfly <= 0 || queueCount <= 0) {
      throw new IllegalArgumentException("switchboxes, dragonflies, nodes per dragonfly and queues must be positive");
    }
    this.switchboxes = switchboxes;
    this.dragonflies = dragonflies;
    this.nodesPerDragonfly = nodesPerDragonfly;
    this.seed = seed;
    this.gpuDemandPercent = gpuDemandPercent;
    this.queueCount = queueCount;
  }

  int nodeCount() {
    return switchboxes * dragonflies * nodesPerDragonfly;
  }

  static String switchbox(int sb) {
    return "sb" + sb;
  }

  static String dragonfly(int sb, int df) {
    return switchbox(sb) + "-df" + df;
  }

  String node(int sb, int df, int n) {
    return WorkloadGenerator.pad(dragonfly(sb, df) + "-n", n, Integer.toString(nodesPerDragonfly).length());
  }

  Workload generate() {
    List<Node> nodes = nodes();
    long totalGpus = (long) nodes.size() * WorkloadGenerator.GPUS_PER_NODE;
    long target = totalGpus * gpuDemandPercent / 100;
    SplittableRandom random = new SplittableRandom(seed);
    ResourceVector oneGpu = WorkloadGenerator.request(8_000, 64 * GI, 1, GPU);
    ResourceVector eightGpus = WorkloadGenerator.request(64_000, 512 * GI, 8, GPU);
    Map<String, String> group = Map.of(NetworkTopology.GPU_GROUP_SIZE_ANNOTATION, GPU_GROUP_SIZE);
    List<Workload.Submission> submissions = new ArrayList<>();
    long demand = 0;
    int seq = 0;
    while (demand < target) {
      seq++;
      int kind = random.nextInt(100);
      Placement at = Placement.draw(random, queueCount, seq);
      if (kind < 70) {
        submissions.add(WorkloadGenerator.single(WorkloadGenerator.name("gpu1-", seq), oneGpu, at));
        demand += 1;
      } else if (kind < 85) {
        submissions.add(WorkloadGenerator.single(WorkloadGenerator.name("gpu8-", seq), eightGpus, at));
        demand += 8;
      } else {
        int size = kind < 95 ? 8 : 16;
        submissions.add(WorkloadGenerator.gang(WorkloadGenerator.name("gang" + size + "-", seq), size, eightGpus,
            at, group));
        demand += 8L * size;
      }
    }
    return new Workload(nodes, submissions, WorkloadGenerator.queues(queueCount), totalGpus, demand, GPU);
  }

  private List<Node> nodes() {
    ResourceVector allocatable = WorkloadGenerator.allocatable(GPU);
    List<Node> nodes = new ArrayList<>(nodeCount());
    for (int sb = 1; sb <= switchboxes; sb++) {
      for (int df = 1; df <= dragonflies; df++) {
        for (int n = 1; n <= nodesPerDragonfly; n++) {
          String name = node(sb, df, n);
          Map<String, String> labels = Map.of("kubernetes.io/hostname", name, "gpu.product", GPU_PRODUCT,
              "topology.example.com/switchbox", switchbox(sb), "topology.example.com/dragonfly", "df" + df);
          nodes.add(new Node(name, allocatable, labels, Map.of(), List.of(), false, true));
        }
      }
    }
    return nodes;
  }

  /** Dragonflies (tier 1) of their nodes inside switchboxes (tier 2); a problem found building it is a bug here. */
  Fabric fabric() {
    List<DomainSpec> specs = new ArrayList<>();
    List<String> all = new ArrayList<>();
    for (int sb = 1; sb <= switchboxes; sb++) {
      List<String> children = new ArrayList<>();
      for (int df = 1; df <= dragonflies; df++) {
        List<String> members = new ArrayList<>();
        for (int n = 1; n <= nodesPerDragonfly; n++) {
          members.add(node(sb, df, n));
        }
        all.addAll(members);
        specs.add(new DomainSpec(dragonfly(sb, df), 1, "dragonfly", List.of(), members));
        children.add(dragonfly(sb, df));
      }
      specs.add(new DomainSpec(switchbox(sb), 2, "switchbox", children, List.of()));
    }
    FabricBuilder.Result built = FabricBuilder.build(specs, all);
    if (!built.problems().isEmpty()) {
      throw new IllegalStateException("supernode fabric: " + built.problems());
    }
    return built.fabric();
  }
}
