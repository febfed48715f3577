package io.basalt.app.bench;

import com.google.gson.stream.JsonWriter;
import io.basalt.cache.ClusterCache;
import io.basalt.dra.ClaimSpec;
import io.basalt.dra.Device;
import io.basalt.dra.DeviceClass;
import io.basalt.dra.DeviceRequest;
import io.basalt.dra.ResourceClaim;
import io.basalt.dra.ResourceSlice;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PodResourceClaim;
import io.basalt.model.ResourceNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The DRA bench's workload ({@code bench --dra}): about PERCENT% of the bench's nodes publish their 8 GPUs as DRA
 * devices of driver {@value #DRIVER} in a ResourceSlice (and no {@code nvidia.com/gpu}), and about PERCENT% of the
 * submissions asking for GPUs ask for the same number of devices through a ResourceClaim per pod, as
 * kube-controller-manager makes from a pod's ResourceClaimTemplate ({@code <pod>-gpu-<suffix>}, in
 * {@code status.resourceClaimStatuses}); gangs included, each member with its own claim. The GPU capacity stays that of
 * the plain bench, split between the two kinds of node. Claims enter the cache with their pods' batch.
 */
final class DraBench {
  static final String DRIVER = "gpu.example.com";
  /** On a node: how many DRA devices it publishes. On a pod: how many devices its claim asks for. */
  static final String DEVICES = "bench.basalt.io/dra-devices";
  /** Apart from the workload's own seed, so the plain mix drawn from a seed stays the same mix. */
  private static final long SALT = 0xd7a_5eedL;

  private DraBench() {}

  /** {@code base} with about {@code percent}% of its GPU nodes and GPU submissions moved to DRA. */
  static Workload withClaims(Workload base, int percent, long seed) {
    int gpu = ResourceNames.index(base.gpuResource());
    List<Node> nodes = new ArrayList<>(base.nodes().size());
    for (int i = 0; i < base.nodes().size(); i++) {
      Node n = base.nodes().get(i);
      long gpus = n.allocatable().get(gpu);
      if (gpus <= 0 || (i + 1L) * percent / 100 == (long) i * percent / 100) { // spread evenly over the nodes
        nodes.add(n);
        continue;
      }
      Map<String, String> labels = new HashMap<>(n.labels());
      labels.put(DEVICES, Long.toString(gpus));
      nodes.add(new Node(n.name(), n.allocatable().without(gpu), labels, n.annotations(), n.taints(),
          n.unschedulable(), n.ready()));
    }
    SplittableRandom random = new SplittableRandom(seed ^ SALT);
    List<Workload.Submission> out = new ArrayList<>(base.submissions().size());
    for (Workload.Submission s : base.submissions()) {
      boolean gpus = s.pods().stream().anyMatch(p -> p.request().get(gpu) > 0);
      if (!gpus || random.nextInt(100) >= percent) {
        out.add(s);
        continue;
      }
      List<Pod> pods = new ArrayList<>(s.pods().size());
      for (Pod p : s.pods()) {
        pods.add(p.request().get(gpu) > 0 ? withClaim(p, gpu) : p);
      }
      PodGroup g = s.podGroup();
      PodGroup group = g == null || g.minResources() == null ? g : new PodGroup(g.namespace(), g.name(),
          g.minMember(), g.minTaskMember(), g.queue(), g.priorityClassName(), g.minResources().without(gpu),
          g.phase(), g.creationTimestamp(), g.inferredFrom(), g.networkTopology(), g.owner());
      out.add(new Workload.Submission(group, pods));
    }
    return new Workload(nodes, out, base.queues(), base.totalGpus(), base.gpuDemand(), base.gpuResource());
  }

  /** The pod asking for its GPUs through a claim of its own, made already. */
  private static Pod withClaim(Pod p, int gpu) {
    Map<String, String> annotations = new HashMap<>(p.annotations());
    annotations.put(DEVICES, Long.toString(p.request().get(gpu)));
    PodResourceClaim claim = new PodResourceClaim("gpu", p.name() + "-gpu-b3nch", "gpu");
    return new Pod(p.uid(), p.namespace(), p.name(), p.schedulerName(), p.nodeName(), p.phase(), p.terminating(),
        p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.request().without(gpu), p.labels(), annotations,
        p.nodeSelector(), p.requiredNodeAffinity(), p.tolerations(), p.creationTimestamp(), p.group(), p.controller(),
        p.containers(), p.constraints().withResourceClaims(List.of(claim)), p.nominatedNodeName());
  }

  /** How many of {@code w}'s pods ask for devices through a claim. */
  static int claimPods(Workload w) {
    int n = 0;
    for (Pod p : w.pods()) {
      n += p.constraints().hasResourceClaims() ? 1 : 0;
    }
    return n;
  }

  /** The device class and every DRA node's slice, into {@code cache}; nothing for a workload without DRA nodes. */
  static void publish(Workload w, ClusterCache cache) {
    boolean any = false;
    for (Node n : w.nodes()) {
      String count = n.labels().get(DEVICES);
      if (count == null) {
        continue;
      }
      any = true;
      List<Device> devices = new ArrayList<>();
      for (int i = 0; i < Integer.parseInt(count); i++) {
        devices.add(new Device("gpu-" + i, Map.of(DRIVER + "/index", (long) i), Map.of()));
      }
      cache.putResourceSlice(new ResourceSlice(n.name() + "-" + DRIVER, DRIVER, n.name(), 1, 1, n.name(), List.of(),
          false, devices));
    }
    if (any) {
      cache.putDeviceClass(new DeviceClass(DRIVER, List.of("device.driver == '" + DRIVER + "'")));
    }
  }

  /** The claim {@code p} uses, as kube-controller-manager makes it from the pod's template; none for other pods. */
  static List<ResourceClaim> claimsOf(Pod p) {
    if (!p.constraints().hasResourceClaims()) {
      return List.of();
    }
    String claim = p.constraints().resourceClaims().get(0).claimName();
    long count = Long.parseLong(p.annotations().get(DEVICES));
    ClaimSpec spec = new ClaimSpec(List.of(DeviceRequest.exactly("gpu", DRIVER, count)), List.of());
    return List.of(new ResourceClaim(p.namespace(), claim, p.uid() + "-claim", spec, null, List.of()));
  }

  /** The comparison's table rows: pods with claims, the plain run's rate, and the ratio. */
  static String rows(BenchResult r, BenchResult plain, int claimPods) {
    return String.format(Locale.ROOT, "%-24s %s%n%-24s %.1f (CPU %.1f)%n%-24s %.3f (%.3f)%n",
        "pods with claims", claimPods + " of " + r.pods(), "plain pods/s", plain.podsPerSecond(),
        plain.podsPerCpuSecond(), "ratio (CPU ratio)", ratio(r.podsPerSecond(), plain.podsPerSecond()),
        ratio(r.podsPerCpuSecond(), plain.podsPerCpuSecond()));
  }

  /** The comparison's JSON fields. */
  static void json(JsonWriter w, BenchResult r, BenchResult plain, int claimPods) throws IOException {
    w.name("claimPods").value(claimPods);
    w.name("plainPodsPerSecond").value(Math.round(plain.podsPerSecond() * 10) / 10.0);
    w.name("plainPodsPerCpuSecond").value(Math.round(plain.podsPerCpuSecond() * 10) / 10.0);
    w.name("ratioToPlain").value(Math.round(ratio(r.podsPerSecond(), plain.podsPerSecond()) * 1000) / 1000.0);
    w.name("cpuRatioToPlain").value(Math.round(ratio(r.podsPerCpuSecond(), plain.podsPerCpuSecond()) * 1000)
        / 1000.0);
  }

  private static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }
}
