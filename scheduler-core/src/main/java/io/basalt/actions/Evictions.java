package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
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
  private final java.util.Map<PoolKey, List<TaskInfo>> pools = new java.util.HashMap<>();

  /** What the plugins' verdict on the whole pool depends on. */
  private record PoolKey(String queue, int jobPriority, String priorityClass, String preemptionPolicy) {
    static PoolKey of(TaskInfo t) {
      return new PoolKey(t.job().queue(), t.job().priority(), t.pod().priorityClassName(),
          t.pod().preemptionPolicy());
    }
  }

  /** Whether {@code queue} may evict for {@code task} at all (reclaim: the queue is below its share). */
  interface QueueGate {
    boolean mayEvictFor(Session session, QueueInfo queue, TaskInfo task);
  }

  /** A pending task's shape with what victim rules look at: its job's priority and queue. */
  private record Seeker(TaskShape shape, int jobPriority, String queue) {
    static Seeker of(TaskInfo t) {
      return new Seeker(TaskShape.of(t), t.job().priority(), t.job().queue());
    }
  }

  void run(Session session, VictimSearch.Scope scope, QueueGate gate,
      BiFunction<TaskInfo, TaskInfo, String> reason) {
    List<TaskInfo> running = new ArrayList<>();
    for (JobInfo job : session.jobs()) {
      for (TaskInfo t : job.tasks()) {
        if (VictimSearch.isRunning(t)) {
          running.add(t);
        }
      }
    }
    // Evictions only take victims away, so a shape that found none finds none later in this run either.
    java.util.Set<Seeker> hopeless = new java.util.HashSet<>();
    pools.clear();
    List<JobInfo> starving = new ArrayList<>();
    for (JobInfo job : session.jobs()) {
      if (job.phase() != PodGroupPhase.PENDING && session.jobInvalidReason(job) == null && isStarving(job)) {
        starving.add(job);
      }
    }
    starving.sort((a, b) -> {
      int c = session.callbacks().queueOrder().compare(session.queue(a.queue()), session.queue(b.queue()));
      return c != 0 ? c : session.callbacks().jobOrder().compare(a, b);
    });
    for (JobInfo job : starving) {
      if (isStarving(job)) {
        freeRoomFor(session, job, scope, gate, reason, running, hopeless);
      }
    }
  }

  static boolean isStarving(JobInfo job) {
    return job.count(TaskStatus.PENDING) > 0 && job.readyTaskNum() + job.waitingTaskNum() < job.minMember();
  }

  private void freeRoomFor(Session session, JobInfo job, VictimSearch.Scope scope, QueueGate gate,
      BiFunction<TaskInfo, TaskInfo, String> reason, List<TaskInfo> running, java.util.Set<Seeker> hopeless) {
    QueueInfo queue = session.queue(job.queue());
    Statement stmt = session.newStatement();
    boolean evicted = false;
    for (TaskInfo task : JobPlacer.pendingTasks(session, job, t -> true)) {
      if (!isStarving(job) || !gate.mayEvictFor(session, queue, task)) {
        break;
      }
      NodeSearch.Result free = search.find(session, task);
      if (free.node() != null) {
        stmt.pipeline(task, free.node());
        continue;
      }
      Seeker seeker = Seeker.of(task);
      VictimSearch.Plan plan = null;
      if (!hopeless.contains(seeker)) {
        List<TaskInfo> pool = pools.computeIfAbsent(PoolKey.of(task),
            k -> VictimSearch.allowedPool(session, task, scope, running));
        plan = VictimSearch.find(session, task, scope, pool);
      }
      if (plan == null) {
        hopeless.add(seeker);
        break;
      }
      for (TaskInfo victim : plan.victims()) {
        stmt.evict(victim, reason.apply(victim, task));
        evicted = true;
      }
      stmt.pipeline(task, plan.node());
    }
    if (evicted && !isStarving(job) && session.callbacks().jobPipelined(job)) {
      stmt.commit();
      pools.clear();
    } else {
      stmt.discard();
    }
  }
}
