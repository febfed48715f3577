package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.QueueInfo;
import io.basalt.framework.Vote;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * Admits Pending jobs (PodGroup phase Pending to Inqueue) when the admission plugins permit, in queue order then job
 * order, so admission plugins see earlier jobs counted against later ones. Jobs in a closed queue stay Pending.
 */
final class Enqueue implements Action {
  @Override
  public String name() {
    return "enqueue";
  }

  @Override
  public void execute(Session session) {
    List<JobInfo> pending = new ArrayList<>();
    List<JobInfo> all = session.jobs();
    for (int at = 0, n = all.size(); at < n; at++) { // indexed: a backlog's 50k jobs, several passes
      JobInfo job = all.get(at);
      if (job.phase() == PodGroupPhase.PENDING && session.jobInvalidReason(job) == null) {
        pending.add(job);
      }
    }
    for (JobsInQueueOrder.Entry e : JobsInQueueOrder.sorted(session, pending)) {
      JobInfo job = e.job();
      QueueInfo queue = e.queue();
      if (!queue.queue().isOpen()) {
        session.rejectEnqueue(job, "queue " + queue.name() + " is " + queue.queue().state());
        continue;
      }
      Vote vote = session.callbacks().jobEnqueueable(job);
      if (vote.isReject()) {
        session.rejectEnqueue(job, vote.reason());
      } else {
        session.enqueue(job);
      }
    }
  }
}
