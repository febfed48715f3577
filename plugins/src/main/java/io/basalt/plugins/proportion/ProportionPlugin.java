package io.basalt.plugins.proportion;

import io.basalt.config.Arguments;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.JobInfo;
import io.basalt.framework.NodeInfo;
import io.basalt.framework.Plugin;
import io.basalt.framework.QueueInfo;
import io.basalt.framework.Session;
import io.basalt.framework.TaskInfo;
import io.basalt.framework.TaskStatus;
import io.basalt.framework.Vote;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.HashMap;
import java.util.Map;

/**
 * Volcano's {@code proportion}: divides the cluster between queues by weight, so no team takes more than its due
 * while others wait.
 *
 * <ul>
 *   <li>realCapability = min(capability, max(total - sum of guarantees, 0) + guarantee), per resource;</li>
 *   <li>deserved: weighted water-filling of the cluster, each round capped by realCapability and by what the queue
 *       asks for (allocated plus pending), floored by its guarantee; a queue leaves the filling once satisfied or
 *       once a round gives it nothing;</li>
 *   <li>overused when allocated &gt;= deserved on every resource (allocate skips it);</li>
 *   <li>allocatable when allocated + the task's request &lt;= deserved on the resources the task requests;</li>
 *   <li>enqueueable when minResources + allocated + inqueue - elastic &lt;= realCapability on the resources
 *       minResources names;</li>
 *   <li>queue order: the lower share (max over resources of allocated / deserved) first.</li>
 * </ul>
 * Reclaim by deserved share arrives with the reclaim action.
 */
public final class ProportionPlugin implements Plugin {
  public static final String NAME = "proportion";

  private final Map<String, QueueShare> queues = new HashMap<>();

  public ProportionPlugin(Arguments args) {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session) {
    int slots = ResourceNames.count();
    double[] total = new double[slots];
    for (NodeInfo n : session.nodes()) {
      for (int r = 0; r < slots; r++) {
        total[r] += r == ResourceNames.PODS ? 0 : n.allocatable(r);
      }
    }
    for (QueueInfo q : session.queues()) {
      queues.put(q.name(), new QueueShare(q.name(), Math.max(1, q.weight()), q.queue().guarantee(),
          q.queue().capability(), slots));
    }
    for (JobInfo job : session.jobs()) {
      QueueShare qs = queues.get(job.queue());
      if (qs != null) {
        account(qs, job);
      }
    }
    Deserved.compute(total, queues.values());
    session.addQueueOrder(this, (a, b) -> Double.compare(share(a), share(b)));
    session.addOverused(this, q -> queues.containsKey(q.name()) && queues.get(q.name()).overused());
    session.addAllocatable(this, this::allocatable);
    session.addJobEnqueueable(this, this::enqueueable);
    session.addJobEnqueued(this, job -> {
      QueueShare qs = queues.get(job.queue());
      if (qs != null && job.podGroup().minResources() != null) {
        QueueShare.add(qs.inqueue, job.podGroup().minResources(), 1);
      }
    });
    session.addAllocationListener(this, new AllocationListener() {
      @Override
      public void onAllocate(TaskInfo task) {
        update(task, 1);
      }

      @Override
      public void onDeallocate(TaskInfo task) {
        update(task, -1);
      }
    });
  }

  private static void account(QueueShare qs, JobInfo job) {
    ResourceVector jobAllocated = ResourceVector.ZERO;
    for (TaskInfo t : job.tasks()) {
      TaskStatus s = t.status();
      if (s == TaskStatus.ALLOCATED || s == TaskStatus.BINDING || s == TaskStatus.BOUND || s == TaskStatus.RUNNING) {
        QueueShare.add(qs.allocated, t.request(), 1);
        QueueShare.add(qs.request, t.request(), 1);
        jobAllocated = jobAllocated.plus(t.request());
      } else if (s == TaskStatus.PENDING) {
        QueueShare.add(qs.request, t.request(), 1);
      }
    }
    ResourceVector min = job.podGroup().minResources();
    if (min == null) {
      return;
    }
    if ("Inqueue".equals(job.phase())) {
      QueueShare.add(qs.inqueue, min, 1);
    }
    // Elastic: what the job holds beyond its minimum, which it could give back.
    long[] elastic = new long[Math.max(min.size(), jobAllocated.size())];
    for (int i = 0; i < elastic.length; i++) {
      elastic[i] = Math.max(0, jobAllocated.get(i) - min.get(i));
    }
    QueueShare.add(qs.elastic, ResourceVector.of(elastic), 1);
  }

  private double share(QueueInfo q) {
    QueueShare qs = queues.get(q.name());
    return qs == null ? 0 : qs.share;
  }

  private boolean allocatable(QueueInfo q, TaskInfo task) {
    QueueShare qs = queues.get(q.name());
    if (qs == null) {
      return true;
    }
    ResourceVector req = task.request();
    for (int i = 0; i < Math.min(req.size(), qs.deserved.length); i++) {
      if (i != ResourceNames.PODS && req.get(i) > 0 && qs.allocated[i] + req.get(i) > qs.deserved[i]) {
        return false;
      }
    }
    return true;
  }

  private Vote enqueueable(JobInfo job) {
    QueueShare qs = queues.get(job.queue());
    ResourceVector min = job.podGroup().minResources();
    if (qs == null || min == null) {
      return Vote.PERMIT;
    }
    for (int i = 0; i < Math.min(min.size(), qs.realCapability.length); i++) {
      if (i == ResourceNames.PODS || min.get(i) <= 0) {
        continue;
      }
      double wanted = min.get(i) + qs.allocated[i] + qs.inqueue[i] - qs.elastic[i];
      if (wanted > qs.realCapability[i]) {
        return Vote.reject("queue " + qs.name + " " + ResourceNames.name(i) + " would exceed its capability: needs "
            + (long) wanted + ", capability " + (long) qs.realCapability[i]);
      }
    }
    return Vote.PERMIT;
  }

  private void update(TaskInfo task, int sign) {
    QueueShare qs = queues.get(task.job().queue());
    if (qs != null) {
      QueueShare.add(qs.allocated, task.request(), sign);
      qs.updateShare();
    }
  }

  /** Deserved shares as computed this session, by queue name; for tests and, later, queue status. */
  Map<String, QueueShare> shares() {
    return queues;
  }
}
