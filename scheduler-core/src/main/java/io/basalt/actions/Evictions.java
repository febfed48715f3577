package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.search.NodeSearch;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * What preempt and reclaim share: for each starving job (fewer tasks placed or reserved than its minMember), in queue
 * then job order, free room for its pending tasks by evicting others, all inside one statement. The job's tasks are
 * pipelined onto the freed nodes (nominated there) and bind in a later cycle once the victims are gone; if the job
 * cannot get enough of its gang that way, nothing is evicted.
 */
final class Evictions {
  private final NodeSearch search = new NodeSearch(0);
  /** Allowed victims by who asks (queue, priority, class), reused until an eviction commits. */
  private VictimPools pools;
  /** Jobs that surely get no plan, told before their pool is built. */
  private final NoPlan noPlan = new NoPlan();

  /** Plans with more units than this are kept as found: pruning costs a full placement trial per unit. */
  private static final int MAX_PRUNED = 256;

  /** Whether {@code queue} may evict for {@code task} at all (reclaim: the queue is below its share). */
  interface QueueGate {
    boolean mayEvictFor(Session session, QueueInfo queue, TaskInfo task);
  }

  /** A pending task's shape with what victim rules look at: its job's priority and queue. */
  private record Seeker(Object shape, int jobPriority, String queue) {
    static Seeker of(TaskInfo t) {
      return new Seeker(NodeSearch.shape(t), t.job().priority(), t.job().queue());
    }
  }

  void run(Session session, VictimPlanner.Scope scope, QueueGate gate,
      BiFunction<TaskInfo, TaskInfo, String> reason) {
    // Evictions only take victims away, so a shape that found none finds none later in this run either.
    java.util.Set<Seeker> hopeless = new java.util.HashSet<>();
    pools = new VictimPools(scope);
    List<JobInfo> starving = new ArrayList<>();
    List<JobInfo> all = session.jobs();
    for (int at = 0, n = all.size(); at < n; at++) { // indexed: a backlog's 50k jobs
      JobInfo job = all.get(at);
      // Starving first: a few hundred jobs of thousands, and the plugins' validity check costs more.
      if (job.phase() != PodGroupPhase.PENDING && isStarving(job) && session.jobInvalidReason(job) == null) {
        starving.add(job);
      }
    }
    if (starving.isEmpty()) {
      return; // no victims to index: most cycles of a cluster that has room
    }
    // The pods that may ever be victims, indexed once per session (preempt and reclaim share it).
    RunningPods running = RunningPods.of(session);
    JobsInQueueOrder.sort(session, starving);
    for (JobInfo job : starving) {
      if (isStarving(job)) {
        freeRoomFor(session, job, scope, gate, reason, running, hopeless);
      }
    }
  }

  static boolean isStarving(JobInfo job) {
    return job.count(TaskStatus.PENDING) > 0 && job.readyTaskNum() + job.waitingTaskNum() < job.minMember();
  }

  /**
   * Chooses the victims for the whole job: units are evicted in order until every missing member of the gang fits
   * (on any nodes), then each chosen unit the plan turns out not to need is spared again, most expensive first. Two
   * orders are tried, cheapest unit first and largest first (fewest pods for the same room), and the cheaper plan
   * wins: fewest GPUs, then fewest pods, then the lowest top priority. The job's pods are pipelined onto the freed
   * nodes. No plan, no evictions.
   */
  private void freeRoomFor(Session session, JobInfo job, VictimPlanner.Scope scope, QueueGate gate,
      BiFunction<TaskInfo, TaskInfo, String> reason, RunningPods running, java.util.Set<Seeker> hopeless) {
    TaskInfo first = firstPending(session, job);
    if (first == null) {
      return;
    }
    Seeker seeker = Seeker.of(first);
    if (hopeless.contains(seeker) || !gate.mayEvictFor(session, session.queue(job.queue()), first)) {
      return;
    }
    if (noPlan.certain(session, job, first, scope, running)) {
      // The outcome of the one trial it would get, without building its pool or trying: no plan, a hopeless shape.
      pools.defer(first); // built, for this asker, before the next job that tries
      search.restore(session, search.checkpoint(session)); // the "no node fits" memo as that trial leaves it
      hopeless.add(seeker);
      return;
    }
    VictimPool pool = pools.get(session, first);
    List<TaskInfo> pending = JobPlacer.pendingTasks(session, job, t -> true);
    Statement stmt = session.newStatement();
    List<VictimPlanner.Unit> best = null;
    long[] bestCost = null;
    Reach bestReach = null;
    NodeSearch.Checkpoint memo = search.checkpoint(session);
    for (List<Reach> tier : Reach.forJob(session, job, first)) {
      for (Reach reach : tier) {
        for (int i = 0; i < 2; i++) {
          VictimOrder order = pool.order(session, i);
          List<VictimPlanner.Unit> plan = plan(session, job, pending, order, stmt, scope, first, reason, reach);
          stmt.discard();
          search.restore(session, memo); // the trial is undone: what found no node before still finds none
          long[] cost = plan == null ? null : VictimPlanner.cost(plan);
          if (cost != null && (best == null || java.util.Arrays.compare(cost, bestCost) < 0)) {
            best = plan;
            bestCost = cost;
            bestReach = reach;
          }
          if (plan == null || plan.size() == 1) {
            break; // no plan from the cheapest units, or one unit: the other order cannot do better
          }
        }
      }
      if (best != null) {
        break; // the lowest tier where some domain can hold the job; its cheapest plan
      }
    }
    if (best == null) {
      if (!DomainPlacer.applies(session, job)) {
        hopeless.add(seeker); // a job pinned to domains says nothing about others of its shape
      }
      return;
    }
    if (best.isEmpty()) {
      return; // it fits without evicting anyone: placing it is allocate's business
    }
    evictAll(session, stmt, best, scope, first, reason);
    for (TaskInfo task : pending) {
      if (!isStarving(job)) {
        break;
      }
      NodeInfo node = place(session, task, bestReach);
      if (node != null) {
        stmt.pipeline(task, node);
      }
    }
    if (!isStarving(job) && session.callbacks().jobPipelined(job)) {
      stmt.commit();
      pools.refreshTouching(session, best, job);
    } else {
      stmt.discard();
      search.restore(session, memo);
    }
  }

  /**
   * The first of the job's pending pods in task order, as {@link JobPlacer#pendingTasks} would put it (the task order
   * ends on the pod's key, so the least is unique), without sorting them all: most starving jobs get no further.
   */
  static TaskInfo firstPending(Session session, JobInfo job) {
    java.util.Comparator<TaskInfo> order = session.callbacks().taskOrder();
    TaskInfo first = null;
    for (TaskInfo t : job.tasks()) {
      if (t.status() == TaskStatus.PENDING && (first == null || order.compare(t, first) < 0)) {
        first = t;
      }
    }
    return first;
  }

  /**
   * Goes through the job's missing members in order, as Volcano's preempt does: a member that fits is pipelined;
   * for one that does not, units of {@code order} are taken (each with the plugins' consent for that member, asked
   * after the members and victims before it, so drf and queue shares count them) until it fits. Then the units the
   * job turns out not to need are spared. Null when the job cannot get all its missing members.
   */
  private List<VictimPlanner.Unit> plan(Session session, JobInfo job, List<TaskInfo> pending,
      VictimOrder units, Statement stmt, VictimPlanner.Scope scope, TaskInfo first,
      BiFunction<TaskInfo, TaskInfo, String> reason, Reach reach) {
    List<VictimPlanner.Unit> chosen = new ArrayList<>();
    java.util.Set<VictimPlanner.Unit> taken = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    List<VictimPlanner.Unit> order = units.units();
    // A queue the rule refuses now stays refused while this plan only takes victims away (reclaim: a queue at its
    // share only falls further): no node's cheapest set is built around its units.
    java.util.Set<String> refused = units.refusedQueues(session, scope);
    // A shape that found no node before any eviction finds none later either, except on the victims' nodes.
    java.util.Set<Object> noRoom = new java.util.HashSet<>();
    QueueInfo queue = session.queue(job.queue());
    boolean ownQueueVictims = units.hasVictimsIn(job.queue());
    for (TaskInfo task : pending) {
      if (!isStarving(job)) {
        break;
      }
      if (!ownQueueVictims && !session.callbacks().allocatable(queue, task)) {
        return null; // its queue has no room, and only victims in that queue could make some
      }
      NodeInfo node = null;
      if (noRoom.isEmpty() || !noRoom.contains(NodeSearch.shape(task))) {
        node = place(session, task, reach);
        if (node == null) {
          noRoom.add(NodeSearch.shape(task));
        }
      }
      for (int i = 0; node == null && i < chosen.size(); i++) {
        node = VictimOrder.placeOnVictimNodes(session, task, chosen.get(i), reach);
      }
      if (node == null && session.callbacks().allocatable(queue, task)) {
        // Room on one node: the cheapest set of units there that makes the member fit.
        VictimOrder.NodeChoice c = units.cheapestNode(session, scope, task, taken, refused, reach);
        if (c != null) {
          for (VictimPlanner.Unit u : c.units()) {
            evict(stmt, u, task, reason);
            chosen.add(u);
            taken.add(u);
          }
          node = c.node();
        }
      }
      // Room in the queue: its own cheapest victims until it has some (preemption inside a capped queue); for a job
      // held to a domain, those running inside it first, which make room there too.
      List<VictimPlanner.Unit> queueOrder = reach.nodes() == null ? order : insideFirst(session, order, reach);
      for (int i = 0; node == null && !session.callbacks().allocatable(queue, task) && i < queueOrder.size(); i++) {
        VictimPlanner.Unit u = queueOrder.get(i);
        if (taken.contains(u) || refused.contains(u.job().queue()) || !VictimPlanner.anyRunning(u)
            || !consents(session, scope, task, u)) {
          continue;
        }
        boolean queueWasFull = !session.callbacks().allocatable(queue, task);
        evict(stmt, u, task, reason);
        chosen.add(u);
        taken.add(u);
        // Only the victims' nodes gained room, unless the queue itself was the limit: then, once it has room, any
        // node may do.
        if (!queueWasFull) {
          node = VictimOrder.placeOnVictimNodes(session, task, u, reach);
        } else if (session.callbacks().allocatable(queue, task)) {
          node = place(session, task, reach);
        }
      }
      if (node == null) {
        return null;
      }
      stmt.pipeline(task, node);
    }
    if (isStarving(job)) {
      return null;
    }
    return spareWhatIsNotNeeded(session, job, pending, chosen, stmt, scope, first, reason, reach);
  }

  /** {@code order}'s units with a pod running inside {@code reach} first, each part in its order. */
  private static List<VictimPlanner.Unit> insideFirst(Session session, List<VictimPlanner.Unit> order, Reach reach) {
    List<VictimPlanner.Unit> inside = new ArrayList<>();
    List<VictimPlanner.Unit> outside = new ArrayList<>();
    for (VictimPlanner.Unit u : order) {
      boolean in = false;
      for (TaskInfo t : u.tasks()) {
        in |= VictimPlanner.isRunning(t) && reach.has(VictimPlanner.nodeOf(session, t));
      }
      (in ? inside : outside).add(u);
    }
    inside.addAll(outside);
    return inside;
  }

  /** Drops each chosen unit, most expensive first, that the job does not need. */
  private List<VictimPlanner.Unit> spareWhatIsNotNeeded(Session session, JobInfo job, List<TaskInfo> pending,
      List<VictimPlanner.Unit> chosen, Statement stmt, VictimPlanner.Scope scope, TaskInfo first,
      BiFunction<TaskInfo, TaskInfo, String> reason, Reach reach) {
    List<VictimPlanner.Unit> keep = new ArrayList<>(chosen);
    if (keep.size() > 1 && keep.size() <= MAX_PRUNED) {
      List<VictimPlanner.Unit> byCost = new ArrayList<>(keep);
      java.util.Collections.reverse(byCost);
      for (VictimPlanner.Unit u : byCost) {
        List<VictimPlanner.Unit> without = new ArrayList<>(keep);
        without.remove(u);
        stmt.discard();
        if (evictAll(session, stmt, without, scope, first, reason) && fits(session, job, pending, reach)) {
          keep = without;
        }
      }
    }
    return keep;
  }

  /**
   * Evicts {@code units} again (after a discard), keeping the queue rule; the plugins consented to each when the plan
   * took it, and taking fewer victims never turns a consent into a refusal.
   */
  private static boolean evictAll(Session session, Statement stmt, List<VictimPlanner.Unit> units,
      VictimPlanner.Scope scope, TaskInfo first, BiFunction<TaskInfo, TaskInfo, String> reason) {
    for (VictimPlanner.Unit u : units) {
      if (!scope.mayTake(session, u.job())) {
        return false;
      }
      evict(stmt, u, first, reason);
    }
    return true;
  }

  /**
   * Whether the unit may go for {@code preemptor} now, after the victims and members placed before: the queue rule
   * (reclaim) and the plugins asked again, since their answers depend on what was taken (drf counts shares).
   */
  private static boolean consents(Session session, VictimPlanner.Scope scope, TaskInfo preemptor,
      VictimPlanner.Unit u) {
    if (!scope.mayTake(session, u.job())) {
      return false;
    }
    List<TaskInfo> left = new ArrayList<>();
    for (TaskInfo t : u.tasks()) {
      if (VictimPlanner.isRunning(t)) {
        left.add(t);
      }
    }
    return scope.allowed(session, preemptor, left).size() == left.size();
  }

  /** Evicts the unit's pods still running (a whole gang may follow one of its own pods taken alone). */
  private static void evict(Statement stmt, VictimPlanner.Unit u, TaskInfo preemptor,
      BiFunction<TaskInfo, TaskInfo, String> reason) {
    for (TaskInfo victim : u.tasks()) {
      if (VictimPlanner.isRunning(victim)) {
        stmt.evict(victim, reason.apply(victim, preemptor));
      }
    }
  }

  /**
   * Where {@code task} would go now (counting what is being released), or null: no node has room, or its queue has
   * none (a queue at its capability makes room by preempting inside itself).
   */
  private NodeInfo place(Session session, TaskInfo task, Reach reach) {
    if (!session.callbacks().allocatable(session.queue(task.job().queue()), task)) {
      return null;
    }
    return search.probe(session, task, reach.scope());
  }


  /**
   * Whether the job's missing members would all find a node now (counting what is being released), tried and undone;
   * each takes the first node with room, since only the answer counts here.
   */
  private boolean fits(Session session, JobInfo job, List<TaskInfo> pending, Reach reach) {
    Statement probe = session.newStatement();
    for (TaskInfo task : pending) {
      if (!isStarving(job)) {
        break;
      }
      NodeInfo node = session.callbacks().allocatable(session.queue(task.job().queue()), task)
          ? search.anyFit(session, task, reach.nodes(session)) : null;
      if (node != null) {
        probe.pipeline(task, node);
      }
    }
    boolean ok = !isStarving(job);
    probe.discard();
    return ok;
  }
}
