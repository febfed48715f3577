package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.config.Arguments;
import io.basalt.search.NodeSearch;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * Places BestEffort tasks (no requests but the pod slot) of admitted jobs on any node that passes the filters. Gangs
 * stay all-or-nothing here too.
 *
 * <p>Arguments: {@code percentageOfNodesToScore}, as for allocate.
 */
final class Backfill implements Action {
  private final JobPlacer placer;

  Backfill(Arguments args) {
    this.placer = new JobPlacer(NodeSearch.configured(args));
  }

  @Override
  public String name() {
    return "backfill";
  }

  @Override
  public void execute(Session session) {
    // Only jobs with a best-effort task waiting are sorted: in a busy cluster that is a handful, not every job.
    List<JobInfo> jobs = new ArrayList<>();
    List<JobInfo> all = session.jobs();
    for (int at = 0, n = all.size(); at < n; at++) { // indexed: a backlog's 50k jobs, several passes
      JobInfo job = all.get(at);
      if (job.phase() != PodGroupPhase.PENDING && job.count(TaskStatus.PENDING) > 0 && hasPendingBestEffort(job)
          && session.jobInvalidReason(job) == null) {
        jobs.add(job);
      }
    }
    session.callbacks().jobSortKeys().sort(jobs);
    for (JobInfo job : jobs) {
      List<TaskInfo> tasks = JobPlacer.pendingTasks(session, job, t -> t.request().isBestEffort());
      placer.place(session, job, tasks, false);
    }
  }

  private static boolean hasPendingBestEffort(JobInfo job) {
    List<TaskInfo> tasks = job.tasks();
    for (int i = 0, n = tasks.size(); i < n; i++) { // indexed: an iterator per job per cycle adds up with a backlog
      TaskInfo t = tasks.get(i);
      if (t.status() == TaskStatus.PENDING && t.request().isBestEffort()) {
        return true;
      }
    }
    return false;
  }
}
