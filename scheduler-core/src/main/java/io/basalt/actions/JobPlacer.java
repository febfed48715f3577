package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.search.NodeSearch;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Places the pending tasks of one job inside one statement, then asks permit: a ready job commits, a pipelined one
 * holds its reservations, anything else is rolled back whole. Shared by allocate and backfill so gang semantics are
 * the same in both.
 *
 * <p>A task that fits nowhere does not end the attempt while the job could still become ready without it (see
 * {@link GangProspect}): a gang of minMember 2 out of 3 pods, or a worker role that fits while an extra master does
 * not, still starts. The failed task's role is then skipped rather than searched again, its pods being identical.
 */
final class JobPlacer {
  /** What happened to the job. {@link #YIELDED}: ready and committed with tasks left; give others a turn. */
  enum Outcome { COMMITTED, YIELDED, HELD, DISCARDED, NOTHING_TO_DO }

  private final NodeSearch search;

  JobPlacer(NodeSearch search) {
    this.search = search;
  }

  /** A request as users write it, without the pod slot: {@code cpu: 16, memory: 128Gi, nvidia.com/gpu: 8}. */
  static String describe(io.basalt.model.ResourceVector request) {
    return request.without(io.basalt.model.ResourceNames.PODS).toQuantities().toString().replace("=", ": ");
  }

  /** Pending tasks of {@code job} that {@code which} selects, in the session's task order. */
  static List<TaskInfo> pendingTasks(Session session, JobInfo job, Predicate<TaskInfo> which) {
    List<TaskInfo> tasks = new ArrayList<>();
    for (TaskInfo t : job.tasks()) {
      if (t.status() == TaskStatus.PENDING && which.test(t)) {
        tasks.add(t);
      }
    }
    tasks.sort(session.callbacks().taskOrder());
    return tasks;
  }

  /**
   * @param yieldWhenReady commit and stop as soon as the job is ready while tasks remain, so other jobs interleave
   */
  Outcome place(Session session, JobInfo job, List<TaskInfo> tasks, boolean yieldWhenReady) {
    if (tasks.isEmpty()) {
      return Outcome.NOTHING_TO_DO;
    }
    Statement stmt = session.newStatement();
    if (fill(session, job, tasks, stmt, null, yieldWhenReady)) {
      stmt.commit();
      return Outcome.YIELDED;
    }
    return settle(session, job, stmt);
  }

  /**
   * Places what it can of {@code tasks} into {@code stmt}, on {@code scope}'s nodes (the whole cluster when null),
   * deciding nothing: the caller commits, tries elsewhere or discards. Returns true when it stopped early because the
   * job became ready and {@code yieldWhenReady} asked for that.
   */
  boolean fill(Session session, JobInfo job, List<TaskInfo> tasks, Statement stmt, NodeSearch.Scope scope,
      boolean yieldWhenReady) {
    QueueInfo queue = session.queue(job.queue());
    Map<String, String> failed = new HashMap<>(); // role -> why its pod fit nowhere in this attempt
    GangProspect prospect = null;
    for (TaskInfo t : tasks) {
      t.noteAttempt(null, null); // not tried, unless the loop reaches it
    }
    for (int i = 0; i < tasks.size(); i++) {
      TaskInfo task = tasks.get(i);
      String roleFailure = failed.isEmpty() ? null : failed.get(task.role()); // a role is an annotation lookup
      if (roleFailure != null) {
        task.noteAttempt(null, roleFailure); // identical to the pod of its role that was tried
        continue;
      }
      if (!session.callbacks().allocatable(queue, task)) {
        String why = ShareLimit.explain(session, job, tasks, i);
        task.noteAttempt(null, why);
        job.setFitError(task, why);
        break;
      }
      NodeSearch.Result r = search.find(session, task, scope);
      if (r.node() == null) {
        task.noteAttempt(null, r.fitError());
        job.setFitError(task, r.fitError());
        if (prospect == null) {
          prospect = new GangProspect(job, tasks.subList(i, tasks.size()));
        }
        prospect.failed(task);
        if (!task.role().isEmpty() && r.fitError() != null) {
          failed.put(task.role(), r.fitError());
        }
        if (!prospect.canBecomeReady()) {
          break;
        }
        continue;
      }
      task.noteAttempt(r.node().name(), null);
      if (r.pipelined()) {
        stmt.pipeline(task, r.node());
      } else {
        stmt.allocate(task, r.node());
      }
      if (prospect != null) {
        prospect.placed(task);
      }
      if (yieldWhenReady && i < tasks.size() - 1 && session.callbacks().jobReady(job)) {
        return true;
      }
    }
    return false;
  }

  /** Permit: a ready job commits, a pipelined one holds its reservations, anything else is rolled back. */
  Outcome settle(Session session, JobInfo job, Statement stmt) {
    if (session.callbacks().jobReady(job)) {
      stmt.commit();
      return Outcome.COMMITTED;
    }
    if (!stmt.isEmpty() && session.callbacks().jobPipelined(job)) {
      stmt.hold();
      return Outcome.HELD;
    }
    stmt.discard();
    return Outcome.DISCARDED;
  }
}
