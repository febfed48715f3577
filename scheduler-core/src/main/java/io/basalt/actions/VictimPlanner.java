package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The victims preempt and reclaim may choose from, as units that can go on their own: a single pod of a gang that
 * stays at or above its minMember without it, or a whole gang that would not. A unit goes only if the plugins allow
 * every one of its pods. Units come cheapest first: lowest queue priority (reclaim takes from the least important
 * queue first, as Volcano does), lowest pod priority, then fewest GPUs (then other resources), then most recently
 * created (Kueue's rule: the work that loses least), then by name, so plans are deterministic.
 */
final class VictimPlanner {
  /** Which running pods an action may consider, and the rules on them. */
  interface Scope {
    /** Whether pods of {@code victimQueue} may be victims for a pod of {@code preemptorQueue} at all. */
    boolean inScope(String preemptorQueue, String victimQueue);

    List<TaskInfo> allowed(Session session, TaskInfo preemptor, List<TaskInfo> candidates);

    /**
     * Whether {@code victim}'s pods may still be taken now, after the units taken before it (reclaim: queue share).
     * Depends on the victim's queue alone: it is asked once per queue, with any of its jobs.
     */
    boolean mayTake(Session session, JobInfo victim);
  }

  /** Pods evicted together; {@code gpus} and {@code size} (largest share of one node's resources, per mille) rank it. */
  record Unit(JobInfo job, List<TaskInfo> tasks, int queuePriority, int priority, long gpus, long size,
      Instant newest, String key) {}

  private static final Comparator<Unit> CHEAPEST = Comparator.comparingInt(Unit::queuePriority)
      .thenComparingInt(Unit::priority)
      .thenComparingLong(Unit::gpus)
      .thenComparingLong(Unit::size)
      .thenComparing(Unit::newest, Comparator.nullsLast(Comparator.reverseOrder()))
      .thenComparing(Unit::key);

  private static final Comparator<TaskInfo> SPARE_FIRST = Comparator.comparingInt(TaskInfo::priority)
      .thenComparing((TaskInfo t) -> t.pod().creationTimestamp(), Comparator.nullsLast(Comparator.reverseOrder()))
      .thenComparing(TaskInfo::key);

  static final String PREEMPTABLE = "volcano.sh/preemptable";

  private VictimPlanner() {}

  static boolean isRunning(TaskInfo t) {
    return t.status() == TaskStatus.RUNNING || t.status() == TaskStatus.BOUND;
  }

  /** Units {@code preemptor} may evict among {@code running} (pods not opted out), cheapest first. */
  static List<Unit> units(Session session, TaskInfo preemptor, Scope scope, List<TaskInfo> running) {
    List<TaskInfo> inScope = new ArrayList<>();
    // A job's pods come one after another in running: the scope is asked once per job, not once per pod (reclaim's
    // answer costs two queue lookups), and it depends only on the two queues.
    JobInfo lastJob = null;
    boolean lastInScope = false;
    for (TaskInfo t : running) {
      if (t.job() == preemptor.job() || !isRunning(t)) {
        continue;
      }
      if (t.job() != lastJob) {
        lastJob = t.job();
        lastInScope = scope.inScope(preemptor.job().queue(), lastJob.queue());
      }
      if (lastInScope) {
        inScope.add(t);
      }
    }
    return unitsAmong(session, preemptor, scope, inScope);
  }

  /**
   * As {@link #units(Session, TaskInfo, Scope, List)} over the session's {@link RunningPods}: only the jobs of the
   * queues in scope are visited (the scope asked once per queue, as its answer depends on the two queues alone), in
   * the same order, so the plugins see the same candidates.
   */
  static List<Unit> units(Session session, TaskInfo preemptor, Scope scope, RunningPods running) {
    java.util.BitSet queues = running.inScope(scope, preemptor.job().queue());
    List<TaskInfo> inScope = new ArrayList<>();
    if (!queues.isEmpty()) {
      for (RunningPods.JobPods j : running.jobs()) {
        if (j.job() == preemptor.job() || !queues.get(j.queue())) {
          continue;
        }
        List<TaskInfo> pods = j.pods();
        for (int i = 0, n = pods.size(); i < n; i++) {
          if (isRunning(pods.get(i))) {
            inScope.add(pods.get(i));
          }
        }
      }
    }
    return unitsAmong(session, preemptor, scope, inScope);
  }

  /** The units of {@code inScope} (running candidates in session order) the plugins allow, cheapest first. */
  private static List<Unit> unitsAmong(Session session, TaskInfo preemptor, Scope scope, List<TaskInfo> inScope) {
    if (inScope.isEmpty()) {
      return List.of();
    }
    Set<TaskInfo> allowed = Collections.newSetFromMap(new IdentityHashMap<>());
    allowed.addAll(scope.allowed(session, preemptor, inScope));
    if (allowed.isEmpty()) {
      return List.of();
    }
    // Only jobs with an allowed pod: a job without one has neither a pod to spare nor all its pods allowed.
    Map<JobInfo, List<TaskInfo>> byJob = new LinkedHashMap<>();
    for (TaskInfo t : inScope) {
      if (allowed.contains(t)) {
        byJob.computeIfAbsent(t.job(), j -> new ArrayList<>());
      }
    }
    for (TaskInfo t : inScope) {
      List<TaskInfo> pods = byJob.get(t.job());
      if (pods != null) {
        pods.add(t);
      }
    }
    List<Unit> units = new ArrayList<>();
    for (Map.Entry<JobInfo, List<TaskInfo>> e : byJob.entrySet()) {
      JobInfo job = e.getKey();
      if (busy(job)) {
        continue; // a gang member is mid-placement: evicting around it would strand the rest
      }
      int spare = job.readyTaskNum() - Math.max(job.minMember(), 0);
      int singles = 0;
      if (spare > 0) {
        List<TaskInfo> pods = new ArrayList<>(e.getValue());
        // The pods a gang can spare: lowest priority first, then the most recently created.
        pods.sort(SPARE_FIRST);
        for (TaskInfo t : pods) {
          if (singles < spare && allowed.contains(t)) {
            units.add(unit(session, job, List.of(t)));
            singles++;
          }
        }
      }
      List<TaskInfo> all = new ArrayList<>();
      for (TaskInfo t : job.tasks()) {
        if (isRunning(t)) {
          all.add(t);
        }
      }
      if (!all.isEmpty() && allowed.containsAll(all) && all.size() > singles) {
        units.add(unit(session, job, all));
      }
    }
    units.sort(CHEAPEST);
    return units;
  }

  /** {@code units} in the cheapest-first order {@link #units} gives. */
  static void sortCheapestFirst(List<Unit> units) {
    units.sort(CHEAPEST);
  }

  /** The same units, largest first: fewer pods for the same room. */
  static List<Unit> largestFirst(List<Unit> units) {
    List<Unit> out = new ArrayList<>(units);
    out.sort(Comparator.comparingLong(Unit::gpus).reversed()
        .thenComparing(Comparator.comparingLong(Unit::size).reversed()).thenComparing(CHEAPEST));
    return out;
  }

  /**
   * What a plan costs, compared lexicographically: GPUs, pods, then the highest victim priority (a pod in two units,
   * a whole gang after one of its own pods, counts twice: rare, and only ever against that plan).
   */
  static long[] cost(List<Unit> plan) {
    long top = Long.MIN_VALUE;
    long gpus = 0;
    long pods = 0;
    for (Unit u : plan) {
      top = Math.max(top, u.priority());
      gpus += u.gpus();
      pods += u.tasks().size();
    }
    return new long[] {gpus, pods, plan.isEmpty() ? 0 : top};
  }

  static boolean anyRunning(Unit u) {
    for (TaskInfo t : u.tasks()) {
      if (isRunning(t)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A pod marked {@code volcano.sh/preemptable: "false"} (annotation or label) is never a victim, as in Volcano's
   * preempt and reclaim actions, whichever plugins the tiers hold.
   */
  static boolean optedOut(TaskInfo t) {
    return "false".equalsIgnoreCase(t.pod().annotations().get(PREEMPTABLE))
        || "false".equalsIgnoreCase(t.pod().labels().get(PREEMPTABLE));
  }

  private static boolean busy(JobInfo job) {
    return job.count(TaskStatus.ALLOCATED) > 0 || job.count(TaskStatus.PIPELINED) > 0;
  }

  private static Unit unit(Session session, JobInfo job, List<TaskInfo> tasks) {
    int priority = Integer.MIN_VALUE;
    long gpus = 0;
    long size = 0;
    Instant newest = null;
    for (TaskInfo t : tasks) {
      priority = Math.max(priority, t.priority());
      Size s = size(session, t);
      gpus += s.gpus();
      size += s.share();
      Instant c = t.pod().creationTimestamp();
      if (c != null && (newest == null || c.isAfter(newest))) {
        newest = c;
      }
    }
    var queue = session.queue(job.queue());
    int queuePriority = queue == null ? 0 : queue.queue().priority();
    // Unique (a job's units are its spare pods alone and the rest whole, never one pod twice) and ordered as the
    // concatenation of the pods' keys would be.
    String key = tasks.get(0).key() + ",#" + tasks.size();
    return new Unit(job, List.copyOf(tasks), queuePriority, priority, gpus, size, newest, key);
  }

  /** A running pod's GPUs and largest share of its node, the same for every pool built this session. */
  private record Size(long gpus, long share, io.basalt.api.NodeInfo node) {}

  private static final io.basalt.api.CycleState.Key<Size> SIZE = io.basalt.api.CycleState.key("victim size");

  private static Size size(Session session, TaskInfo t) {
    return t.cycleState(SIZE, x -> {
      var node = session.node(x.nodeName());
      return new Size(gpus(x), share(node, x), node);
    });
  }

  /** The node a running pod is on, or null; looked up once per session. */
  static io.basalt.api.NodeInfo nodeOf(Session session, TaskInfo t) {
    return size(session, t).node();
  }

  /** GPUs of any vendor the pod holds (resources named {@code .../gpu}). */
  static long gpus(TaskInfo t) {
    long n = 0;
    for (int r = 0, size = t.request().size(); r < size; r++) {
      long q = t.request().get(r);
      if (q != 0 && ResourceNames.name(r).endsWith("/gpu")) {
        n += q;
      }
    }
    return n;
  }

  /** The pod's largest share of its node's allocatable, per mille: a size comparable across resources. */
  private static long share(io.basalt.api.NodeInfo node, TaskInfo t) {
    long w = 0;
    for (int r = 0; r < t.request().size(); r++) {
      long alloc = node == null ? 0 : node.allocatable(r);
      if (r != ResourceNames.PODS && alloc > 0) {
        w = Math.max(w, t.request().get(r) * 1000 / alloc);
      }
    }
    return w;
  }
}
