package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The running pods that may ever be victims this session (not opted out), by job in the session's order, with what
 * they hold summed by queue and node. Preempt and reclaim used to walk every running pod of the cluster once per
 * action and once more per victim pool; this is built once per session, in its scratch, and shared by both.
 *
 * <p>It stays right for the whole session because a session never makes a pod running: an eviction makes it
 * releasing, and a discarded trial puts back what was. So the pods here are a superset of those running at any later
 * point, and readers ask {@link VictimPlanner#isRunning} again; the sums only ever over-count, which keeps
 * {@link #couldHold} an upper bound.
 */
final class RunningPods {
  /**
   * A job with a pod running when the index was built, and the index of its queue in {@link #queues()}. Its candidate
   * pods are listed when first asked for: most queues are never visited (preempt looks at one), and a pod's opt-out
   * is two map lookups.
   */
  static final class JobPods {
    private final JobInfo job;
    private final int queue;
    private List<TaskInfo> pods;

    JobPods(JobInfo job, int queue) {
      this.job = job;
      this.queue = queue;
    }

    JobInfo job() {
      return job;
    }

    int queue() {
      return queue;
    }

    /**
     * The job's pods not opted out that are running or releasing, in its task order: releasing ones too, so a list
     * made after (or during) evictions still holds every pod that can run later in the session.
     */
    List<TaskInfo> pods() {
      if (pods == null) {
        // Indexed, and a lone pod's job without a list of its own: this runs per running job per cycle.
        List<TaskInfo> tasks = job.tasks();
        if (tasks.size() == 1) {
          pods = candidate(tasks.get(0)) ? List.of(tasks.get(0)) : List.of();
        } else {
          List<TaskInfo> out = new ArrayList<>();
          for (int i = 0, n = tasks.size(); i < n; i++) {
            if (candidate(tasks.get(i))) {
              out.add(tasks.get(i));
            }
          }
          pods = out;
        }
      }
      return pods;
    }
  }

  private static boolean candidate(TaskInfo t) {
    return (VictimPlanner.isRunning(t) || t.status() == TaskStatus.RELEASING) && !VictimPlanner.optedOut(t);
  }

  private final List<JobPods> jobs = new ArrayList<>();
  private final List<String> queues = new ArrayList<>();
  private final Map<String, Integer> queueIndex = new HashMap<>();
  /** One job of each queue: the queue rule ({@link VictimPlanner.Scope#mayTake}) is asked per queue. */
  private final List<JobInfo> someJob = new ArrayList<>();
  /**
   * Per queue, per node position in {@code session.nodes()}: the requests of its candidate pods there (or null);
   * summed on the first {@link #couldHold}.
   */
  private List<long[][]> held;
  /** False when a pod runs on a node outside {@code session.nodes()}: then no bound is claimed. */
  private boolean bounded = true;

  private RunningPods() {}

  private void add(JobInfo job) {
    if (job.count(TaskStatus.RUNNING) + job.count(TaskStatus.BOUND) == 0) {
      return; // the backlog: thousands of pending jobs, none with a pod running
    }
    // The previous job's queue, else a lookup (no capturing lambda: one per running job was allocated per cycle).
    int q;
    if (!jobs.isEmpty() && jobs.get(jobs.size() - 1).job.queue().equals(job.queue())) {
      q = jobs.get(jobs.size() - 1).queue;
    } else {
      Integer known = queueIndex.get(job.queue());
      if (known == null) {
        known = queues.size();
        queues.add(job.queue());
        someJob.add(job);
        queueIndex.put(job.queue(), known);
      }
      q = known;
    }
    jobs.add(new JobPods(job, q));
  }

  private List<long[][]> held(Session session) {
    if (held != null) {
      return held;
    }
    List<NodeInfo> nodes = session.nodes();
    held = new ArrayList<>(queues.size());
    for (int q = 0; q < queues.size(); q++) {
      held.add(new long[nodes.size()][]);
    }
    for (JobPods j : jobs) {
      long[][] byNode = held.get(j.queue());
      List<TaskInfo> pods = j.pods();
      for (int p = 0, n = pods.size(); p < n; p++) {
        TaskInfo t = pods.get(p);
        // The node's place in the session's list, from the node itself (it joined the session's index there).
        NodeInfo node = session.node(t.nodeName());
        int at = node == null ? -1 : node.position();
        if (at < 0 || at >= nodes.size() || nodes.get(at) != node) {
          bounded = false;
          continue;
        }
        ResourceVector r = t.request();
        long[] sum = byNode[at];
        if (sum == null || sum.length < r.size()) {
          sum = byNode[at] = sum == null ? new long[r.size()] : java.util.Arrays.copyOf(sum, r.size());
        }
        for (int i = 0; i < r.size(); i++) {
          sum[i] += r.get(i);
        }
      }
    }
    return held;
  }

  /** This session's index, built on first use. */
  static RunningPods of(Session session) {
    return session.scratch(RunningPods.class, () -> {
      RunningPods index = new RunningPods();
      List<JobInfo> all = session.jobs();
      for (int at = 0, n = all.size(); at < n; at++) { // indexed: a backlog's 50k jobs, several passes
        JobInfo job = all.get(at);
        index.add(job);
      }
      return index;
    });
  }

  /** Jobs with a candidate pod, in the session's job order. */
  List<JobPods> jobs() {
    return jobs;
  }

  /** The queues of {@link #jobs()}, by index. */
  List<String> queues() {
    return queues;
  }

  /** A job of queue {@code q} (by index), to ask the queue rule with. */
  JobInfo someJobOf(int q) {
    return someJob.get(q);
  }

  /** Which queues (by index) hold victims for a pod of {@code asker}'s queue: the scope asked once per queue. */
  BitSet inScope(VictimPlanner.Scope scope, String askerQueue) {
    BitSet in = new BitSet(queues.size());
    for (int q = 0; q < queues.size(); q++) {
      if (scope.inScope(askerQueue, queues.get(q))) {
        in.set(q);
      }
    }
    return in;
  }

  /**
   * Whether some node could hold {@code request} if every candidate pod of the {@code takeable} queues there went:
   * what it will have free plus what they hold, on every resource the device accounting does not own. False means no
   * eviction among those queues can make room for it anywhere.
   */
  boolean couldHold(Session session, ResourceVector request, BitSet takeable) {
    List<long[][]> held = held(session);
    if (!bounded) {
      return true;
    }
    boolean[] skip = session.callbacks().deviceManagedResources();
    List<NodeInfo> nodes = session.nodes();
    int[] slots = request.positiveSlots();
    for (int n = 0; n < nodes.size(); n++) {
      NodeInfo node = nodes.get(n);
      boolean fits = true;
      for (int k = 0; k < slots.length && fits; k++) {
        int r = slots[k];
        if (skip != null && r < skip.length && skip[r]) {
          continue;
        }
        long free = node.futureIdle(r);
        for (int q = takeable.nextSetBit(0); q >= 0 && free < request.get(r); q = takeable.nextSetBit(q + 1)) {
          long[] sum = held.get(q)[n];
          free += sum != null && r < sum.length ? sum[r] : 0;
        }
        fits = free >= request.get(r);
      }
      if (fits) {
        return true;
      }
    }
    return false;
  }
}
