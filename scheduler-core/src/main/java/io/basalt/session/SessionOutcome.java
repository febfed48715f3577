package io.basalt.session;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns what a session decided into its {@link SessionResult}: bindings, evictions, pending reasons, statuses. */
final class SessionOutcome {
  private final Session session;
  /**
   * The job whose job-wide reasons below were worked out: its pods are asked one after another, and with a backlog
   * there are tens of thousands, so the plugins' validity check and the admission text run once per job, not per pod.
   */
  private JobInfo reasonsOf;
  private String invalid;
  private String admission;
  /** A lone pod's admission text by its queue, then its rejection. */
  private final Map<String, Map<String, String>> lonePodAdmission = new HashMap<>();

  private SessionOutcome(Session session) {
    this.session = session;
  }

  static SessionResult of(Session session, List<TaskInfo> toBind, List<SessionResult.Eviction> toEvict) {
    SessionOutcome o = new SessionOutcome(session);
    List<SessionResult.Binding> bindings = new ArrayList<>(toBind.size());
    for (TaskInfo t : toBind) {
      bindings.add(new SessionResult.Binding(t.pod(), t.nodeName(), deviceAnnotations(session, t),
          session.claimsBound(t)));
      t.place(TaskStatus.BINDING, t.nodeName());
    }
    List<SessionResult.PendingPod> pending = new ArrayList<>();
    List<SessionResult.JobStatus> statuses = new ArrayList<>();
    Map<String, QueueTally> tallies = new HashMap<>();
    QueueTally tally = null;
    List<JobInfo> all = session.jobs();
    for (int at = 0, jobs = all.size(); at < jobs; at++) { // indexed: a backlog's 50k jobs, several passes
      JobInfo job = all.get(at);
      // The job's counts say whether any task waits: the 15k running jobs of a backlog's cluster are not walked.
      if (job.count(TaskStatus.PENDING) + job.count(TaskStatus.PIPELINED) + job.count(TaskStatus.ALLOCATED) > 0) {
        List<TaskInfo> tasks = job.tasks();
        for (int i = 0, n = tasks.size(); i < n; i++) { // indexed: no iterator per waiting job
          TaskInfo t = tasks.get(i);
          if (t.status() == TaskStatus.PENDING || t.status() == TaskStatus.PIPELINED
              || t.status() == TaskStatus.ALLOCATED) {
            pending.add(new SessionResult.PendingPod(t.pod(), o.pendingReason(job, t), nominatedNode(t),
                job.queue()));
          }
        }
      }
      PodGroupPhase phase = closingPhase(job);
      if (!job.isImplicit()) { // a lone pod has no group status to write: a backlog's tens of thousands are left out
        statuses.add(new SessionResult.JobStatus(job.key(), false, phase, job.minMember(), job.readyTaskNum(),
            job.conditions(), job.podGroup().inferredFrom(), job.domain(), runningPods(job)));
      }
      if (tally == null || !tally.queue.equals(job.queue())) {
        tally = tallies.computeIfAbsent(job.queue(), QueueTally::new);
      }
      tally.add(job, phase);
    }
    for (JobsBuilder.GatedPod g : session.gated()) {
      pending.add(new SessionResult.PendingPod(g.pod(), SessionResult.PendingPod.gatedReason(g.pod()), null,
          g.queue()));
    }
    return new SessionResult(bindings, List.copyOf(toEvict), pending, statuses, queueStatuses(session, tallies));
  }

  /**
   * The job's pods in phase Running, as Volcano counts {@code status.running}: bound pods whose containers have not
   * started are not running yet.
   */
  private static int runningPods(JobInfo job) {
    if (job.count(TaskStatus.RUNNING) == 0) {
      return 0; // nothing on a node: a backlog's pending gangs are not walked
    }
    int running = 0;
    List<TaskInfo> tasks = job.tasks();
    for (int i = 0, n = tasks.size(); i < n; i++) {
      TaskInfo t = tasks.get(i);
      if (t.status() == TaskStatus.RUNNING && "Running".equals(t.pod().phase())) {
        running++;
      }
    }
    return running;
  }

  /** Each queue's status from its tally (taken in the same pass over the jobs as their statuses). */
  private static List<SessionResult.QueueStatus> queueStatuses(Session session, Map<String, QueueTally> tallies) {
    List<SessionResult.QueueStatus> out = new ArrayList<>();
    for (QueueInfo q : session.queues()) {
      QueueTally t = tallies.get(q.name());
      int[] c = t == null ? new int[3] : t.phases;
      ResourceVector allocated = (t == null ? ResourceVector.ZERO : t.held()).without(ResourceNames.PODS);
      out.add(new SessionResult.QueueStatus(q.name(), q.weight(), q.deserved(), allocated, q.overused(), c[0], c[1],
          c[2]));
    }
    return out;
  }

  /**
   * One queue's count of jobs by phase (pending, inqueue, running) and the sum of its running pods' requests, for its
   * status; kept in one array rather than a vector per pod.
   */
  private static final class QueueTally {
    final String queue;
    final int[] phases = new int[3];
    long[] held = new long[0];
    boolean holds;

    QueueTally(String queue) {
      this.queue = queue;
    }

    /**
     * Counts the job under its closing phase (completed jobs under none) and adds what its binding, bound and running
     * pods request: the job's own sum of what it holds when it has no allocated task left (an allocated one holds,
     * but is not bound), else a walk of its tasks.
     */
    void add(JobInfo job, PodGroupPhase phase) {
      phases[phase == PodGroupPhase.PENDING ? 0 : phase == PodGroupPhase.INQUEUE ? 1 : 2] +=
          phase == PodGroupPhase.COMPLETED ? 0 : 1;
      if (job.count(TaskStatus.BINDING) + job.count(TaskStatus.BOUND) + job.count(TaskStatus.RUNNING) == 0) {
        return;
      }
      if (job.count(TaskStatus.ALLOCATED) == 0) {
        if (job.heldSlots() > held.length) {
          held = java.util.Arrays.copyOf(held, job.heldSlots());
        }
        for (int i = 0, n = job.heldSlots(); i < n; i++) {
          held[i] += job.held(i);
        }
        holds = true;
        return;
      }
      List<TaskInfo> tasks = job.tasks();
      for (int i = 0, n = tasks.size(); i < n; i++) {
        TaskInfo t = tasks.get(i);
        if (t.status() == TaskStatus.BINDING || t.status() == TaskStatus.BOUND || t.status() == TaskStatus.RUNNING) {
          hold(t.request());
        }
      }
    }

    private void hold(ResourceVector r) {
      if (r.size() > held.length) {
        held = java.util.Arrays.copyOf(held, r.size());
      }
      for (int i = 0; i < r.size(); i++) {
        held[i] += r.get(i);
      }
      holds = true;
    }

    ResourceVector held() {
      return holds ? ResourceVector.of(held) : ResourceVector.ZERO;
    }
  }

  /**
   * What each device protocol speaking there writes for a task given GPUs ({@code basalt.io/gpu-devices}, and HAMi's
   * per-container annotations where the device protocol is HAMi's).
   */
  private static Map<String, String> deviceAnnotations(Session session, TaskInfo t) {
    if (t.deviceClaim().isEmpty()) {
      return Map.of();
    }
    NodeInfo node = session.node(t.nodeName());
    return session.deviceProtocol().annotations(t.pod(), t.nodeName(),
        node == null ? Map.of() : node.node().annotations(), node == null ? null : node.gpus(), t.deviceClaim());
  }

  /** Where the pod waits for resources to free up: pipelined there this session, or still holding its nomination. */
  private static String nominatedNode(TaskInfo t) {
    if (t.status() == TaskStatus.PIPELINED) {
      return t.nodeName();
    }
    return t.reservation() == null ? null : t.reservation().name();
  }

  private static PodGroupPhase closingPhase(JobInfo job) {
    int running = job.count(TaskStatus.BINDING) + job.count(TaskStatus.BOUND) + job.count(TaskStatus.RUNNING)
        + job.count(TaskStatus.SUCCEEDED);
    if (running >= job.minMember() && running > 0) {
      return running == job.count(TaskStatus.SUCCEEDED) ? PodGroupPhase.COMPLETED : PodGroupPhase.RUNNING;
    }
    return job.phase() == PodGroupPhase.RUNNING ? PodGroupPhase.INQUEUE : job.phase();
  }

  private String pendingReason(JobInfo job, TaskInfo task) {
    if (job != reasonsOf) {
      reasonsOf = job;
      invalid = session.jobInvalidReason(job);
      admission = null;
    }
    if (invalid != null) {
      return invalid;
    }
    if (task.status() == TaskStatus.PIPELINED) {
      return "pipelined to node " + task.nodeName() + ": waiting for terminating pods there to release resources";
    }
    if (task.status() == TaskStatus.ALLOCATED) {
      return "reserved on node " + task.nodeName() + ": waiting for the rest of its gang";
    }
    if (job.phase() == PodGroupPhase.PENDING) {
      if (admission == null) {
        String r = job.enqueueRejection();
        if (job.isImplicit()) {
          // Tens of thousands of lone pods share a few such texts (a plugin's rejection, per queue): built once each.
          // Looked up without capturing lambdas: one per pod per cycle was a fifth of the outcome's allocation.
          admission = r == null ? "pod is waiting to be admitted (enqueue)" : loneAdmission(job.queue(), r);
        } else {
          String who = "PodGroup " + job.key();
          admission = r != null ? who + " not admitted to queue " + job.queue() + ": " + r
              : who + " is waiting to be admitted (enqueue)";
        }
      }
      return admission;
    }
    String own = ownReason(job, task);
    if (job.unschedulableSummary() != null) {
      return job.unschedulableSummary() + ": " + (own != null ? own : job.unschedulableMessage()
          .substring(job.unschedulableSummary().length() + 2));
    }
    return own != null ? own : "not scheduled yet";
  }

  private String loneAdmission(String queue, String rejection) {
    Map<String, String> byRejection = lonePodAdmission.get(queue);
    if (byRejection == null) {
      byRejection = new HashMap<>();
      lonePodAdmission.put(queue, byRejection);
    }
    String text = byRejection.get(rejection);
    if (text == null) {
      text = "pod not admitted to queue " + queue + ": " + rejection;
      byRejection.put(rejection, text);
    }
    return text;
  }

  /**
   * The pod's own part: why it fitted nowhere, or that it fitted but the pod that ended its gang's attempt did not,
   * or that it was not tried after that; a job-wide reason (a domain, an overused queue) applies to every pod.
   */
  private static String ownReason(JobInfo job, TaskInfo task) {
    String failed = job.failedTask();
    if (job.fitError() != null && failed == null) {
      return job.fitError();
    }
    if (task.fitError() != null) {
      return task.fitError();
    }
    if (job.fitError() == null || failed.equals(task.key())) {
      return job.fitError();
    }
    return task.fitNode() != null
        ? "fits on node " + task.fitNode() + ", but its gang cannot start: " + failed + ": " + job.fitError()
        : "not tried after " + failed + ": " + job.fitError();
  }
}
