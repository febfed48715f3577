package io.basalt.plugins.overcommit;

import io.basalt.api.JobInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.config.Arguments;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.Vote;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.HashMap;
import java.util.Map;

/**
 * Admission against the whole cluster: a job is enqueued only while the minResources of all admitted-but-unplaced
 * jobs fit in {@code total * overcommit-factor - used}. Keeps the pending queue from flooding allocate with jobs that
 * cannot possibly start, while the factor (default 1.2) lets some more in than fit right now. Jobs without
 * minResources are always admitted, as in Volcano.
 */
public final class OvercommitPlugin implements Plugin {
  public static final String NAME = "overcommit";
  static final double DEFAULT_FACTOR = 1.2;

  private final double factor;
  private ResourceVector idle = ResourceVector.ZERO;
  private ResourceVector inqueue = ResourceVector.ZERO;

  OvercommitPlugin(double factor) {
    this.factor = factor;
  }

  /** Argument {@code overcommit-factor}: at least 1.0, default 1.2. */
  public static PluginDescriptor<?> descriptor() {
    return PluginDescriptor.of(NAME, OvercommitPlugin::readFactor, OvercommitPlugin::new);
  }

  private static double readFactor(Arguments args) {
    double f = args.getDouble("overcommit-factor", DEFAULT_FACTOR);
    if (f < 1.0) {
      args.problem("overcommit-factor", "must be at least 1.0, got " + f);
      f = DEFAULT_FACTOR;
    }
    return f;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    long[] total = session.clusterAllocatable();
    long[] used = session.totalsAtOpen().used(total.length);
    idle = ResourceVector.of(total).times(factor).minus(ResourceVector.of(used));
    inqueue = admittedUnplaced(session.jobsAtOpen().admitted());
    this.session = session;
    registrar.addJobEnqueueable(this::enqueueable);
    registrar.addJobEnqueued(job -> inqueue = inqueue.plus(unplaced(job)));
  }

  /**
   * {@link #unplaced} summed over the admitted (not Pending) jobs, into one array: with a backlog's cluster that is
   * 15k running jobs a cycle, and a job with no placed task is not walked.
   */
  static ResourceVector admittedUnplaced(Iterable<JobInfo> jobs) {
    long[] sum = new long[0];
    for (JobInfo job : jobs) {
      if (job.phase() == PodGroupPhase.PENDING) {
        continue;
      }
      if (job.isImplicit() && job.readyTaskNum() == job.tasks().size()) {
        continue; // a lone pod that holds its node: its minResources are its own request, all placed
      }
      ResourceVector min = job.minResources();
      if (min == null) {
        continue;
      }
      if (sum.length < min.size()) {
        sum = java.util.Arrays.copyOf(sum, min.size());
      }
      if (job.count(TaskStatus.SUCCEEDED) == 0) {
        // Ready tasks are the holding ones then: the job's own sum of them, kept as their statuses change.
        for (int i = 0; i < min.size(); i++) {
          sum[i] += Math.max(0, min.get(i) - job.held(i));
        }
      } else {
        ResourceVector placed = placed(job);
        for (int i = 0; i < min.size(); i++) {
          sum[i] += Math.max(0, min.get(i) - placed.get(i));
        }
      }
    }
    return ResourceVector.of(sum);
  }

  /**
   * The part of the job's minResources its placed tasks do not cover yet; its gated pods' requests left out
   * ({@link JobInfo#minResources()}), as Volcano leaves them out of what is in queue.
   */
  static ResourceVector unplaced(JobInfo job) {
    ResourceVector min = job.minResources();
    if (min == null) {
      return ResourceVector.ZERO;
    }
    ResourceVector placed = placed(job);
    long[] r = new long[min.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = Math.max(0, min.get(i) - placed.get(i));
    }
    return ResourceVector.of(r);
  }

  /**
   * {@code inqueue.plus(min).firstExceeding(idle, skip)} without building the sum: asked for every pending job of a
   * backlog, most of which it rejects.
   */
  private int firstExceeding(ResourceVector min, boolean[] skip) {
    int n = Math.max(inqueue.size(), min.size());
    for (int i = 0; i < n; i++) {
      if (inqueue.get(i) + min.get(i) > idle.get(i) && (skip == null || i >= skip.length || !skip[i])) {
        return i;
      }
    }
    return -1;
  }

  /** What the job's placed (ready) tasks request, summed. */
  private static ResourceVector placed(JobInfo job) {
    ResourceVector placed = ResourceVector.ZERO;
    for (TaskInfo t : job.tasks()) {
      if (t.status().isReady()) {
        placed = placed.plus(t.request());
      }
    }
    return placed;
  }

  private SessionView session;

  /**
   * Rejections by minResources while {@link #inqueue} is the object they were worked out against: a backlog's
   * pending jobs come in a few sizes, and a rejected job admits nothing, so the next job of its size gets the same
   * answer (and the same text) without formatting it again.
   */
  private final Map<ResourceVector, Vote> rejected = new HashMap<>();
  private ResourceVector rejectedAgainst;

  private Vote enqueueable(JobInfo job) {
    ResourceVector min = job.podGroup().minResources();
    if (min == null) {
      return Vote.PERMIT;
    }
    if (rejectedAgainst != inqueue) {
      rejected.clear();
      rejectedAgainst = inqueue;
    }
    Vote known = rejected.get(min);
    if (known != null) {
      return known;
    }
    Vote vote = admit(min);
    if (vote.isReject()) {
      rejected.put(min, vote);
    }
    return vote;
  }

  private Vote admit(ResourceVector min) {
    // Resources a device plugin accounts per GPU (shares) are not in nodes' allocatable: not admitted against.
    int r = firstExceeding(min, session.deviceManagedResources());
    if (r < 0) {
      return Vote.PERMIT;
    }
    ResourceVector wanted = inqueue.plus(min);
    // The one slot formatted (a backlog rejects tens of thousands of jobs a cycle), as toQuantities() would: a zero
    // slot is absent there, so it reads "null".
    long need = wanted.get(r);
    return Vote.reject("cluster " + ResourceNames.name(r) + " would be overcommitted: admitted jobs need "
        + (need == 0 ? null : io.basalt.model.Quantities.format(r, need)) + ", capacity x " + factor
        + " minus used leaves "
        + io.basalt.model.Quantities.format(r, Math.max(0, idle.get(r))));
  }
}
