package io.basalt.plugins.queueshare;

import io.basalt.api.JobInfo;
import io.basalt.api.JobsAtOpen;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.Plugin;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.Vote;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What proportion and capacity have in common: each queue's allocated, requested, admitted-but-unplaced (inqueue)
 * and elastic resources, kept current through the session; queue order by share (allocated / deserved); enqueue
 * within realCapability; reclaim from queues above their deserved share; and the queue's share reported at close.
 * Subclasses decide how deserved and realCapability are set, and what may be allocated.
 */
public abstract class QueueSharingPlugin implements Plugin {
  protected final Map<String, QueueShare> queues = new HashMap<>();

  /** The open session, for answers that depend on what other plugins registered. */
  protected SessionView session;

  @Override
  public final void onSessionOpen(SessionView session, Registrar registrar) {
    this.session = session;
    int slots = ResourceNames.count();
    long[] cluster = session.clusterAllocatable();
    double[] total = new double[slots];
    for (int r = 0; r < slots; r++) {
      total[r] = r == ResourceNames.PODS ? 0 : cluster[r];
    }
    for (QueueInfo q : session.queues()) {
      queues.put(q.name(), new QueueShare(q.name(), Math.max(1, q.weight()), q.queue().guarantee(),
          q.queue().capability(), slots));
    }
    // Only the admitted jobs are walked; what the jobs hold, beyond their minResources too, and what the rest (a
    // backlog) requests come summed per queue. The sums are integers well under 2^53, so adding them at once gives
    // the same doubles as adding pod by pod.
    JobsAtOpen open = session.jobsAtOpen();
    open.heldRequests().forEach((queue, held) -> {
      QueueShare qs = queues.get(queue);
      if (qs != null) {
        QueueShare.add(qs.allocated, held, 1);
        QueueShare.add(qs.request, held, 1);
      }
    });
    open.heldBeyondMin().forEach((queue, beyond) -> {
      QueueShare qs = queues.get(queue);
      if (qs != null) {
        QueueShare.add(qs.elastic, beyond, 1);
      }
    });
    for (JobInfo job : open.admitted()) {
      QueueShare qs;
      if (job.phase() == PodGroupPhase.INQUEUE && job.minResources() != null
          && (qs = queues.get(job.queue())) != null) {
        QueueShare.add(qs.inqueue, job.minResources(), 1);
      }
    }
    open.pendingRequests().forEach((queue, requested) -> {
      QueueShare qs = queues.get(queue);
      if (qs != null) {
        QueueShare.add(qs.request, requested, 1);
      }
    });
    divide(total, session);
    for (QueueShare qs : queues.values()) {
      qs.updateShare();
    }
    registrar.addQueueOrder((a, b) -> Double.compare(share(a), share(b)));
    registrar.addJobEnqueueable(this::enqueueable);
    registrar.addJobEnqueued(job -> {
      QueueShare qs = queues.get(job.queue());
      if (qs != null && job.minResources() != null) {
        QueueShare.add(qs.inqueue, job.minResources(), 1);
      }
    });
    registrar.addReclaimable(this::reclaimable);
    registrar.addReclaimFrom(q -> {
      QueueShare qs = queues.get(q.name());
      return qs == null || QueueShare.exceeds(qs.allocated, qs.deserved);
    });
    registrar.addAllocationListener(AllocationListener.of(this::update));
    register(session, registrar);
  }

  /** Sets every queue's {@code realCapability} and {@code deserved} from the cluster total. */
  protected abstract void divide(double[] total, SessionView session);

  /** Registers what differs: overused, allocatable, preemptive. */
  protected abstract void register(SessionView session, Registrar registrar);

  @Override
  public void onSessionClose(SessionView session) {
    for (QueueInfo q : session.queues()) {
      QueueShare qs = queues.get(q.name());
      if (qs != null) {
        q.reportShare(reportedDeserved(q, qs), qs.allocatedVector(), qs.atShare());
      }
    }
  }

  /** The deserved share as queue status shows it. */
  protected ResourceVector reportedDeserved(QueueInfo queue, QueueShare share) {
    return share.deservedVector();
  }

  /** The queue's accounting this session, or null; for subclasses and tests. */
  QueueShare share(String queue) {
    return queues.get(queue);
  }

  private double share(QueueInfo q) {
    QueueShare qs = queues.get(q.name());
    return qs == null ? 0 : qs.share();
  }

  /** minResources + allocated + inqueue - elastic must stay within realCapability on what minResources names. */
  private Vote enqueueable(JobInfo job) {
    QueueShare qs = queues.get(job.queue());
    ResourceVector min = job.podGroup().minResources();
    if (qs == null || min == null) {
      return Vote.PERMIT;
    }
    boolean[] skip = session.deviceManagedResources();
    for (int i = 0; i < Math.min(min.size(), qs.realCapability.length); i++) {
      if (i == ResourceNames.PODS || min.get(i) <= 0 || (skip != null && i < skip.length && skip[i])) {
        continue;
      }
      double wanted = min.get(i) + qs.allocated[i] + qs.inqueue[i] - qs.elastic[i];
      if (wanted > qs.realCapability[i] + 1e-9) {
        return Vote.reject("queue " + qs.name + " " + ResourceNames.name(i) + " would exceed its capability: needs "
            + io.basalt.model.Quantities.format(i, (long) wanted) + ", capability "
            + io.basalt.model.Quantities.format(i, (long) qs.realCapability[i]));
      }
    }
    return Vote.PERMIT;
  }

  /** Victims from queues above their deserved share, each queue counted down as its pods are taken. */
  /**
   * Pods of queues holding more than their deserved share. How many may go is the reclaim action's business: it asks
   * {@code addReclaimFrom} again after each victim, so the answer here does not depend on the candidates' order.
   */
  private List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    List<TaskInfo> victims = new ArrayList<>();
    for (TaskInfo t : candidates) {
      QueueShare qs = queues.get(t.job().queue());
      if (qs != null && QueueShare.exceeds(qs.allocated, qs.deserved)) {
        victims.add(t);
      }
    }
    return victims;
  }

  private void update(TaskInfo task, int sign) {
    QueueShare qs = queues.get(task.job().queue());
    if (qs != null) {
      QueueShare.add(qs.allocated, task.request(), sign);
      qs.updateShare();
      afterUpdate(qs, task, sign);
    }
  }

  /** Hook for hierarchical accounting: {@code task} was placed (+1) or given back (-1) in {@code queue}. */
  protected void afterUpdate(QueueShare queue, TaskInfo task, int sign) {}
}
