package io.basalt.cache;

import io.basalt.api.ClusterSnapshot;
import io.basalt.api.NodeInfo;
import io.basalt.gpu.GpuTopology;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The scheduler's picture of the cluster, fed by a cluster source (fixtures or informers) and by the binder's own
 * decisions. Node accounting is kept incrementally and stamped with a generation per node, so a snapshot copies only
 * nodes that changed since the last one (or that the last session touched). Thread-safe: sources call in from their
 * own threads.
 */
public final class ClusterCache {
  private final Set<String> schedulerNames;
  private final String defaultQueue;
  private static final System.Logger LOG = System.getLogger(ClusterCache.class.getName());
  private final Map<String, CachedNode> nodes = new HashMap<>();
  private final Map<String, Pod> pods = new HashMap<>();
  private final Map<String, Pod> ownPods = new LinkedHashMap<>();
  private final Map<String, PodGroup> podGroups = new LinkedHashMap<>();
  private final Map<String, Queue> queues = new LinkedHashMap<>();
  private final Map<String, PriorityClass> priorityClasses = new HashMap<>();
  /**
   * Pending pod uid to the node held for it (after a preemption, or a bind the API refused). A hold is dropped
   * {@link #NOMINATION_TTL} after it was made (not counting time its node spends releasing terminating pods), so a
   * pod that stays unschedulable cannot reserve a node forever.
   */
  private final Map<String, Nomination> nominations = new HashMap<>();
  private LongSupplier clock = System::nanoTime;
  private long generation;
  private Map<String, NodeInfo> lastCopies = Map.of();
  private List<String> nodeOrder;

  /** Accounting for one node; may exist before its Node object when pods arrive first. */
  private static final class CachedNode {
    Node node;
    GpuTopology gpus;
    long[] used = new long[0];
    long[] releasing = new long[0];
    long generation;
    final Map<String, Pod> pods = new LinkedHashMap<>();
  }

  private final GpuInventory gpuInventory;

  /**
   * @param schedulerNames pods naming one of these are ours to schedule; all assigned pods count as used
   * @param defaultQueue where pods without a queue go; it exists even when no Queue object declares it
   */
  public ClusterCache(Set<String> schedulerNames, String defaultQueue) {
    this.schedulerNames = Set.copyOf(schedulerNames);
    this.gpuInventory = new GpuInventory(this.schedulerNames);
    this.defaultQueue = defaultQueue;
  }

  public Set<String> schedulerNames() {
    return schedulerNames;
  }

  public synchronized void putNode(Node node) {
    CachedNode c = nodes.computeIfAbsent(node.name(), n -> new CachedNode());
    if (c.node == null) {
      nodeOrder = null;
    }
    c.node = node;
    c.gpus = gpuInventory.topologyOf(node);
    c.generation = ++generation;
  }

  public synchronized void removeNode(String name) {
    CachedNode c = nodes.get(name);
    if (c != null) {
      c.node = null;
      c.generation = ++generation;
      nodeOrder = null;
    }
  }

  /** Adds or replaces a pod (matched by uid), moving its resources between nodes as needed. */
  public synchronized void putPod(Pod pod) {
    Pod old = pods.put(pod.uid(), pod);
    if (old != null) {
      account(old, -1);
    }
    account(pod, 1);
    if (pod.isAssigned()) {
      nominations.remove(pod.uid());
    }
    if (schedulerNames.contains(pod.schedulerName())) {
      ownPods.put(pod.uid(), pod);
    }
  }

  public synchronized void removePod(String uid) {
    Pod old = pods.remove(uid);
    if (old != null) {
      account(old, -1);
      ownPods.remove(uid);
      nominations.remove(uid);
    }
  }

  /** How long a node stays held for a pending pod that is not placed there. */
  public static final Duration NOMINATION_TTL = Duration.ofMinutes(5);

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
        nominations.put(uid, new Nomination(node, clock.getAsLong()));
      }
    }
  }

  /** {@link #nominate} for each pending pod uid (a null node clears its hold), under one lock. */
  public synchronized void nominateAll(Map<String, String> holds) {
    holds.forEach(this::nominate);
  }

  /** For tests: the nanosecond clock nominations age by. */
  synchronized void clock(LongSupplier nanos) {
    this.clock = nanos;
  }

  /**
   * The live nominations, dropping those past {@link #NOMINATION_TTL}. A hold does not age while pods on its node
   * are still terminating: a preemptor waits for its victims however long their grace period is.
   */
  private Map<String, String> liveNominations() {
    long now = clock.getAsLong();
    Map<String, String> live = new HashMap<>();
    for (Iterator<Map.Entry<String, Nomination>> it = nominations.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Nomination> e = it.next();
      CachedNode node = nodes.get(e.getValue().node());
      if (node != null && Arrays.stream(node.releasing).anyMatch(v -> v > 0)) {
        e.setValue(new Nomination(e.getValue().node(), now));
        live.put(e.getKey(), e.getValue().node());
        continue;
      }
      if (now - e.getValue().since() > NOMINATION_TTL.toNanos()) {
        Pod p = pods.get(e.getKey());
        LOG.log(System.Logger.Level.INFO, "pod " + (p == null ? e.getKey() : p.key()) + ": hold on node "
            + e.getValue().node() + " dropped after " + NOMINATION_TTL.toMinutes() + " min without being bound");
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

  public synchronized void putPodGroup(PodGroup pg) {
    podGroups.put(pg.key(), pg);
  }

  public synchronized void removePodGroup(String key) {
    podGroups.remove(key);
  }

  public synchronized PodGroup podGroup(String key) {
    return podGroups.get(key);
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
    CachedNode c = nodes.computeIfAbsent(pod.nodeName(), n -> new CachedNode());
    if (sign > 0) {
      c.pods.put(pod.uid(), pod);
    } else {
      c.pods.remove(pod.uid());
    }
    c.used = add(c.used, pod.request(), sign);
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

  /**
   * A consistent view for one session. Node copies are reused from the previous snapshot when neither the cluster
   * nor a session changed them, so a quiet cluster costs almost nothing per cycle.
   */
  public synchronized ClusterSnapshot snapshot() {
    if (nodeOrder == null) {
      List<String> names = new ArrayList<>();
      for (Map.Entry<String, CachedNode> e : nodes.entrySet()) {
        if (e.getValue().node != null) {
          names.add(e.getKey());
        }
      }
      names.sort(null);
      nodeOrder = names;
    }
    Map<String, NodeInfo> copies = new HashMap<>(nodeOrder.size() * 2);
    List<NodeInfo> list = new ArrayList<>(nodeOrder.size());
    for (String name : nodeOrder) {
      CachedNode c = nodes.get(name);
      NodeInfo prev = lastCopies.get(name);
      NodeInfo copy = prev != null && prev.generation() == c.generation && !prev.touched()
          ? prev : new NodeInfo(c.node, c.generation, c.used, c.releasing, c.gpus,
              gpuInventory.deviceUsage(name, c.gpus, c.pods.values()));
      copies.put(name, copy);
      list.add(copy);
    }
    lastCopies = copies;
    return new ClusterSnapshot(list, List.copyOf(ownPods.values()), Map.copyOf(podGroups),
        new TreeMap<>(queues), Map.copyOf(priorityClasses), defaultQueue, Map.copyOf(liveNominations()));
  }
}
