package io.basalt.actions;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * One order of the victim units a pool offers, with the units by node and what each node could free: built once per
 * pool and reused by every job asking the same pool until an eviction commits. Answers the per-node question of
 * victim planning: on which node does the cheapest set of units make room for one member.
 */
final class VictimOrder {
  /**
   * One node's victim units in the order's order, each unit's pods on this node beside it, and what evicting them all
   * would free there: resolved once per pool so the per-member walk does no lookups by name.
   */
  private record NodeVictims(NodeInfo node, List<VictimPlanner.Unit> units, List<List<TaskInfo>> podsHere) {}

  private final List<VictimPlanner.Unit> units;
  private final List<NodeVictims> nodes;
  /** The queues victims come from, each with one of its jobs (the queue rule is asked per queue). */
  private final java.util.Map<String, io.basalt.api.JobInfo> queues = new java.util.LinkedHashMap<>();
  /** Per set of queues the queue rule refuses: what each node could free without them (index of {@link #nodes}). */
  private final java.util.Map<java.util.Set<String>, long[][]> freeable = new java.util.HashMap<>();

  private VictimOrder(List<VictimPlanner.Unit> units, List<NodeVictims> nodes) {
    this.units = units;
    this.nodes = nodes;
    String last = null;
    for (VictimPlanner.Unit u : units) {
      String q = u.job().queue();
      if (q != last) { // units come grouped by queue priority, so mostly a queue's units follow each other
        queues.putIfAbsent(q, u.job());
        last = q;
      }
    }
  }

  boolean hasVictimsIn(String queue) {
    return queues.containsKey(queue);
  }

  /** The victim queues whose units the queue rule refuses now, in a set that keys {@link #freeable}. */
  java.util.Set<String> refusedQueues(Session session, VictimPlanner.Scope scope) {
    java.util.Set<String> refused = null;
    for (java.util.Map.Entry<String, io.basalt.api.JobInfo> e : queues.entrySet()) {
      if (!scope.mayTake(session, e.getValue())) {
        if (refused == null) {
          refused = new java.util.HashSet<>();
        }
        refused.add(e.getKey());
      }
    }
    return refused == null ? java.util.Set.of() : java.util.Set.copyOf(refused);
  }

  List<VictimPlanner.Unit> units() {
    return units;
  }

  static VictimOrder of(Session session, List<VictimPlanner.Unit> units) {
    java.util.Map<NodeInfo, NodeVictims> byNode = new java.util.IdentityHashMap<>();
    List<NodeVictims> nodes = new ArrayList<>();
    for (VictimPlanner.Unit u : units) {
      for (TaskInfo t : u.tasks()) {
        if (!VictimPlanner.isRunning(t)) {
          continue;
        }
        NodeInfo node = VictimPlanner.nodeOf(session, t);
        if (node == null) {
          continue;
        }
        NodeVictims nv = byNode.get(node);
        if (nv == null) {
          nv = new NodeVictims(node, new ArrayList<>(), new ArrayList<>());
          byNode.put(node, nv);
          nodes.add(nv);
        }
        if (nv.units().isEmpty() || nv.units().get(nv.units().size() - 1) != u) {
          nv.units().add(u);
          nv.podsHere().add(new ArrayList<>(2));
        }
        nv.podsHere().get(nv.podsHere().size() - 1).add(t);
      }
    }
    return new VictimOrder(units, nodes);
  }

  /**
   * What evicting every unit on each node would free there, leaving out the units of {@code refused} queues: an
   * upper bound that rules nodes out before the greedy walk. Units running when the pool was built; taking victims
   * only lowers it, so it stays an upper bound.
   */
  private long[][] freeable(java.util.Set<String> refused) {
    return freeable.computeIfAbsent(refused, r -> {
      long[][] out = new long[nodes.size()][io.basalt.model.ResourceNames.count()];
      for (int i = 0; i < nodes.size(); i++) {
        NodeVictims nv = nodes.get(i);
        for (int k = 0; k < nv.units().size(); k++) {
          if (!r.contains(nv.units().get(k).job().queue())) {
            add(out[i], nv.podsHere().get(k), 1);
          }
        }
      }
      return out;
    });
  }

  /** A node and the units to evict there. */
  record NodeChoice(NodeInfo node, List<VictimPlanner.Unit> units) {}

  /**
   * For each node with victims, the cheapest units there (in {@code order}, none of a {@code refused} queue) that let
   * {@code task} fit once gone, spared again where not needed, with the plugins' consent for the set; the node whose
   * set costs least wins (fewest GPUs, pods, then priority). A whole gang counts whole though only its pods on that node make room there.
   */
  NodeChoice cheapestNode(Session session, VictimPlanner.Scope scope, TaskInfo task,
      java.util.Set<VictimPlanner.Unit> chosen, java.util.Set<String> refused, Reach reach) {
    boolean[] skip = session.callbacks().deviceManagedResources();
    int enough = Math.max(100, session.nodes().size() / 10); // as kube-scheduler's preemption: enough candidates
    int found = 0;
    NodeChoice best = null;
    long[] bestCost = null;
    long[] freed = new long[io.basalt.model.ResourceNames.count()];
    long[][] upTo = freeable(refused);
    List<Integer> taken = new ArrayList<>();
    for (int n = 0; n < nodes.size(); n++) {
      NodeVictims nv = nodes.get(n);
      NodeInfo node = nv.node();
      if (!reach.has(node) || !fitsWith(node, upTo[n], task, skip)) {
        continue; // even every victim there would not make room: skip the greedy walk
      }
      java.util.Arrays.fill(freed, 0);
      taken.clear();
      for (int k = 0; k < nv.units().size(); k++) {
        if (fitsWith(node, freed, task, skip)) {
          break;
        }
        VictimPlanner.Unit u = nv.units().get(k);
        if (chosen.contains(u) || (!refused.isEmpty() && refused.contains(u.job().queue()))
            || !VictimPlanner.anyRunning(u)) {
          continue;
        }
        taken.add(k);
        add(freed, nv.podsHere().get(k), 1);
      }
      if (taken.isEmpty() || !fitsWith(node, freed, task, skip)) {
        continue;
      }
      for (int i = taken.size() - 1; i >= 0 && taken.size() > 1; i--) {
        List<TaskInfo> pods = nv.podsHere().get(taken.get(i));
        add(freed, pods, -1);
        if (fitsWith(node, freed, task, skip)) {
          taken.remove(i);
        } else {
          add(freed, pods, 1);
        }
      }
      List<VictimPlanner.Unit> units = new ArrayList<>(taken.size());
      for (int k : taken) {
        units.add(nv.units().get(k));
      }
      long[] cost = VictimPlanner.cost(units);
      if (best != null && java.util.Arrays.compare(cost, bestCost) >= 0) {
        continue;
      }
      if (session.callbacks().filter(task, node).ok() && consentsAll(session, scope, task, units)) {
        best = new NodeChoice(node, units);
        bestCost = cost;
        if (++found >= enough) {
          break;
        }
      }
    }
    return best;
  }

  private static boolean consentsAll(Session session, VictimPlanner.Scope scope, TaskInfo task,
      List<VictimPlanner.Unit> units) {
    List<TaskInfo> pods = new ArrayList<>();
    for (VictimPlanner.Unit u : units) {
      if (!scope.mayTake(session, u.job())) {
        return false;
      }
      for (TaskInfo t : u.tasks()) {
        if (VictimPlanner.isRunning(t)) {
          pods.add(t);
        }
      }
    }
    return scope.allowed(session, task, pods).size() == pods.size();
  }

  /** Adds (or with {@code sign} -1 takes back) the requests of those of {@code pods} still running. */
  private static void add(long[] freed, List<TaskInfo> pods, int sign) {
    for (TaskInfo t : pods) {
      if (VictimPlanner.isRunning(t)) {
        io.basalt.model.ResourceVector r = t.request();
        for (int i = 0, n = Math.min(freed.length, r.size()); i < n; i++) {
          freed[i] += sign * r.get(i);
        }
      }
    }
  }

  private static boolean fitsWith(NodeInfo node, long[] freed, TaskInfo task, boolean[] skip) {
    for (int r = 0; r < task.request().size(); r++) {
      long q = task.request().get(r);
      if (q > 0 && (skip == null || r >= skip.length || !skip[r])
          && node.futureIdle(r) + (r < freed.length ? freed[r] : 0) < q) {
        return false;
      }
    }
    return true;
  }

  /** Where {@code task} fits (counting what is released) among the nodes {@code u}'s pods run on, best score first. */
  static NodeInfo placeOnVictimNodes(Session session, TaskInfo task, VictimPlanner.Unit u, Reach reach) {
    if (!session.callbacks().allocatable(session.queue(task.job().queue()), task)) {
      return null;
    }
    boolean[] skip = session.callbacks().deviceManagedResources();
    NodeInfo best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (TaskInfo victim : u.tasks()) {
      NodeInfo node = session.node(victim.nodeName());
      if (node == null || node == best || !reach.has(node) || node.firstShortOfFuture(task.request(), skip) >= 0
          || !session.callbacks().filter(task, node).ok()) {
        continue;
      }
      double score = session.callbacks().score(task, node);
      if (best == null || score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }

}
