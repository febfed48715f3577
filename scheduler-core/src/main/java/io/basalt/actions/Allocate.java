package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.config.Arguments;
import io.basalt.search.NodeSearch;
import io.basalt.session.JobSortKeys;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Places pending tasks of admitted jobs: queues in queue order (skipping overused ones), jobs in job order within a
 * queue, one job at a time, each as a gang through {@link JobPlacer}. A job that becomes ready with tasks left goes
 * back into its queue so other jobs get a turn. A job asking for a network domain is placed whole inside one
 * ({@link DomainPlacer}). BestEffort tasks are left to backfill.
 *
 * <p>Arguments: {@code percentageOfNodesToScore} (0 = adaptive, as kube-scheduler; 100 = every node).
 */
final class Allocate implements Action {
  private final JobPlacer placer;
  private final DomainPlacer domains;

  Allocate(Arguments args) {
    this.placer = new JobPlacer(NodeSearch.configured(args));
    this.domains = new DomainPlacer(placer);
  }

  @Override
  public String name() {
    return "allocate";
  }

  @Override
  public void execute(Session session) {
    // Without an enqueue action nothing would admit Pending jobs; Volcano then admits them here.
    boolean admitHere = !session.conf().actions().contains("enqueue");
    JobSortKeys order = session.callbacks().jobSortKeys();
    Map<String, PriorityQueue<Waiting>> jobsByQueue = new HashMap<>();
    List<JobInfo> all = session.jobs();
    for (int at = 0, n = all.size(); at < n; at++) { // indexed: a backlog's 50k jobs, several passes
      JobInfo job = all.get(at);
      // The cheap counts first: a backlog's unadmitted jobs and a cluster's running ones are skipped before the
      // plugins' validity check (which changes nothing).
      if (job.phase() == PodGroupPhase.PENDING ? !admitHere : job.count(TaskStatus.PENDING) == 0) {
        continue;
      }
      if (session.jobInvalidReason(job) != null) {
        continue;
      }
      if (job.phase() == PodGroupPhase.PENDING) {
        if (!admitHere || !session.queue(job.queue()).queue().isOpen()) {
          continue;
        }
        session.enqueue(job);
      }
      if (hasPendingWork(job)) {
        jobsByQueue.computeIfAbsent(job.queue(), q -> new PriorityQueue<>(order::compare)).add(new Waiting(order, job));
      }
    }
    // Queue order is re-evaluated for every job: placing one job changes shares of other queues too (a parent's
    // share in hierarchical drf), which a heap built once would not see.
    List<QueueInfo> queues = new ArrayList<>();
    for (String q : jobsByQueue.keySet()) {
      queues.add(session.queue(q));
    }
    while (!queues.isEmpty()) {
      QueueInfo queue = java.util.Collections.min(queues, session.callbacks().queueOrder());
      queues.remove(queue);
      if (session.callbacks().overused(queue)) {
        for (Waiting w : jobsByQueue.get(queue.name())) {
          if (w.job().fitError() == null) {
            w.job().setFitError("queue " + queue.name() + " is overused (it holds at least its deserved share): "
                + "its jobs wait until its usage falls below that share");
          }
        }
        continue;
      }
      PriorityQueue<Waiting> jobs = jobsByQueue.get(queue.name());
      JobInfo job = jobs.poll().job();
      List<TaskInfo> tasks = JobPlacer.pendingTasks(session, job, t -> !t.request().isBestEffort());
      JobPlacer.Outcome outcome = DomainPlacer.applies(session, job) ? domains.place(session, job, tasks)
          : placer.place(session, job, tasks, true);
      if (outcome == JobPlacer.Outcome.YIELDED) {
        jobs.add(new Waiting(order, job)); // its keys taken again: its placements changed them
      }
      if (!jobs.isEmpty()) {
        queues.add(queue);
      }
    }
  }

  /**
   * A job waiting in its queue's heap with its job-order keys, taken when it joins: the heap compares them many times
   * per job. The keys hold while it waits, since only the job being placed changes (its own placements are all that
   * move its priority, readiness or share), and it joins again with new keys when it yields.
   */
  private static final class Waiting extends JobSortKeys.Key {
    Waiting(JobSortKeys order, JobInfo job) {
      super(order, job, order.rows(1), 0);
    }
  }

  private static boolean hasPendingWork(JobInfo job) {
    for (TaskInfo t : job.tasks()) {
      if (t.status() == TaskStatus.PENDING && !t.request().isBestEffort()) {
        return true;
      }
    }
    return false;
  }
}
