package io.basalt.kube.kueue;

import io.basalt.fabric.FabricBuilder;
import io.basalt.kube.gang.GroupInference;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.provisioning.ClusterRoom;
import io.basalt.kube.provisioning.ConsumeGate;
import io.basalt.kube.provisioning.NewRequest;
import io.basalt.kube.provisioning.ProvisioningState;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Kueue's admission, played by the simulator over a cluster read from manifests. Each workload naming a LocalQueue
 * ({@link Workload}) is admitted whole or not at all:
 *
 * <ul>
 *   <li>{@link KueueMode#INSTEAD}: workloads already running are charged to their ClusterQueue at the flavor their
 *       nodes carry; the others, by priority then age ({@code StrictFIFO}: a queue's head that does not fit blocks
 *       the rest of that queue), get for each resource group the first flavor in order whose quota holds the whole
 *       workload ({@code flavorFungibility.whenCanBorrow: TryNextFlavor} prefers a later flavor that fits without
 *       borrowing) and whose nodes the pods may use (their node selector and tolerations against the flavor's labels
 *       and taints). An admitted workload's pods join the ClusterQueue's Basalt queue, get the flavor's node labels
 *       as node selector and its tolerations, as Kueue writes them into a Job it unsuspends, and form one gang of all
 *       of them. A workload not admitted keeps its pods behind the scheduling gate {@value #ADMISSION_GATE}, with a
 *       warning naming why.
 *   <li>{@link KueueMode#ALONGSIDE}: Kueue admits. A suspended workload starts nothing; an unsuspended one is one gang
 *       in Basalt's default queue, where Kueue's quota is not enforced again.
 * </ul>
 *
 * Without any Kueue object in the manifests nothing changes but that a suspended Job starts nothing. Kept apart from
 * the adapters ({@code kinds.kueue}), as gang inference is: it reads engine records only.
 */
public final class KueueAdmission {
  /**
   * Marks the pods of a suspended workload naming a Kueue queue, expanded only so that admission may start them; the
   * value is the workload's note for when it stays suspended. Never seen outside the simulator.
   */
  public static final String SUSPENDED = "basalt.io/expanded-while-suspended";
  /** The scheduling gate Kueue holds a pod behind until its workload is admitted. */
  public static final String ADMISSION_GATE = "kueue.x-k8s.io/admission";

  /**
   * What admission made of a cluster: its pods (admitted ones changed, held ones gated or gone), its queues with the
   * ClusterQueues' and cohorts' added, and one warning per workload not admitted or field not supported.
   */
  public record Result(List<Pod> pods, List<Queue> queues, List<String> warnings) {}

  /** The cluster's objects admission reads. */
  public record Cluster(List<Pod> pods, List<Queue> queues, List<Node> nodes, List<OwnerObject> owners,
      List<PriorityClass> priorityClasses, List<KueueRecord> kueue) {}

  private final Cluster in;
  private final KueueMode mode;
  private final List<String> warnings = new ArrayList<>();
  private final Map<String, KueueRecord.Flavor> flavors = new LinkedHashMap<>();
  private final Map<String, KueueRecord.ClusterQueue> clusterQueues = new LinkedHashMap<>();
  private final Map<String, KueueRecord.LocalQueue> localQueues = new LinkedHashMap<>();
  private final Map<String, KueueRecord.Cohort> cohorts = new LinkedHashMap<>();
  private final Map<String, Integer> priorities = new HashMap<>();
  private final Map<String, KueueRecord.AdmissionCheck> checks = new HashMap<>();
  private final Map<String, KueueRecord.ProvisioningConfig> configs = new HashMap<>();
  private final Map<String, KueueRecord.ProvisioningRequest> requests = new HashMap<>();
  /** The pods to replace (by identity) and what replaces them; null drops the pod. */
  private final Map<Pod, Pod> replaced = new IdentityHashMap<>();
  /** Workloads whose ProvisioningRequest is provisioned: the consume annotations their pods get. */
  private final Map<Workload, Map<String, String>> provisioned = new IdentityHashMap<>();

  private KueueAdmission(Cluster in, KueueMode mode) {
    this.in = in;
    this.mode = mode;
  }

  /** {@code in} as admitted in {@code mode}; null when it holds nothing of Kueue's (nothing changes). */
  public static Result apply(Cluster in, KueueMode mode) {
    boolean marked = in.pods().stream().anyMatch(p -> p.annotations().containsKey(SUSPENDED)
        || ConsumeGate.requestOf(p) != null);
    if (in.kueue().isEmpty() && !marked) {
      return null;
    }
    return new KueueAdmission(in, mode).run();
  }

  /**
   * The network fabric Kueue's {@code Topology} states (its levels as node labels, widest first), or null when
   * {@code kueue} holds none; a second Topology is warned about in {@code warnings}.
   */
  public static Function<List<Node>, FabricBuilder.Result> fabricSource(
      List<KueueRecord> kueue, List<String> warnings) {
    return KueueTopology.source(kueue, warnings);
  }

  private Result run() {
    for (KueueRecord r : in.kueue()) {
      if (!r.unsupported().isEmpty()) {
        warnings.add("Kueue: " + r.display() + ": not supported, ignored: " + String.join(", ", r.unsupported()));
      }
      if (r instanceof KueueRecord.Flavor f) {
        flavors.put(f.name(), f);
      } else if (r instanceof KueueRecord.ClusterQueue q) {
        clusterQueues.put(q.name(), q);
      } else if (r instanceof KueueRecord.LocalQueue q) {
        localQueues.put(q.key(), q);
      } else if (r instanceof KueueRecord.Cohort c) {
        cohorts.put(c.name(), c);
      } else if (r instanceof KueueRecord.PriorityClass p) {
        priorities.put(p.name(), p.value());
      } else if (r instanceof KueueRecord.AdmissionCheck c) {
        checks.put(c.name(), c);
      } else if (r instanceof KueueRecord.ProvisioningConfig c) {
        configs.put(c.name(), c);
      } else if (r instanceof KueueRecord.ProvisioningRequest q) {
        requests.put(q.key(), q);
      }
    }
    List<Workload> workloads = Workload.of(in.pods(), in.owners(), in.priorityClasses(), priorities);
    List<Queue> queues = new ArrayList<>(in.queues());
    boolean kueueObjects = !clusterQueues.isEmpty() || !localQueues.isEmpty();
    if (mode == KueueMode.ALONGSIDE || !kueueObjects) {
      for (Workload w : workloads) {
        if (w.suspended()) {
          hold(w, mode == KueueMode.ALONGSIDE ? "Kueue unsuspends it when it admits it"
              : "Kueue or a user would unsuspend it (no Kueue ClusterQueue or LocalQueue in the manifests)", true);
        } else if (kueueObjects) {
          admit(w, Queue.DEFAULT, List.of());
        }
      }
    } else {
      Set<String> existing = new HashSet<>();
      in.queues().forEach(q -> existing.add(q.name()));
      queues.addAll(KueueQueues.of(clusterQueues, cohorts, existing, warnings));
      admitAll(workloads);
    }
    List<Pod> pods = new ArrayList<>();
    for (Pod p : in.pods()) {
      Pod r = replaced.containsKey(p) ? replaced.get(p) : p;
      if (r != null) {
        pods.add(consuming(r));
      }
    }
    return new Result(pods, queues, warnings);
  }

  /** A pod consuming a ProvisioningRequest that is not provisioned waits behind {@link ConsumeGate#GATE}. */
  private Pod consuming(Pod p) {
    String req = ConsumeGate.requestOf(p);
    if (req == null || p.isAssigned()) {
      return p;
    }
    KueueRecord.ProvisioningRequest r = requests.get(req);
    ProvisioningState state = r == null ? null : r.state();
    if (state != ProvisioningState.PROVISIONED) {
      warnings.add(ConsumeGate.why(p, state, r == null ? null : r.message()));
    }
    return ConsumeGate.apply(p, state);
  }

  private void admitAll(List<Workload> workloads) {
    Quotas quotas = new Quotas(clusterQueues, cohorts);
    Map<String, Node> nodes = new HashMap<>();
    in.nodes().forEach(n -> nodes.put(n.name(), n));
    List<Workload> pending = new ArrayList<>();
    for (Workload w : workloads) {
      KueueRecord.ClusterQueue cq = clusterQueueOf(w);
      if (cq != null && w.running()) {
        charge(quotas, cq, w, runningFlavors(cq, w, nodes));
        admit(w, cq.name(), List.of());
      } else {
        pending.add(w);
      }
    }
    pending.sort(Comparator.comparingInt(Workload::priority).reversed()
        .thenComparing(Workload::created, Comparator.nullsLast(Comparator.naturalOrder()))
        .thenComparing(Workload::key));
    Map<String, String> blocked = new HashMap<>();
    for (Workload w : pending) {
      KueueRecord.LocalQueue lq = localQueues.get(w.namespace() + "/" + w.localQueue());
      KueueRecord.ClusterQueue cq = clusterQueueOf(w);
      if (lq == null) {
        hold(w, "LocalQueue " + w.namespace() + "/" + w.localQueue() + " does not exist", false);
      } else if (cq == null) {
        hold(w, "ClusterQueue " + lq.clusterQueue() + " of " + lq.display() + " does not exist", false);
      } else if (lq.stopped() || cq.stopped()) {
        hold(w, (lq.stopped() ? lq.display() : cq.display()) + " is stopped (stopPolicy)", false);
      } else if (blocked.containsKey(cq.name())) {
        hold(w, "StrictFIFO " + cq.display() + " waits for " + blocked.get(cq.name()) + " first", false);
      } else {
        FlavorChoice.Assignment a = assign(quotas, cq, w);
        if (a.reason() != null) {
          hold(w, a.reason(), false);
          if (cq.strictFifo()) {
            blocked.put(cq.name(), w.key());
          }
        } else {
          charge(quotas, cq, w, a.flavors());
          String unrun = ProvisioningCheck.problem(cq, checks, configs);
          if (unrun != null) {
            hold(w, unrun, false);
            continue;
          }
          String waits = provisioning(cq, w, a.flavors());
          if (waits != null) {
            hold(w, waits, false);
          } else {
            admit(w, cq.name(), a.flavors());
          }
        }
      }
    }
  }

  /**
   * Kueue's provisioning check for a workload admitted by quota: null when it may start (no check, nothing the
   * config manages, room on the cluster's nodes now, or its request provisioned in the manifests, whose pods then
   * consume it); else why it waits for the ProvisioningRequest Basalt would create live.
   */
  private String provisioning(KueueRecord.ClusterQueue cq, Workload w, List<KueueRecord.FlavorQuotas> chosen) {
    if (cq.admissionChecks().isEmpty() || w.pods().isEmpty()) {
      return null;
    }
    String check = cq.admissionChecks().get(0);
    KueueRecord.ProvisioningConfig config = configs.get(checks.get(check).config());
    Pod first = w.pods().get(0);
    Map<String, Long> one = new LinkedHashMap<>();
    first.request().toMap().forEach((k, v) -> {
      if (!k.equals(io.basalt.model.ResourceNames.PODS_NAME) && v > 0) {
        one.put(k, v);
      }
    });
    if (!config.managedResources().isEmpty()
        && config.managedResources().stream().noneMatch(r -> one.getOrDefault(r, 0L) > 0)) {
      return null;
    }
    Map<String, String> selector = new LinkedHashMap<>(first.nodeSelector());
    List<Toleration> tolerations = new ArrayList<>(first.tolerations());
    for (KueueRecord.FlavorQuotas fq : chosen) {
      KueueRecord.Flavor f = fq == null ? null : flavors.get(fq.flavor());
      if (f != null) {
        f.nodeLabels().forEach(selector::putIfAbsent);
        tolerations.addAll(f.tolerations());
      }
    }
    String workload = w.key().substring(w.key().lastIndexOf('/') + 1);
    String name = NewRequest.name(workload, check, 1);
    KueueRecord.ProvisioningRequest r = requests.get(w.namespace() + "/" + name);
    if (r == null && ClusterRoom.holds(in.nodes(), in.pods(), one, w.pods().size(), selector, tolerations)) {
      return null; // the request made (in the manifests) decides; without one, room now admits
    }
    if (r != null && r.state() == ProvisioningState.PROVISIONED) {
      provisioned.put(w, Map.of(ConsumeGate.CONSUME_ANNOTATION, name, ConsumeGate.CLASS_ANNOTATION,
          config.provisioningClassName()));
      return null;
    }
    return "admitted by quota in " + cq.display() + ", but the cluster cannot hold its " + w.pods().size()
        + " pods now: it waits for ProvisioningRequest " + w.namespace() + "/" + name + " (class "
        + config.provisioningClassName() + ") to be Provisioned" + (r == null
        ? " (run live, Basalt creates it; no autoscaler runs in simulate)" : ": it is "
        + r.state().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
  }

  private KueueRecord.ClusterQueue clusterQueueOf(Workload w) {
    KueueRecord.LocalQueue lq = localQueues.get(w.namespace() + "/" + w.localQueue());
    return lq == null ? null : clusterQueues.get(lq.clusterQueue());
  }

  private FlavorChoice.Assignment assign(Quotas quotas, KueueRecord.ClusterQueue cq, Workload w) {
    return FlavorChoice.assign(quotas, cq, w.request(), flavor -> nodeMisfit(flavor, w));
  }

  /** Why the workload's pods cannot use a flavor's nodes, or null when they can. */
  private String nodeMisfit(String name, Workload w) {
    KueueRecord.Flavor f = flavors.get(name);
    if (f == null) {
      return "ResourceFlavor " + name + " does not exist";
    }
    for (Pod p : w.pods()) {
      for (Map.Entry<String, String> l : f.nodeLabels().entrySet()) {
        String own = p.nodeSelector().get(l.getKey());
        if (own != null && !own.equals(l.getValue())) {
          return "pod " + p.key() + " selects " + l.getKey() + "=" + own + ", the flavor's nodes are " + l.getValue();
        }
      }
      for (Taint t : f.nodeTaints()) {
        if (t.blocksScheduling() && p.tolerations().stream().noneMatch(x -> x.tolerates(t))
            && f.tolerations().stream().noneMatch(x -> x.tolerates(t))) {
          return "pod " + p.key() + " does not tolerate the flavor's taint " + t;
        }
      }
    }
    return null;
  }

  private static void charge(Quotas quotas, KueueRecord.ClusterQueue cq, Workload w,
      List<KueueRecord.FlavorQuotas> chosen) {
    FlavorChoice.charge(quotas, cq, w.request(), chosen);
  }

  /** For a running workload: per group, the first flavor whose node labels its first placed pod's node carries. */
  private List<KueueRecord.FlavorQuotas> runningFlavors(KueueRecord.ClusterQueue cq, Workload w,
      Map<String, Node> nodes) {
    Node node = w.pods().stream().filter(Pod::isAssigned).map(p -> nodes.get(p.nodeName())).filter(n -> n != null)
        .findFirst().orElse(null);
    List<KueueRecord.FlavorQuotas> out = new ArrayList<>();
    for (KueueRecord.ResourceGroup g : cq.resourceGroups()) {
      KueueRecord.FlavorQuotas pick = g.flavors().isEmpty() ? null : g.flavors().get(0);
      for (KueueRecord.FlavorQuotas f : g.flavors()) {
        KueueRecord.Flavor flavor = flavors.get(f.flavor());
        if (node != null && flavor != null
            && flavor.nodeLabels().entrySet().stream().allMatch(l -> l.getValue().equals(node.labels().get(l.getKey())))) {
          pick = f;
          break;
        }
      }
      out.add(pick);
    }
    return out;
  }

  /** The workload's pods join {@code queue} as one gang, held to the chosen flavors' nodes. */
  private void admit(Workload w, String queue, List<KueueRecord.FlavorQuotas> chosen) {
    Map<String, String> labels = new LinkedHashMap<>();
    List<Toleration> tolerations = new ArrayList<>();
    for (KueueRecord.FlavorQuotas fq : chosen) {
      KueueRecord.Flavor f = fq == null ? null : flavors.get(fq.flavor());
      if (f != null) {
        labels.putAll(f.nodeLabels());
        tolerations.addAll(f.tolerations());
      }
    }
    for (Pod p : w.pods()) {
      Map<String, String> annotations = new LinkedHashMap<>(p.annotations());
      annotations.remove(SUSPENDED);
      annotations.put(Pod.QUEUE_NAME_ANNOTATION, queue);
      annotations.putAll(provisioned.getOrDefault(w, Map.of()));
      if (!w.ownGang() && w.pods().size() > 1) {
        annotations.put(GroupInference.MIN_MEMBER_ANNOTATION, Integer.toString(w.pods().size()));
      }
      Map<String, String> selector = new LinkedHashMap<>(p.nodeSelector());
      List<Toleration> tols = new ArrayList<>(p.tolerations());
      if (!p.isAssigned()) {
        labels.forEach(selector::putIfAbsent);
        tolerations.stream().filter(t -> !tols.contains(t)).forEach(tols::add);
      }
      replaced.put(p, copy(p, annotations, selector, tols, p.constraints()));
    }
  }

  /**
   * The workload is not admitted: a suspended one starts nothing ({@code drop}, or in {@code INSTEAD} mode its pods
   * wait behind the admission gate); the note says why.
   */
  private void hold(Workload w, String why, boolean drop) {
    warnings.add("Kueue: " + w.key() + (w.suspended() ? " stays suspended: " : " is not admitted: ") + why);
    KueueRecord.ClusterQueue cq = drop ? null : clusterQueueOf(w);
    for (Pod p : w.pods()) {
      if (p.isAssigned()) {
        continue;
      }
      if (drop) {
        replaced.put(p, null);
        continue;
      }
      Map<String, String> annotations = new LinkedHashMap<>(p.annotations());
      annotations.remove(SUSPENDED);
      if (cq != null) { // waits in its ClusterQueue's queue, where it is pending
        annotations.put(Pod.QUEUE_NAME_ANNOTATION, cq.name());
      }
      PodConstraints c = p.constraints();
      List<String> gates = new ArrayList<>(c.schedulingGates());
      if (!gates.contains(ADMISSION_GATE)) {
        gates.add(ADMISSION_GATE);
      }
      PodConstraints gated = new PodConstraints(gates, c.hostPorts(), c.preferredNodeAffinity(),
          c.requiredAffinity(), c.preferredAffinity(), c.requiredAntiAffinity(), c.preferredAntiAffinity(),
          c.topologySpread(), c.images());
      replaced.put(p, copy(p, annotations, p.nodeSelector(), p.tolerations(), gated));
    }
  }

  private static Pod copy(Pod p, Map<String, String> annotations, Map<String, String> nodeSelector,
      List<Toleration> tolerations, PodConstraints constraints) {
    return new Pod(p.uid(), p.namespace(), p.name(), p.schedulerName(), p.nodeName(), p.phase(), p.terminating(),
        p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.request(), p.labels(), annotations, nodeSelector,
        p.requiredNodeAffinity(), tolerations, p.creationTimestamp(), p.group(), p.controller(), p.containers(),
        constraints, p.nominatedNodeName());
  }
}
