package io.basalt.plugins.volumes;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedFilter;
import io.basalt.framework.SessionView;
import io.basalt.model.ClusterVolumes;
import io.basalt.model.InlineDisk;
import io.basalt.model.Node;
import io.basalt.model.PersistentVolume;
import io.basalt.model.Pod;
import io.basalt.model.PodVolume;
import io.basalt.model.StorageClass;
import io.basalt.model.VolumeClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The volume filters for one session ({@link VolumeFilters}). What it keeps, all for this session only: the PVs
 * placements chose for unbound claims (so two pods never count on one PV), which pods use each claim (for
 * {@code ReadWriteOncePod}; read from every node's pods the first time a pod with claims asks or is placed), the
 * in-line disks per node, and the volumes attached per node ({@link AttachLimits}). Placements and their undo keep
 * them current.
 */
final class VolumeFilter implements PreparedFilter, PodSigner, AllocationListener {
  /** The signature of every pod without claims: its answer is "fits" on every node. */
  private static final Object NO_CLAIMS = "no-claims";
  private static final List<String> ZONE_LABELS = List.of("failure-domain.beta.kubernetes.io/zone",
      "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/zone", "topology.kubernetes.io/region");
  private static final String BETA_PREFIX = "failure-domain.beta.kubernetes.io/";
  private static final String GA_PREFIX = "topology.kubernetes.io/";

  private final SessionView session;
  private final VolumeFilters.Settings settings;
  private final ClusterVolumes volumes;
  private final Map<String, PodClaims> claimsByPod = new HashMap<>();
  /** PV name to the claim key a placement chose it for. */
  private final Map<String, String> taken = new HashMap<>();
  /** Pod uid to the PVs its placement chose. */
  private final Map<String, List<String>> takenBy = new HashMap<>();
  /** Claim key to the uids of the pods using it; null until first needed. */
  private Map<String, Set<String>> users;
  /** Node name to the in-line disks of its pods; filled per node as asked about. */
  private final Map<String, List<InlineDisk>> disks = new HashMap<>();
  /** NodeVolumeLimits' counts. */
  private final AttachLimits limits;

  VolumeFilter(SessionView session, VolumeFilters.Settings settings) {
    this.session = session;
    this.settings = settings;
    this.volumes = session.volumes();
    this.limits = new AttachLimits(session, volumes);
  }

  @Override
  public FilterResult filter(TaskInfo task, NodeInfo node) {
    Function<NodeInfo, FilterResult> f = forTask(task);
    return f == null ? FilterResult.OK : f.apply(node);
  }

  @Override
  public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
    Pod pod = task.pod();
    if (!pod.constraints().hasVolumes()) {
      return null; // fits every node
    }
    PodClaims claims = claimsOf(pod);
    return node -> check(pod, claims, node.node());
  }

  @Override
  public Object sign(TaskInfo task) {
    return task.pod().constraints().hasVolumes() ? null : NO_CLAIMS;
  }

  private PodClaims claimsOf(Pod pod) {
    return claimsByPod.computeIfAbsent(pod.uid(), u -> new PodClaims(pod, volumes));
  }

  FilterResult check(Pod pod, PodClaims claims, Node node) {
    if (claims.everywhere != null && (settings.binding() || claims.everywhere != PodClaims.UNBOUND_IMMEDIATE)) {
      return claims.everywhere;
    }
    if (settings.restrictions() && !claims.disks.isEmpty() && diskConflict(claims, node.name())) {
      return PodClaims.DISK_CONFLICT;
    }
    if (settings.restrictions() && claims.anyReadWriteOncePod() && readWriteOncePodInUse(pod, claims)) {
      return PodClaims.RWOP_CONFLICT;
    }
    if (settings.limits() && limits.exceeds(pod, node)) {
      return PodClaims.MAX_VOLUME_COUNT;
    }
    if (settings.binding()) {
      for (PersistentVolume pv : claims.boundVolumes) {
        if (!pv.reachableFrom(node)) {
          return PodClaims.NODE_CONFLICT;
        }
      }
      if (!claims.delayed.isEmpty()) {
        FilterResult r = claims.bind(node, volumes, this::takenByOther).verdict();
        if (!r.ok()) {
          return r;
        }
      }
    }
    return settings.zone() ? zoneCheck(claims, node) : FilterResult.OK;
  }

  ClusterVolumes volumes() {
    return volumes;
  }

  /** The pod's claims when it has unbound WaitForFirstConsumer claims and nothing refuses it everywhere, else null. */
  PodClaims delayedClaims(Pod pod) {
    if (!pod.constraints().hasVolumes()) {
      return null;
    }
    PodClaims claims = claimsOf(pod);
    return claims.everywhere == null && !claims.delayed.isEmpty() ? claims : null;
  }

  /** The PV each unbound claim would bind on {@code node} (null: provisioned), or null when it cannot bind there. */
  Map<String, String> chosenOn(PodClaims claims, NodeInfo node) {
    PodClaims.Binding b = claims.bind(node.node(), volumes, this::takenByOther);
    return b.verdict().ok() ? b.chosen() : null;
  }

  private boolean takenByOther(String pv, String claimKey) {
    String by = taken.get(pv);
    return by != null && !by.equals(claimKey);
  }

  // ------------------------------------------------------------------------------------------- VolumeRestrictions

  private boolean readWriteOncePodInUse(Pod pod, PodClaims claims) {
    Map<String, Set<String>> u = users();
    for (VolumeClaim c : claims.claims) {
      if (!c.readWriteOncePod()) {
        continue;
      }
      Set<String> by = u.get(c.key());
      if (by != null && (by.size() > 1 || (by.size() == 1 && !by.contains(pod.uid())))) {
        return true;
      }
    }
    return false;
  }

  private Map<String, Set<String>> users() {
    if (users == null) {
      users = new HashMap<>();
      for (NodeInfo n : session.nodes()) {
        for (Pod p : session.podsOn(n)) {
          addUser(p);
        }
      }
    }
    return users;
  }

  private void addUser(Pod p) {
    for (PodVolume v : p.constraints().volumes()) {
      if (v.isClaim()) {
        users.computeIfAbsent(p.namespace() + "/" + v.claimName(), k -> new HashSet<>()).add(p.uid());
      }
    }
  }

  private boolean diskConflict(PodClaims claims, String node) {
    for (InlineDisk other : disksOn(node)) {
      for (InlineDisk mine : claims.disks) {
        if (mine.conflictsWith(other)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The in-line disks of the node's pods and of those placed there this cycle; read the first time asked. */
  private List<InlineDisk> disksOn(String node) {
    List<InlineDisk> on = disks.get(node);
    if (on == null) {
      on = new ArrayList<>();
      disks.put(node, on);
      NodeInfo info = session.node(node);
      if (info != null) {
        for (Pod p : session.podsOn(info)) {
          addDisks(on, p);
        }
      }
    }
    return on;
  }

  private static void addDisks(List<InlineDisk> on, Pod p) {
    for (PodVolume v : p.constraints().volumes()) {
      if (!v.isClaim()) {
        on.add(v.disk());
      }
    }
  }

  // --------------------------------------------------------------------------------------------------- VolumeZone

  /**
   * kube-scheduler's VolumeZone: each bound PV's zone and region labels (a value may list zones joined by
   * {@code __}) must hold on the node; a PV's beta label is also met by the node's GA label. An unbound claim it
   * cannot read a zone from is refused as kube-scheduler's PreFilter refuses it, unless its class waits for the first
   * consumer; with VolumeBinding on, such a claim has already made the pod wait, so this is only reached without it.
   */
  private FilterResult zoneCheck(PodClaims claims, Node node) {
    for (VolumeClaim c : claims.claims) {
      if (c.isBound()) {
        continue;
      }
      if (c.storageClassName().isEmpty()) {
        return PodClaims.NO_PV_NO_CLASS;
      }
      StorageClass sc = volumes.storageClass(c.storageClassName());
      if (sc == null) {
        return FilterResult.unfit("storageclasses.storage.k8s.io \"" + c.storageClassName() + "\" not found");
      }
      if (!sc.waitsForFirstConsumer()) {
        return PodClaims.PV_NO_NAME;
      }
    }
    Map<String, String> nodeLabels = node.labels();
    boolean nodeHasZone = false;
    for (String k : ZONE_LABELS) {
      nodeHasZone |= nodeLabels.containsKey(k);
    }
    if (!nodeHasZone) {
      return FilterResult.OK; // a node without zone labels takes any volume, as kube-scheduler's VolumeZone lets it
    }
    for (PersistentVolume pv : claims.boundVolumes) {
      for (String k : ZONE_LABELS) {
        String want = pv.labels().get(k);
        if (want == null) {
          continue;
        }
        String have = nodeLabels.get(k);
        if (have == null && k.startsWith(BETA_PREFIX)) {
          have = nodeLabels.get(GA_PREFIX + k.substring(BETA_PREFIX.length()));
        }
        if (have == null || !List.of(want.split("__")).contains(have)) {
          return PodClaims.ZONE_CONFLICT;
        }
      }
    }
    return FilterResult.OK;
  }

  // ------------------------------------------------------------------------------------------ placements, undone

  @Override
  public void onAllocate(TaskInfo task) {
    Pod pod = task.pod();
    if (!pod.constraints().hasVolumes() || task.nodeName() == null) {
      return;
    }
    NodeInfo node = session.node(task.nodeName());
    if (node == null) {
      return;
    }
    PodClaims claims = claimsOf(pod);
    if (claims.everywhere == null && !claims.delayed.isEmpty()) {
      List<String> chosen = new ArrayList<>();
      claims.bind(node.node(), volumes, this::takenByOther).chosen().forEach((claim, pv) -> {
        if (pv != null) {
          taken.put(pv, claim);
          chosen.add(pv);
        }
      });
      takenBy.put(pod.uid(), chosen);
    }
    users();
    addUser(pod);
    limits.placed(pod, task.nodeName());
    List<InlineDisk> on = disks.get(task.nodeName());
    if (on != null) {
      addDisks(on, pod);
    }
  }

  /** An undone placement, or an eviction: the PVs it chose are free again, and its claims no longer used there. */
  @Override
  public void onDeallocate(TaskInfo task) {
    Pod pod = task.pod();
    if (!pod.constraints().hasVolumes()) {
      return;
    }
    List<String> chosen = takenBy.remove(pod.uid());
    if (chosen != null) {
      chosen.forEach(taken::remove);
    }
    if (users != null) {
      for (PodVolume v : pod.constraints().volumes()) {
        Set<String> by = v.isClaim() ? users.get(pod.namespace() + "/" + v.claimName()) : null;
        if (by != null) {
          by.remove(pod.uid());
        }
      }
    }
    if (task.nodeName() != null) {
      limits.removed(pod, task.nodeName());
    }
    List<InlineDisk> onNode = task.nodeName() == null ? null : disks.get(task.nodeName());
    if (onNode != null) {
      for (PodVolume v : pod.constraints().volumes()) {
        if (!v.isClaim()) {
          onNode.remove(v.disk()); // one of equal entries: each placement added its own
        }
      }
    }
  }
}
