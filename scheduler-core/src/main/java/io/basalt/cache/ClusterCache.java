package io.basalt.cache;

import io.basalt.api.AssignedPods;
import io.basalt.api.ClusterSnapshot;
import io.basalt.api.NodeInfo;
import io.basalt.fabric.Fabric;
import io.basalt.gpu.protocol.DeviceProtocols;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The scheduler's picture of the cluster, fed by a cluster source (fixtures or informers) and by the binder's own
 * decisions. Node accounting is kept incrementally and stamped with a generation per node, so a snapshot copies only
 * nodes that changed since the last one (or that the last session touched). Thread-safe: sources call in from their
 * own threads.
 *
 * <p>Placements the API has not confirmed yet are kept here too, as in kube-scheduler: {@link #assume} places a pod
 * while its bind is in flight, {@link #forget} undoes that when the bind fails, {@link #finishBinding} marks it
 * accepted when the bind succeeds, and {@link #observe} (the informer's word) respects it until the informer reports
 * the pod bound. All of it under this cache's one lock, so no snapshot sees half of a change and no caller has to lock
 * the cache from outside.
 */
public final class ClusterCache {
  private final Set<String> schedulerNames;
  private final String defaultQueue;
  private static final System.Logger LOG = System.getLogger(ClusterCache.class.getName());
  private final Map<String, CachedNode> nodes = new HashMap<>();
  private final Map<String, Pod> pods = new HashMap<>();
  private final Map<String, Pod> ownPods = new LinkedHashMap<>();
  /**
   * The snapshot's copy of {@link #ownPods}, dropped when a pod of ours comes, changes or goes: a backlog's 50k pods
   * were copied every cycle although a quiet cycle changes none.
   */
  private List<Pod> ownPodsCopy;
  /** The snapshot's pods per node, dropped when an assigned pod comes, changes or goes, or a node comes or goes. */
  private AssignedPods assignedCopy;
  /** Assigned pods carrying pod affinity or anti-affinity terms, by uid, and the snapshots' copy. */
  private final Map<String, Pod> withAffinity = new LinkedHashMap<>();
  private List<Pod> withAffinityCopy;
  private final Map<String, PodGroup> podGroups = new LinkedHashMap<>();
  /** Groups inferred from owners and labels; a PodGroup object of the same key wins over one of these. */
  private final Map<String, PodGroup> inferredGroups = new LinkedHashMap<>();
  private final Map<String, Queue> queues = new LinkedHashMap<>();
  private final Map<String, PriorityClass> priorityClasses = new HashMap<>();
  /** Namespaces' labels, and the copy snapshots share until one changes. */
  private final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
  private Map<String, Map<String, String>> namespaceLabelsCopy;
  /** Storage objects for the volume filters, and the value snapshots share until one changes. */
  private final VolumeStore volumeStore = new VolumeStore();
  /**
   * Pending pod uid to the node held for it (after a preemption, or a bind the API refused). A hold is dropped
   * {@link #NOMINATION_TTL_CYCLES} snapshots after it was made (not counting those while its node is releasing
   * terminating pods), so a pod that stays unschedulable cannot reserve a node forever.
   */
  private final Map<String, Nomination> nominations = new HashMap<>();
  /**
   * Other schedulers' pending pods whose {@code status.nominatedNodeName} names a node, by uid: their room is held
   * for them as long as the API says so (their scheduler owns the nomination, so no TTL here).
   */
  private final Map<String, Pod> othersNominated = new LinkedHashMap<>();
  /** The snapshot's copy of {@link #othersNominated}, dropped when it changes. */
  private List<Pod> othersNominatedCopy;
  /** Binds in flight, by pod uid: what {@link #forget} puts back, if the cache still holds what we placed. */
  private final Map<String, Assumption> assumed = new HashMap<>();
  /**
   * Pod uids whose bind the API accepted and the informer has not yet reported bound. A pod's node never changes once
   * set, so a report of such a pod unbound is older than its bind (a re-list or an event still in the informer's
   * queue) and must not free its room.
   */
  private final Set<String> accepted = new HashSet<>();
  private Fabric fabric = Fabric.EMPTY;
  private volatile DeviceProtocols deviceProtocol = DeviceProtocols.AUTO;
  /** Snapshots taken so far: the clock holds age by, so the same events give the same holds on any machine. */
  private long snapshots;
  private int nominationTtl = NOMINATION_TTL_CYCLES;
  private long generation;
  private final NodeCopies copies = new NodeCopies();

  private final GpuInventory gpuInventory;
  private final NodeTotals totals = new NodeTotals();
  private final DraObjects dra = new DraObjects();

  /**
   * @param schedulerNames pods naming one of these are ours to schedule; all assigned pods count as used
   * @param defaultQueue where pods without a queue go; it exists even when no Queue object declares it
   */
  public ClusterCache(Set<String> schedulerNames, String defaultQueue) {
    this.schedulerNames = Set.copyOf(schedulerNames);
    this.gpuInventory = new GpuInventory(this.schedulerNames);
    this.defaultQueue = defaultQueue;
  }

  /** Where pods without a queue go. */
  public String defaultQueue() {
    return defaultQueue;
  }

  public Set<String> schedulerNames() {
    return schedulerNames;
  }

  public synchronized void putNode(Node node) {
    CachedNode c = nodes.computeIfAbsent(node.name(), CachedNode::new);
    if (c.node == null) {
      copies.reorder();
      assignedCopy = null;
    } else {
      totals.node(c.node, c.used, -1);
    }
    totals.node(node, c.used, 1);
    c.node = node;
    c.gpus = gpuInventory.topologyOf(node);
    c.generation = ++generation;
  }

  public synchronized void removeNode(String name) {
    CachedNode c = nodes.get(name);
    if (c != null) {
      if (c.node != null) {
        totals.node(c.node, c.used, -1);
      }
      c.node = null;
      c.generation = ++generation;
      copies.reorder();
      assignedCopy = null;
    }
  }

  /** Adds or replaces a pod (matched by uid), moving its resources between nodes as needed. */
  public synchronized void putPod(Pod pod) {
    Pod old = pods.put(pod.uid(), pod);
    if (old != null) {
      account(old, -1);
    }
    account(pod, 1);
    boolean own = schedulerNames.contains(pod.schedulerName());
    if (pod.isAssigned()) {
      nominations.remove(pod.uid());
    } else if (own && pod.nominatedNodeName() != null
        && (old == null || !pod.nominatedNodeName().equals(old.nominatedNodeName()))) {
      // The API names a node this cache does not hold yet: ours from before a restart, or one another component set.
      // Only a change counts, so a hold that lapsed here is not brought back by the next report of the same value.
      nominate(pod.uid(), pod.nominatedNodeName());
    }
    if (own) {
      ownPods.put(pod.uid(), pod);
      ownPodsCopy = null;
    } else {
      othersNominated(pod);
    }
  }

  /** Keeps {@link #othersNominated} current for another scheduler's pod. */
  private void othersNominated(Pod pod) {
    boolean held = !pod.isAssigned() && !pod.isFinished() && !pod.terminating() && pod.nominatedNodeName() != null;
    Pod before = held ? othersNominated.put(pod.uid(), pod) : othersNominated.remove(pod.uid());
    if (held || before != null) {
      othersNominatedCopy = null;
    }
  }

  public synchronized void removePod(String uid) {
    assumed.remove(uid);
    accepted.remove(uid);
    Pod old = pods.remove(uid);
    if (old != null) {
      account(old, -1);
      if (ownPods.remove(uid) != null) {
        ownPodsCopy = null;
      }
      nominations.remove(uid);
      if (othersNominated.remove(uid) != null) {
        othersNominatedCopy = null;
      }
    }
  }

  private record Assumption(Pod original, Pod placed) {}

  /**
   * Places pending pod {@code uid} on {@code node}, with {@code annotations} (e.g. the chosen GPUs) merged into its
   * own, before the API confirms: the next snapshot counts the room as taken and does not offer the pod again. Its
   * bind is then in flight until {@link #forget} or {@link #finishBinding}.
   *
   * @return the pod as the cache held it before: null if unknown, assigned if already placed (nothing assumed),
   *     otherwise the pending pod that is now assumed on {@code node}
   */
  public synchronized Pod assume(String uid, String node, Map<String, String> annotations) {
    Pod original = pods.get(uid);
    if (original == null || original.isAssigned()) {
      return original;
    }
    Pod placed = placed(original, node, annotations);
    putPod(placed);
    assumed.put(uid, new Assumption(original, placed));
    return original;
  }

  /**
   * {@link #assume} and {@link #finishBinding} in one step, for a binder whose API accepts every bind on the spot
   * (the simulator): the same state after, without the in-flight record a real bind keeps while it waits.
   */
  public synchronized Pod assumeAccepted(String uid, String node, Map<String, String> annotations) {
    Pod original = pods.get(uid);
    if (original == null || original.isAssigned()) {
      return original;
    }
    putPod(placed(original, node, annotations));
    accepted.add(uid);
    return original;
  }

  /** {@code pending} on {@code node}, with {@code annotations} merged into its own. */
  private static Pod placed(Pod pending, String node, Map<String, String> annotations) {
    Pod placed = pending;
    if (!annotations.isEmpty()) {
      Map<String, String> merged = new HashMap<>(pending.annotations());
      merged.putAll(annotations);
      placed = placed.withAnnotations(merged);
    }
    return placed.withNodeName(node);
  }

  /**
   * The bind of {@code uid} failed for good or was refused: it is no longer in flight, and the pod is pending again
   * (as the informer last reported it) with its room freed, unless the informer has reported it bound or deleted
   * meanwhile, whose word is fresher. With {@code hold}, the pod is nominated to the node it was assumed on in the same step, so no snapshot
   * sees that room free in between and the next cycle keeps it for this pod (a gang's bound members wait on it).
   */
  public synchronized void forget(String uid, boolean hold) {
    Assumption a = assumed.remove(uid);
    if (a != null && pods.get(uid) == a.placed()) {
      putPod(a.original());
      if (hold) {
        nominate(uid, a.placed().nodeName());
      }
    }
  }

  /**
   * The API accepted the bind of {@code uid}: it is no longer in flight, and the assumption stays until the informer
   * reports the pod bound or deleted; {@link #observe} ignores reports of it unbound meanwhile, which can only be
   * older than the bind.
   */
  public synchronized void finishBinding(String uid) {
    Assumption a = assumed.remove(uid);
    if (a != null && pods.get(uid) == a.placed()) {
      accepted.add(uid);
    }
  }

  /** Whether a bind of {@code uid} is in flight (between {@link #assume} and {@link #forget}/{@link #finishBinding}). */
  synchronized boolean bindInFlight(String uid) {
    return assumed.containsKey(uid);
  }

  /**
   * The informer's report of a pod (add or update). One that still shows the pod unbound while its bind is in
   * flight (a status written, a label added), or after the API accepted it (the informer lagging behind, or
   * re-listing from before the bind), must not undo the assumption, or the room bound into would look free and be
   * given to another pod: the pod keeps its assumed node and annotations (the chosen GPUs) until the bind fails, or
   * the informer reports it bound. Anything else is taken as it is.
   */
  public synchronized void observe(Pod pod) {
    Pod current = pods.get(pod.uid());
    Assumption a = assumed.get(pod.uid());
    if (pod.isAssigned()) {
      assumed.remove(pod.uid());
      accepted.remove(pod.uid());
    } else if (current != null && current.isAssigned() && (a != null || accepted.contains(pod.uid()))) {
      Map<String, String> annotations = new HashMap<>(pod.annotations());
      annotations.putAll(current.annotations());
      Pod kept = pod.withAnnotations(annotations).withNodeName(current.nodeName());
      if (a != null) {
        assumed.put(pod.uid(), new Assumption(pod, kept)); // a failed bind puts back the pod as last reported
      }
      pod = kept;
    }
    putPod(pod);
  }

  /**
   * Marks running pod {@code uid} terminating while its eviction is in flight, so the next cycle counts its room as
   * releasing and does not pick it as a victim again.
   *
   * @return the terminating pod now in the cache (hand it to {@link #forgetTerminating}), or null if the cache does
   *     not hold the pod or it is terminating already
   */
  public synchronized Pod assumeTerminating(String uid) {
    Pod original = pods.get(uid);
    if (original == null || original.terminating()) {
      return null;
    }
    Pod victim = original.withTerminating(true);
    putPod(victim);
    return victim;
  }

  /**
   * The eviction was refused: the pod runs on, unless the informer has replaced {@code assumed} meanwhile (its word
   * is fresher).
   */
  public synchronized void forgetTerminating(Pod assumed) {
    if (pods.get(assumed.uid()) == assumed) {
      putPod(assumed.withTerminating(false));
    }
  }

  /**
   * How many cycles (snapshots) a node stays held for a pending pod that is not placed there: about five minutes at
   * the default one-second schedule period. Counted in cycles, not time, so a slow or paused machine drops the same
   * holds as a fast one.
   */
  public static final int NOMINATION_TTL_CYCLES = 300;

  private record Nomination(String node, long since) {}

  /**
   * Holds {@code node} for pending pod {@code uid} (after a preemption, or a bind the API refused), or clears it when
   * {@code node} is null. Nominating the same node again keeps the hold's age.
   */
  public synchronized void nominate(String uid, String node) {
    if (node == null) {
      nominations.remove(uid);
    } else if (pods.containsKey(uid) && !pods.get(uid).isAssigned()) {
      Nomination held = nominations.get(uid);
      if (held == null || !held.node().equals(node)) {
        nominations.put(uid, new Nomination(node, snapshots));
      }
    }
  }

  /** For tests: how many snapshots a hold lasts. */
  synchronized void nominationTtl(int cycles) {
    this.nominationTtl = cycles;
  }

  /** {@link #nominate} for each pending pod uid (a null node clears its hold), under one lock. */
  public synchronized void nominateAll(Map<String, String> holds) {
    holds.forEach(this::nominate);
  }

  /**
   * The live nominations, dropping those past {@link #NOMINATION_TTL_CYCLES}. A hold does not age while pods on its
   * node are still terminating: a preemptor waits for its victims however long their grace period is.
   */
  private Map<String, String> liveNominations() {
    long now = snapshots;
    Map<String, String> live = new HashMap<>();
    for (Iterator<Map.Entry<String, Nomination>> it = nominations.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Nomination> e = it.next();
      CachedNode node = nodes.get(e.getValue().node());
      if (node != null && Arrays.stream(node.releasing).anyMatch(v -> v > 0)) {
        e.setValue(new Nomination(e.getValue().node(), now));
        live.put(e.getKey(), e.getValue().node());
        continue;
      }
      if (now - e.getValue().since() > nominationTtl) {
        Pod p = pods.get(e.getKey());
        LOG.log(System.Logger.Level.INFO, "pod " + (p == null ? e.getKey() : p.key()) + ": hold on node "
            + e.getValue().node() + " dropped after " + nominationTtl + " cycles without being bound");
        it.remove();
      } else {
        live.put(e.getKey(), e.getValue().node());
      }
    }
    return live;
  }

  public synchronized Pod pod(String uid) {
    return pods.get(uid);
  }

  public synchronized List<Pod> pods() {
    return List.copyOf(pods.values());
  }

  /** A PodGroup object, or with {@link PodGroup#inferred()} a group inferred for pods without one. */
  public synchronized void putPodGroup(PodGroup pg) {
    (pg.inferred() ? inferredGroups : podGroups).put(pg.key(), pg);
  }

  /** Removes the PodGroup object of that key (an inferred group of the same key shows again). */
  public synchronized void removePodGroup(String key) {
    podGroups.remove(key);
  }

  public synchronized void removeInferredPodGroup(String key) {
    inferredGroups.remove(key);
  }

  /** The group of that key the next snapshot holds: the PodGroup object, else the inferred one, else null. */
  public synchronized PodGroup podGroup(String key) {
    PodGroup pg = podGroups.get(key);
    return pg != null ? pg : inferredGroups.get(key);
  }

  /** How the next snapshots' bindings tell nodes their devices ({@code --device-protocol}). */
  public void setDeviceProtocol(DeviceProtocols protocol) {
    this.deviceProtocol = protocol == null ? DeviceProtocols.AUTO : protocol;
  }

  /** The network fabric the next snapshots carry (replaced whole when its source changes). */
  public synchronized void setFabric(Fabric newFabric) {
    fabric = newFabric == null ? Fabric.EMPTY : newFabric;
  }

  public synchronized Fabric fabric() {
    return fabric;
  }

  public synchronized boolean hasQueue(String name) {
    return queues.containsKey(name);
  }

  public synchronized void putQueue(Queue q) {
    queues.put(q.name(), q);
  }

  public synchronized void removeQueue(String name) {
    queues.remove(name);
  }

  public synchronized void putPriorityClass(PriorityClass pc) {
    priorityClasses.put(pc.name(), pc);
  }

  public synchronized void removePriorityClass(String name) {
    priorityClasses.remove(name);
  }

  public synchronized void putNamespace(io.basalt.model.Namespace namespace) {
    namespaceLabels.put(namespace.name(), namespace.labels());
    namespaceLabelsCopy = null;
  }

  /** The storage objects (claims, PVs, classes, CSINodes, capacities) the volume filters read; put and removed here. */
  public synchronized VolumeStore volumes() {
    return volumeStore;
  }

  public synchronized void removeNamespace(String name) {
    namespaceLabels.remove(name);
    namespaceLabelsCopy = null;
  }

  /** The nodes, in no particular order. */
  public synchronized List<Node> nodes() {
    List<Node> r = new ArrayList<>();
    for (CachedNode c : nodes.values()) {
      if (c.node != null) {
        r.add(c.node);
      }
    }
    return r;
  }

  /** The node named {@code name}, or null when the cache holds none. */
  public synchronized Node node(String name) {
    CachedNode c = nodes.get(name);
    return c == null ? null : c.node;
  }

  public synchronized int nodeCount() {
    int n = 0;
    for (CachedNode c : nodes.values()) {
      if (c.node != null) {
        n++;
      }
    }
    return n;
  }

  private void account(Pod pod, int sign) {
    if (!pod.isAssigned() || pod.isFinished()) {
      return;
    }
    CachedNode c = nodes.computeIfAbsent(pod.nodeName(), CachedNode::new);
    assignedCopy = null;
    if (sign > 0) {
      c.pods.put(pod.uid(), pod);
    } else {
      c.pods.remove(pod.uid());
    }
    c.podsChanged();
    if (pod.constraints().hasPodAffinity()) {
      withAffinityCopy = null;
      if (sign > 0) {
        withAffinity.put(pod.uid(), pod);
      } else {
        withAffinity.remove(pod.uid());
      }
    }
    c.used = add(c.used, pod.request(), sign);
    if (c.node != null) {
      totals.used(pod.request(), sign);
    }
    if (pod.terminating()) {
      c.releasing = add(c.releasing, pod.request(), sign);
    }
    c.generation = ++generation;
  }

  private static long[] add(long[] target, ResourceVector r, int sign) {
    long[] t = target.length < r.size() ? Arrays.copyOf(target, Math.max(r.size(), ResourceNames.count())) : target;
    for (int i = 0, n = r.size(); i < n; i++) {
      t[i] += sign * r.get(i);
    }
    return t;
  }

  /** A namespace's ResourceQuota (by {@code namespace/name}), for the reason a gang short of pods gets. */
  public synchronized void putNamespaceQuota(io.basalt.model.NamespaceQuota quota) {
    quotas.put(quota.key(), quota);
    quotasCopy = null;
  }

  /** @param key {@code namespace/name} */
  public synchronized void removeNamespaceQuota(String key) {
    if (quotas.remove(key) != null) {
      quotasCopy = null;
    }
  }

  private final Map<String, io.basalt.model.NamespaceQuota> quotas = new TreeMap<>();
  private List<io.basalt.model.NamespaceQuota> quotasCopy;

  private List<io.basalt.model.NamespaceQuota> quotas() {
    if (quotasCopy == null) {
      quotasCopy = List.copyOf(quotas.values());
    }
    return quotasCopy;
  }

  public synchronized void putDeviceClass(io.basalt.dra.DeviceClass deviceClass) {
    dra.put(deviceClass);
  }

  public synchronized void removeDeviceClass(String name) {
    dra.removeDeviceClass(name);
  }

  public synchronized void putResourceSlice(io.basalt.dra.ResourceSlice slice) {
    dra.put(slice);
  }

  public synchronized void removeResourceSlice(String name) {
    dra.removeSlice(name);
  }

  public synchronized void putResourceClaim(io.basalt.dra.ResourceClaim claim) {
    dra.put(claim);
  }

  /** @param key {@code namespace/name} */
  public synchronized void removeResourceClaim(String key) {
    dra.removeClaim(key);
  }

  public synchronized void putClaimTemplate(io.basalt.dra.ClaimTemplate template) {
    dra.put(template);
  }

  public synchronized void removeClaimTemplate(String key) {
    dra.removeTemplate(key);
  }

  /** The claim {@code namespace/name} as the cache holds it (assumed allocations included), or null. */
  public synchronized io.basalt.dra.ResourceClaim resourceClaim(String key) {
    return dra.claim(key);
  }

  /**
   * A binding of {@code podUid} allocated or reserved {@code claims}: held so until the API shows it, or put back
   * by {@link #forgetClaims} when the bind fails.
   */
  public synchronized void assumeClaims(String podUid, List<io.basalt.dra.ClaimBinding> claims) {
    dra.assume(podUid, claims);
  }

  /** The bind of {@code podUid} failed: its claims as they were before {@link #assumeClaims}. */
  public synchronized void forgetClaims(String podUid) {
    dra.forget(podUid);
  }

  /** The bind of {@code podUid} succeeded: its claims stay as assumed until the API updates them. */
  public synchronized void settleClaims(String podUid) {
    dra.settled(podUid);
  }

  /**
   * A consistent view for one session. Node copies are reused from the previous snapshot when neither the cluster
   * nor a session changed them, or when the cluster now holds what a session changed them into ({@link
   * NodeInfo#copy}), so a quiet cluster costs almost nothing per cycle.
   */
  public synchronized ClusterSnapshot snapshot() {
    snapshots++;
    List<NodeInfo> list = copies.refresh(nodes.values(), (prev, c) -> NodeInfo.copy(prev, c.node, c.generation,
        c.used, c.releasing, c.gpus, gpuInventory.deviceUsage(c.name, c.gpus, c.pods.values())));
    Map<String, PodGroup> groups = podGroups;
    if (!inferredGroups.isEmpty()) {
      groups = new HashMap<>(inferredGroups);
      groups.putAll(podGroups);
    }
    if (ownPodsCopy == null) {
      ownPodsCopy = List.copyOf(ownPods.values());
    }
    if (othersNominatedCopy == null) {
      othersNominatedCopy = List.copyOf(othersNominated.values());
    }
    return new ClusterSnapshot(list, ownPodsCopy, Map.copyOf(groups),
        new TreeMap<>(queues), Map.copyOf(priorityClasses), defaultQueue, Map.copyOf(liveNominations()), fabric,
        deviceProtocol, totals.totals(), copies.positions(), assignedPods(), namespaceLabels(), othersNominatedCopy,
        volumeStore.value(), dra.state(), quotas());
  }

  private Map<String, Map<String, String>> namespaceLabels() {
    if (namespaceLabelsCopy == null) {
      namespaceLabelsCopy = Map.copyOf(namespaceLabels);
    }
    return namespaceLabelsCopy;
  }

  private AssignedPods assignedPods() {
    if (assignedCopy == null) {
      if (withAffinityCopy == null) {
        withAffinityCopy = List.copyOf(withAffinity.values());
      }
      assignedCopy = new AssignedPods(copies.positions(), copies.podLists(), withAffinityCopy);
    }
    return assignedCopy;
  }
}
