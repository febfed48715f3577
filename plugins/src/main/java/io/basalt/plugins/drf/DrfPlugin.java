package io.basalt.plugins.drf;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.JobOrderKey;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor.Conflict;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.HashMap;
import java.util.Map;

/**
 * Dominant resource fairness between jobs: a job's share is the largest fraction of any cluster resource it holds
 * ({@code max_r allocated_r / total_r}), and the job with the lower share goes first. Shares follow every tentative
 * placement, so a gang that just took 64 GPUs yields to a job that holds nothing.
 *
 * <p>Preemptable: a pod may go only while the preemptor's job, after taking its place, still holds a smaller share
 * than the victim's job after losing it (equal within 1e-6 counts as smaller), so preemption never makes the rich
 * richer.
 *
 * <p>With {@code enableHierarchy: true} it also orders queues by hierarchical DRF ({@link QueueHierarchy}).
 */
public final class DrfPlugin implements Plugin {
  public static final String NAME = "drf";
  static final double SHARE_DELTA = 1e-6;

  private long[] total = new long[0];
  private Map<JobInfo, Holding> holdings = new HashMap<>();
  private QueueHierarchy hierarchy;

  private static final long[] NOTHING = new long[0];

  /**
   * What one job holds, and its dominant share of the cluster. Starts as the shared empty array (slots beyond an
   * array's length are zero) and grows on the first add: a backlog's pending jobs hold nothing.
   */
  private static final class Holding {
    long[] allocated = NOTHING;
    double share;
  }

  public DrfPlugin() {}

  /** No arguments; {@code enableHierarchy} is supported, but not beside proportion in the same tier. */
  public static PluginDescriptor<Void> descriptor() {
    return PluginDescriptor.of(NAME, DrfPlugin::new)
        .withHierarchy()
        .conflictsWith(Conflict.inTier("proportion", "both order queues by their own notion of share")
            .onlyWhenHierarchical());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    total = session.clusterAllocatable();
    // Only jobs holding something get an entry (a job without one holds nothing, share 0): a backlog's 35k pending
    // jobs would otherwise cost a map entry each per cycle. A job gets its entry on its first placement.
    // By identity (jobs are compared so anyway): no map node per holding job per cycle.
    holdings = new java.util.IdentityHashMap<>(session.jobsAtOpen().holding().size() + 16);
    // On a node and not releasing: placed, binding, bound, running, which the job keeps summed (its tasks are not
    // walked); the jobs with none are left out.
    for (JobInfo job : session.jobsAtOpen().holding()) {
      Holding h = new Holding();
      h.allocated = job.held();
      h.share = share(h.allocated);
      holdings.put(job, h);
    }
    if (registrar.hierarchyEnabled()) {
      hierarchy = new QueueHierarchy(total, session.queues());
      for (JobInfo job : session.jobsAtOpen().holding()) {
        for (TaskInfo t : job.tasks()) {
          if (t.status().holdsResources()) {
            hierarchy.add(job.queue(), t.request(), 1);
          }
        }
      }
      registrar.addQueueOrder((a, b) -> hierarchy.compare(a.name(), b.name()));
    }
    registrar.addJobOrder(JobOrderKey.ascending(this::share));
    registrar.addPreemptable(this::victims);
    registrar.addAllocationListener(AllocationListener.of(this::update));
  }

  private java.util.List<TaskInfo> victims(TaskInfo preemptor, java.util.List<TaskInfo> candidates) {
    Holding mine = holdings.get(preemptor.job());
    long[] after = mine == null ? new long[0] : mine.allocated.clone();
    after = plus(after, preemptor.request(), 1);
    double myShare = share(after);
    java.util.List<TaskInfo> victims = new java.util.ArrayList<>();
    // As Volcano counts: each victim job's holding goes down by every pod taken from it earlier in the list.
    java.util.Map<JobInfo, long[]> left = new java.util.HashMap<>();
    for (TaskInfo t : candidates) {
      Holding theirs = holdings.get(t.job());
      long[] held = theirs == null ? NOTHING : theirs.allocated;
      long[] remaining = plus(left.computeIfAbsent(t.job(), j -> held.clone()), t.request(), -1);
      left.put(t.job(), remaining);
      double theirShare = share(remaining);
      if (myShare < theirShare || Math.abs(myShare - theirShare) <= SHARE_DELTA) {
        victims.add(t);
      }
    }
    return victims;
  }

  private static long[] plus(long[] a, ResourceVector r, int sign) {
    long[] out = a.length < r.size() ? java.util.Arrays.copyOf(a, r.size()) : a;
    for (int i = 0; i < r.size(); i++) {
      out[i] += sign * r.get(i);
    }
    return out;
  }

  /** The job's dominant share now, 0 for a job holding nothing. */
  double share(JobInfo job) {
    Holding h = holdings.get(job);
    return h == null ? 0 : h.share;
  }

  private void update(TaskInfo task, int sign) {
    if (hierarchy != null) {
      hierarchy.add(task.job().queue(), task.request(), sign);
    }
    Holding h = holdings.get(task.job());
    if (h == null) {
      h = new Holding();
      holdings.put(task.job(), h);
    }
    add(h, task.request(), sign);
    h.share = share(h.allocated);
  }

  private static void add(Holding h, ResourceVector r, int sign) {
    if (r.size() > h.allocated.length) {
      h.allocated = java.util.Arrays.copyOf(h.allocated, r.size());
    }
    for (int i = 0; i < r.size(); i++) {
      h.allocated[i] += sign * r.get(i);
    }
  }

  /** {@code max_r allocated_r / total_r} over every resource but the pod count. */
  double share(long[] allocated) {
    double s = 0;
    for (int r = 0; r < allocated.length; r++) {
      if (r == ResourceNames.PODS || allocated[r] <= 0) {
        continue;
      }
      long t = r < total.length ? total[r] : 0;
      s = Math.max(s, t <= 0 ? 1.0 : (double) allocated[r] / t);
    }
    return s;
  }
}
