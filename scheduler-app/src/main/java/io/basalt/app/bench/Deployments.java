package io.basalt.app.bench;

import io.basalt.model.LabelSelector;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodAffinityTerm;
import io.basalt.model.PodConstraints;
import io.basalt.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The constrained bench's workload ({@code bench --constrained}): the bench's nodes spread over zones, and a share of
 * its submissions made into replicas of Deployments that ask what Deployments commonly ask of kube-scheduler. Half
 * of those Deployments want one replica per node (required anti-affinity on the hostname against their own pods);
 * the other half spread their replicas over zones (maxSkew 1, DoNotSchedule) and prefer to spread over nodes
 * (maxSkew 1, ScheduleAnyway). Pods carry the labels a Deployment gives them ({@code app}, {@code pod-template-hash}).
 * The same workload without the constraints, on the same zoned nodes, is the reference the run compares with.
 */
final class Deployments {
  static final String ZONE = "topology.kubernetes.io/zone";
  static final String HOSTNAME = "kubernetes.io/hostname";
  static final int ZONES = 10;
  /** Deployments the constrained submissions are drawn among: few enough that each has many replicas. */
  static final int DEPLOYMENTS = 64;
  /** Apart from the workload's own seed, so the plain mix drawn from a seed stays the same mix. */
  private static final long SALT = 0x5eed_0f_de91L;

  private Deployments() {}

  /** {@code base} on zoned nodes, with no pod constrained: the reference. */
  static Workload zoned(Workload base) {
    return new Workload(zoned(base.nodes()), base.submissions(), base.queues(), base.totalGpus(), base.gpuDemand(),
        base.gpuResource());
  }

  /** {@code base} on zoned nodes, with about {@code percent}% of its submissions made Deployment replicas. */
  static Workload constrained(Workload base, int percent, long seed) {
    SplittableRandom random = new SplittableRandom(seed ^ SALT);
    List<Workload.Submission> out = new ArrayList<>(base.submissions().size());
    for (Workload.Submission s : base.submissions()) {
      if (random.nextInt(100) >= percent) {
        out.add(s);
        continue;
      }
      int deployment = random.nextInt(DEPLOYMENTS);
      List<Pod> pods = new ArrayList<>(s.pods().size());
      for (Pod p : s.pods()) {
        pods.add(replica(p, deployment));
      }
      out.add(new Workload.Submission(s.podGroup(), pods));
    }
    return new Workload(zoned(base.nodes()), out, base.queues(), base.totalGpus(), base.gpuDemand(),
        base.gpuResource());
  }

  /** How many of {@code w}'s pods carry pod affinity terms or spread constraints. */
  static int constrainedPods(Workload w) {
    int n = 0;
    for (Pod p : w.pods()) {
      PodConstraints c = p.constraints();
      if (c.hasPodAffinity() || !c.topologySpread().isEmpty()) {
        n++;
      }
    }
    return n;
  }

  private static Pod replica(Pod pod, int deployment) {
    String app = "deploy-" + deployment;
    Map<String, String> labels = new HashMap<>(pod.labels());
    labels.put("app", app);
    labels.put("pod-template-hash", Integer.toHexString(0x5f00 + deployment));
    LabelSelector own = new LabelSelector(Map.of("app", app), List.of());
    PodConstraints c = deployment % 2 == 0
        ? new PodConstraints(List.of(), List.of(), List.of(), List.of(), List.of(),
            List.of(new PodAffinityTerm(own, null, null, HOSTNAME, null, null)), List.of(), List.of(), List.of())
        : new PodConstraints(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
            List.of(new TopologySpreadConstraint(1, ZONE, TopologySpreadConstraint.DO_NOT_SCHEDULE, own, null, null,
                    null, List.of("pod-template-hash")),
                new TopologySpreadConstraint(1, HOSTNAME, TopologySpreadConstraint.SCHEDULE_ANYWAY, own, null, null,
                    null, List.of("pod-template-hash"))),
            List.of());
    return pod.withLabels(labels).withConstraints(c);
  }

  private static List<Node> zoned(List<Node> nodes) {
    List<Node> out = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      Node n = nodes.get(i);
      Map<String, String> labels = new HashMap<>(n.labels());
      labels.put(ZONE, "zone-" + (i % ZONES));
      out.add(new Node(n.name(), n.allocatable(), labels, n.annotations(), n.taints(), n.unschedulable(), n.ready()));
    }
    return out;
  }
}
