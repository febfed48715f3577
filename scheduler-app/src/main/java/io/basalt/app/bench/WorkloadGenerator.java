package io.basalt.app.bench;

import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Builds the benchmark's cluster and workload from a seed; the same arguments always give the same workload.
 *
 * <p>Nodes: every node is an 8-GPU server shaped like a cloud H100/A100 instance: {@code 96} cpu, {@code 1Ti} memory,
 * {@code 8 nvidia.com/gpu}, {@code 110} pods, labelled with its hostname and GPU product. GPU pods ask for a node's
 * share per GPU rounded down (8 cpu and 64Gi per GPU), so GPUs run out before cpu or memory do.
 *
 * <p>Work is drawn one submission at a time until the GPUs requested reach {@code gpuDemandPercent} of the cluster's:
 * <ul>
 *   <li>55%: a single-GPU pod (1 GPU, 8 cpu, 64Gi);
 *   <li>15%: an 8-GPU pod (8 GPUs, 64 cpu, 512Gi), needing a whole free node;
 *   <li>5%: a gang of 2 to 16 pods (uniform) of 8 GPUs each, with a PodGroup (minMember = size, minResources = the
 *       gang's total request) and every pod annotated {@code scheduling.k8s.io/group-name};
 *   <li>25%: a CPU-only pod (500m to 4 cpu, 1Gi to 16Gi).
 * </ul>
 * By GPUs that is about 11% single-GPU pods, 22% 8-GPU pods and 67% gangs; about 1.4 pods per submission, so
 * roughly 2 pods per node at the default 95% demand. Each submission goes to one of {@code queues} weight-1 queues
 * ({@code team-0}, ...) and one in five is high priority ({@value #HIGH_PRIORITY}), so preempt and reclaim have
 * work to do once the cluster saturates.
 */
public final class WorkloadGenerator {
  public static final String NAMESPACE = "bench";
  public static final String SCHEDULER_NAME = "basalt-scheduler";
  public static final String GPU = "nvidia.com/gpu";
  public static final int GPUS_PER_NODE = 8;
  static final String GPU_PRODUCT = "NVIDIA-H100-80GB-HBM3";
  private static final long GI = 1L << 30;
  private static final long EPOCH = 1_700_000_000L;
  static final int HIGH_PRIORITY = 100_000;

  private final int nodeCount;
  private final long seed;
  private final int gpuDemandPercent;
  private final int queueCount;
  private boolean fragmentation;

  public WorkloadGenerator(int nodeCount, long seed, int gpuDemandPercent) {
    this(nodeCount, seed, gpuDemandPercent, 1);
  }

  public WorkloadGenerator(int nodeCount, long seed, int gpuDemandPercent, int queueCount) {
    if (queueCount <= 0) {
      throw new IllegalArgumentException("queues must be positive, got " + queueCount);
    }
    this.queueCount = queueCount;
    if (nodeCount <= 0) {
      throw new IllegalArgumentException("nodes must be positive, got " + nodeCount);
    }
    this.nodeCount = nodeCount;
    this.seed = seed;
    this.gpuDemandPercent = gpuDemandPercent;
  }

  /**
   * The fragmentation mix instead: nodes report an NVLink-pair topology (pairs 0-1, 2-3, 4-5, 6-7 at NV4, the other
   * GPUs of the same socket at NODE, across sockets SYS) and the work is GPU-only: 60% 1-GPU, 15% 2-GPU, 10% 4-GPU,
   * 10% 8-GPU pods and 5% gangs of 2 to 4 pods of 8 GPUs, all of one priority.
   */
  public WorkloadGenerator fragmentationMix() {
    this.fragmentation = true;
    return this;
  }

  /** The topology annotation every node gets in the fragmentation mix. */
  static final String PAIRS_TOPOLOGY = pairsTopology();

  private static String pairsTopology() {
    List<io.basalt.gpu.GpuDevice> devices = new ArrayList<>();
    List<List<String>> links = new ArrayList<>();
    for (int i = 0; i < GPUS_PER_NODE; i++) {
      devices.add(new io.basalt.gpu.GpuDevice(i, "", GPU_PRODUCT, 81_920));
      List<String> row = new ArrayList<>();
      for (int j = 0; j < GPUS_PER_NODE; j++) {
        row.add(i == j ? "X" : i / 2 == j / 2 ? "NV4" : i / 4 == j / 4 ? "NODE" : "SYS");
      }
      links.add(row);
    }
    return io.basalt.gpu.GpuAnnotations.format(devices, links);
  }

  public Workload generate() {
    if (fragmentation) {
      return generateFragmentationMix();
    }
    List<Node> nodes = nodes();
    long totalGpus = (long) nodeCount * GPUS_PER_NODE;
    long target = totalGpus * gpuDemandPercent / 100;
    SplittableRandom random = new SplittableRandom(seed);
    ResourceVector oneGpu = request(8_000, 64 * GI, 1);
    ResourceVector eightGpus = request(64_000, 512 * GI, 8);
    List<Workload.Submission> submissions = new ArrayList<>();
    long demand = 0;
    int seq = 0;
    while (demand < target) {
      seq++;
      int kind = random.nextInt(100);
      Placement at = Placement.draw(random, queueCount, seq);
      if (kind < 55) {
        submissions.add(single(name("gpu1-", seq), oneGpu, at));
        demand += 1;
      } else if (kind < 70) {
        submissions.add(single(name("gpu8-", seq), eightGpus, at));
        demand += 8;
      } else if (kind < 75) {
        int size = random.nextInt(2, 17);
        submissions.add(gang(name("gang-", seq), size, eightGpus, at));
        demand += 8L * size;
      } else {
        long milliCpu = 500L * random.nextInt(1, 9);
        long memory = GI * (1L << random.nextInt(5));
        submissions.add(single(name("cpu-", seq), request(milliCpu, memory, 0), at));
      }
    }
    return new Workload(nodes, submissions, queues(queueCount), totalGpus, demand);
  }

  private Workload generateFragmentationMix() {
    List<Node> nodes = new ArrayList<>();
    for (Node n : nodes()) {
      nodes.add(new Node(n.name(), n.allocatable(), n.labels(),
          Map.of(io.basalt.gpu.GpuAnnotations.TOPOLOGY, PAIRS_TOPOLOGY), n.taints(), false, true));
    }
    long totalGpus = (long) nodeCount * GPUS_PER_NODE;
    long target = totalGpus * gpuDemandPercent / 100;
    SplittableRandom random = new SplittableRandom(seed);
    List<Workload.Submission> submissions = new ArrayList<>();
    long demand = 0;
    int seq = 0;
    while (demand < target) {
      seq++;
      int kind = random.nextInt(100);
      Placement at = new Placement(queueName(random.nextInt(queueCount)), 0, Instant.ofEpochSecond(EPOCH + seq));
      int gpus = kind < 60 ? 1 : kind < 75 ? 2 : kind < 85 ? 4 : 8;
      ResourceVector req = request(8_000L * gpus, 64 * GI * gpus, gpus);
      if (kind < 95) {
        submissions.add(single(name("gpu" + gpus + "-", seq), req, at));
        demand += gpus;
      } else {
        int size = random.nextInt(2, 5);
        submissions.add(gang(name("gang-", seq), size, req, at));
        demand += 8L * size;
      }
    }
    return new Workload(nodes, submissions, queues(queueCount), totalGpus, demand);
  }

  /** Where a submission goes and how it ranks. */
  record Placement(String queue, int priority, Instant created) {
    /** The next submission's queue and priority drawn from {@code random} (queue first), created at {@code seq}. */
    static Placement draw(SplittableRandom random, int queueCount, int seq) {
      return new Placement(queueName(random.nextInt(queueCount)),
          random.nextInt(100) < 20 ? HIGH_PRIORITY : 0, Instant.ofEpochSecond(EPOCH + seq));
    }
  }

  /** {@code count} weight-1 open queues, {@code team-0} and on. */
  static List<Queue> queues(int count) {
    List<Queue> queues = new ArrayList<>();
    for (int q = 0; q < count; q++) {
      queues.add(new Queue(queueName(q), 1, null, null, null, true, 0, null, "Open", Map.of()));
    }
    return queues;
  }

  static String queueName(int q) {
    return "team-" + q;
  }

  /** What every bench node offers: 96 cpu, 1Ti memory, 110 pods and {@value #GPUS_PER_NODE} of {@code gpu}. */
  static ResourceVector allocatable(String gpu) {
    return ResourceVector.builder()
        .add(ResourceNames.CPU, 96_000)
        .add(ResourceNames.MEMORY, 1024 * GI)
        .add(ResourceNames.PODS, 110)
        .add(gpu, GPUS_PER_NODE)
        .build();
  }

  private List<Node> nodes() {
    ResourceVector allocatable = allocatable(GPU);
    List<Node> nodes = new ArrayList<>(nodeCount);
    for (int i = 0; i < nodeCount; i++) {
      String name = pad("gpu-node-", i, 5);
      Map<String, String> labels = Map.of("kubernetes.io/hostname", name, "nvidia.com/gpu.product", GPU_PRODUCT,
          "nvidia.com/gpu.count", Integer.toString(GPUS_PER_NODE));
      nodes.add(new Node(name, allocatable, labels, Map.of(), List.of(), false, true));
    }
    return nodes;
  }

  static String name(String prefix, int seq) {
    return pad(prefix, seq, 6);
  }

  /** {@code prefix} then {@code n} zero-padded to {@code width} digits, so names sort in creation order. */
  static String pad(String prefix, int n, int width) {
    String digits = Integer.toString(n);
    StringBuilder sb = new StringBuilder(prefix.length() + Math.max(width, digits.length())).append(prefix);
    for (int i = digits.length(); i < width; i++) {
      sb.append('0');
    }
    return sb.append(digits).toString();
  }

  private static ResourceVector request(long milliCpu, long memory, int gpus) {
    return request(milliCpu, memory, gpus, GPU);
  }

  /** A pod's request: cpu, memory, one pod slot and {@code gpus} of {@code gpu} (none when 0). */
  static ResourceVector request(long milliCpu, long memory, int gpus, String gpu) {
    ResourceVector.Builder b = ResourceVector.builder()
        .add(ResourceNames.CPU, milliCpu)
        .add(ResourceNames.MEMORY, memory)
        .add(ResourceNames.PODS, 1);
    if (gpus > 0) {
      b.add(gpu, gpus);
    }
    return b.build();
  }

  static Workload.Submission single(String name, ResourceVector request, Placement at) {
    Map<String, String> annotations = Map.of(Pod.QUEUE_NAME_ANNOTATION, at.queue());
    return new Workload.Submission(null, List.of(pod(name, request, annotations, at)));
  }

  private static Workload.Submission gang(String name, int size, ResourceVector request, Placement at) {
    return gang(name, size, request, at, Map.of());
  }

  /** A PodGroup (minMember = size) and its pods, each annotated with the group and {@code extra}. */
  static Workload.Submission gang(String name, int size, ResourceVector request, Placement at,
      Map<String, String> extra) {
    ResourceVector total = ResourceVector.ZERO;
    List<Pod> pods = new ArrayList<>(size);
    Map<String, String> annotations = new HashMap<>(extra);
    annotations.put(Pod.GROUP_NAME_ANNOTATION, name);
    for (int i = 0; i < size; i++) {
      pods.add(pod(pad(name + "-worker-", i, 2), request, annotations, at));
      total = total.plus(request);
    }
    PodGroup pg = new PodGroup(NAMESPACE, name, size, Map.of(), at.queue(), null, total, "Pending", at.created());
    return new Workload.Submission(pg, pods);
  }

  private static Pod pod(String name, ResourceVector request, Map<String, String> annotations, Placement at) {
    return new Pod(NAMESPACE + "-" + name + "-uid", NAMESPACE, name, SCHEDULER_NAME, null, "Pending", false,
        at.priority(), null, null, request, Map.of(), annotations, Map.of(), List.of(), List.of(), at.created());
  }
}
