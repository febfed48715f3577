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
record VictimOrder(List<VictimPlanner.Unit> units, java.util.Map<String, List<VictimPlanner.Unit>> byNode,
    java.util.Map<String, long[]> freeable) {
  static VictimOrder of(List<VictimPlanner.Unit> units) {
    java.util.Map<String, List<VictimPlanner.Unit>> byNode = byNode(units);
    return new VictimOrder(units, byNode, freeable(byNode));
  }

  /** A node and the units to evict there. */
  record NodeChoice(NodeInfo node, List<VictimPlanner.Unit> units) {}

  /**
   * For each node with victims, the cheapest units there (in {@code order}) that let {@code task} fit once gone,
   * spared again where not needed, with the plugins' consent for the set; the node whose set costs least wins (fewest
   * GPUs, pods, then priority). A whole gang counts whole though only its pods on that node make room there.
   */
  NodeChoice cheapestNode(Session session, VictimPlanner.Scope scope, TaskInfo task,
      java.util.Set<VictimPlanner.Unit> chosen) {
    boolean[] skip = session.callbacks().deviceManagedResources();
    int enough = Math.max(100, session.nodes().size() / 10); // as kube-scheduler's preemption: enough candidates
    int found = 0;
    NodeChoice best = null;
    long[] bestCost = null;
    for (java.util.Map.Entry<String, List<VictimPlanner.Unit>> e : byNode.entrySet()) {
      NodeInfo node = session.node(e.getKey());
      long[] all = freeable.get(e.getKey());
      if (node == null || all == null || !fitsWith(node, all, task, skip)) {
        continue; // even every victim there would not make room: skip the greedy walk
      }
      long[] freed = new long[Math.max(task.request().size(), 1)];
      List<VictimPlanner.Unit> taken = new ArrayList<>();
      for (VictimPlanner.Unit u : e.getValue()) {
        if (fitsWith(node, freed, task, skip)) {
          break;
        }
        if (chosen.contains(u) || !VictimPlanner.anyRunning(u)) {
          continue;
        }
        taken.add(u);
        addOnNode(freed, u, node.name(), 1);
      }
      if (taken.isEmpty() || !fitsWith(node, freed, task, skip)) {
        continue;
      }
      for (int i = taken.size() - 1; i >= 0 && taken.size() > 1; i--) {
        addOnNode(freed, taken.get(i), node.name(), -1);
        if (fitsWith(node, freed, task, skip)) {
          taken.remove(i);
        } else {
          addOnNode(freed, taken.get(i), node.name(), 1);
        }
      }
      long[] cost = VictimPlanner.cost(taken);
      if (best != null && java.util.Arrays.compare(cost, bestCost) >= 0) {
        continue;
      }
      if (session.callbacks().filter(task, node).ok() && consentsAll(session, scope, task, taken)) {
        best = new NodeChoice(node, taken);
        bestCost = cost;
        if (++found >= enough) {
          break;
        }
      }
    }
    return best;
  }

  /** What evicting every unit on each node would free there: an upper bound that rules nodes out cheaply. */
  private static java.util.Map<String, long[]> freeable(java.util.Map<String, List<VictimPlanner.Unit>> byNode) {
    java.util.Map<String, long[]> out = new java.util.HashMap<>();
    byNode.forEach((node, units) -> {
      long[] sum = new long[io.basalt.model.ResourceNames.count()];
      for (VictimPlanner.Unit u : units) {
        addOnNode(sum, u, node, 1);
      }
      out.put(node, sum);
    });
    return out;
  }

  /** The units of {@code order} by the nodes their running pods are on, in {@code order}'s order on each node. */
  private static java.util.Map<String, List<VictimPlanner.Unit>> byNode(List<VictimPlanner.Unit> order) {
    java.util.Map<String, List<VictimPlanner.Unit>> byNode = new java.util.LinkedHashMap<>();
    for (VictimPlanner.Unit u : order) {
      for (TaskInfo t : u.tasks()) {
        if (VictimPlanner.isRunning(t)) {
          List<VictimPlanner.Unit> here = byNode.computeIfAbsent(t.nodeName(), n -> new ArrayList<>());
          if (here.isEmpty() || here.get(here.size() - 1) != u) {
            here.add(u);
          }
        }
      }
    }
    return byNode;
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

  private static void addOnNode(long[] freed, VictimPlanner.Unit u, String node, int sign) {
    for (TaskInfo t : u.tasks()) {
      if (VictimPlanner.isRunning(t) && node.equals(t.nodeName())) {
        for (int r = 0; r < Math.min(freed.length, t.request().size()); r++) {
          freed[r] += sign * t.request().get(r);
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
  static NodeInfo placeOnVictimNodes(Session session, TaskInfo task, VictimPlanner.Unit u) {
    if (!session.callbacks().allocatable(session.queue(task.job().queue()), task)) {
      return null;
    }
    boolean[] skip = session.callbacks().deviceManagedResources();
    NodeInfo best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (TaskInfo victim : u.tasks()) {
      NodeInfo node = session.node(victim.nodeName());
      if (node == null || node == best || node.firstShortOfFuture(task.request(), skip) >= 0
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
