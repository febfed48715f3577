package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds, for one pending task, the node where evicting the fewest and lowest-priority pods lets it fit, for preempt
 * (victims in its own queue) and reclaim (victims in other, reclaimable queues).
 *
 * <p>Per node: the plugins say which running pods may go; those are taken lowest priority first (larger first
 * within a priority, so fewer go) until the task fits once they are gone, then any victim the task turns out not to
 * need is spared again. A victim whose gang would drop below its {@code minMember} takes the whole gang with it, so
 * no gang is left running half. Among nodes the plan with the fewest victims wins, then the one with the
 * lowest-priority victims. A node where even every allowed victim is not enough gets no evictions at all.
 *
 * <p>Like kube-scheduler's default preemption, the search stops after {@code max(100, 10% of nodes)} candidate
 * nodes, or as soon as a plan evicts a single pod of the lowest priority on offer (nothing can beat it).
 */
final class VictimSearch {
  /** Evict {@code victims} so the task fits on {@code node}. */
  record Plan(NodeInfo node, List<TaskInfo> victims) {}

  /** Which running pods a search may consider, and the plugins' verdict on them. */
  interface Scope {
    boolean inScope(TaskInfo preemptor, TaskInfo running);

    List<TaskInfo> allowed(Session session, TaskInfo preemptor, List<TaskInfo> candidates);
  }

  private VictimSearch() {}

  /** Running pods anywhere that the plugins would let go for {@code task}: where a search needs to look. */
  static List<TaskInfo> allowedPool(Session session, TaskInfo task, Scope scope, List<TaskInfo> running) {
    List<TaskInfo> pool = new ArrayList<>();
    for (TaskInfo t : running) {
      if (t.job() != task.job() && isRunning(t) && scope.inScope(task, t)) {
        pool.add(t);
      }
    }
    return pool.isEmpty() ? List.of() : scope.allowed(session, task, pool);
  }

  /**
   * @param allowedAnywhere from {@link #allowedPool}, possibly computed for an earlier task of the same queue and
   *     priority: it only picks the nodes to look at, each node's victims are asked of the plugins afresh
   */
  static Plan find(Session session, TaskInfo task, Scope scope, List<TaskInfo> allowedAnywhere) {
    if (allowedAnywhere.isEmpty()) {
      return null;
    }
    Set<TaskInfo> allowedSet = Collections.newSetFromMap(new IdentityHashMap<>());
    allowedSet.addAll(allowedAnywhere);
    Map<String, List<TaskInfo>> byNode = new LinkedHashMap<>();
    for (TaskInfo t : allowedAnywhere) {
      if (isRunning(t)) {
        byNode.computeIfAbsent(t.nodeName(), n -> new ArrayList<>()).add(t);
      }
    }
    int lowest = Integer.MAX_VALUE;
    for (TaskInfo t : allowedAnywhere) {
      lowest = Math.min(lowest, t.priority());
    }
    long[] unbeatable = {1, lowest, lowest};
    int enough = Math.max(100, session.nodes().size() / 10);
    int considered = 0;
    Plan best = null;
    long[] bestCost = null;
    for (String name : byNode.keySet()) {
      NodeInfo node = session.node(name);
      if (node == null || !canEverFit(node, task.request()) || !session.callbacks().filter(task, node).ok()) {
        continue;
      }
      List<TaskInfo> candidates = new ArrayList<>();
      for (TaskInfo t : session.tasksOn(name)) {
        if (t.job() != task.job() && isRunning(t) && scope.inScope(task, t)) {
          candidates.add(t);
        }
      }
      List<TaskInfo> victims = pick(node, task, scope.allowed(session, task, candidates));
      if (victims == null || !wholeGangs(victims, allowedSet)) {
        continue;
      }
      long[] cost = cost(victims);
      if (best == null || java.util.Arrays.compare(cost, bestCost) < 0) {
        best = new Plan(node, victims);
        bestCost = cost;
      }
      if (++considered >= enough || java.util.Arrays.compare(bestCost, unbeatable) <= 0) {
        break;
      }
    }
    return best;
  }

  static boolean isRunning(TaskInfo t) {
    return t.status() == TaskStatus.RUNNING || t.status() == TaskStatus.BOUND;
  }

  private static boolean canEverFit(NodeInfo node, ResourceVector request) {
    for (int r = 0; r < request.size(); r++) {
      if (request.get(r) > node.allocatable(r)) {
        return false;
      }
    }
    return true;
  }

  /** Lowest priority first, greedily until the task fits; then spare what it does not need. Null: never enough. */
  private static List<TaskInfo> pick(NodeInfo node, TaskInfo task, List<TaskInfo> allowed) {
    ResourceVector request = task.request();
    long[] freed = new long[ResourceNames.count()];
    if (fits(node, freed, request)) {
      return List.of();
    }
    List<TaskInfo> order = new ArrayList<>(allowed);
    order.sort(Comparator.comparingInt(TaskInfo::priority)
        .thenComparing(Comparator.comparingLong((TaskInfo t) -> weight(node, t)).reversed())
        .thenComparing(TaskInfo::key));
    List<TaskInfo> chosen = new ArrayList<>();
    for (TaskInfo v : order) {
      if (fits(node, freed, request)) {
        break;
      }
      chosen.add(v);
      add(freed, v.request(), 1);
    }
    if (!fits(node, freed, request)) {
      return null;
    }
    for (int i = chosen.size() - 1; i >= 0; i--) {
      TaskInfo v = chosen.get(i);
      add(freed, v.request(), -1);
      if (fits(node, freed, request)) {
        chosen.remove(i);
      } else {
        add(freed, v.request(), 1);
      }
    }
    return chosen;
  }

  /** How much of the node a pod holds, in per-mille of its largest share: bigger victims first means fewer go. */
  private static long weight(NodeInfo node, TaskInfo t) {
    long w = 0;
    for (int r = 0; r < t.request().size(); r++) {
      long alloc = node.allocatable(r);
      if (r != ResourceNames.PODS && alloc > 0) {
        w = Math.max(w, t.request().get(r) * 1000 / alloc);
      }
    }
    return w;
  }

  private static boolean fits(NodeInfo node, long[] freed, ResourceVector request) {
    for (int r = 0; r < request.size(); r++) {
      long q = request.get(r);
      if (q > 0 && node.futureIdle(r) + (r < freed.length ? freed[r] : 0) < q) {
        return false;
      }
    }
    return true;
  }

  private static void add(long[] target, ResourceVector r, int sign) {
    for (int i = 0; i < Math.min(target.length, r.size()); i++) {
      target[i] += sign * r.get(i);
    }
  }

  /**
   * Adds the rest of every gang that would otherwise drop below its minMember. False when one of those pods may not
   * be evicted, or a gang member is mid-placement: then this plan is not allowed.
   */
  private static boolean wholeGangs(List<TaskInfo> victims, Set<TaskInfo> allowed) {
    Map<JobInfo, Integer> perJob = new HashMap<>();
    for (TaskInfo v : victims) {
      perJob.merge(v.job(), 1, Integer::sum);
    }
    for (Map.Entry<JobInfo, Integer> e : perJob.entrySet()) {
      JobInfo job = e.getKey();
      if (job.readyTaskNum() - e.getValue() >= job.minMember()) {
        continue;
      }
      for (TaskInfo t : job.tasks()) {
        if (t.status() == TaskStatus.ALLOCATED || t.status() == TaskStatus.PIPELINED) {
          return false;
        }
        if (isRunning(t) && !victims.contains(t)) {
          if (!allowed.contains(t)) {
            return false;
          }
          victims.add(t);
        }
      }
    }
    return true;
  }

  /** Fewest victims, then lowest highest-priority victim, then lowest priority sum. */
  private static long[] cost(List<TaskInfo> victims) {
    long max = Long.MIN_VALUE;
    long sum = 0;
    for (TaskInfo v : victims) {
      max = Math.max(max, v.priority());
      sum += v.priority();
    }
    return new long[] {victims.size(), victims.isEmpty() ? 0 : max, sum};
  }
}
