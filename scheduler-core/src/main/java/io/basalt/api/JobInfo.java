package io.basalt.api;

import io.basalt.model.NetworkTopology;
import io.basalt.model.PodGroup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A gang: the pods of one PodGroup, or one pod on its own (an implicit job with minMember 1). Keeps counts per task
 * status, and the ready and invalid sums of them, kept in step with every status change: job order, validity and
 * readiness are asked of tens of thousands of jobs per cycle with a backlog, so none of them walks the tasks.
 */
public final class JobInfo {
  private final String key;
  private final PodGroup podGroup;
  private final boolean implicit;
  private final int priority;
  private static final long[] NOTHING_HELD = new long[0];

  /** Sized for one task when the job is a lone pod's. */
  private final List<TaskInfo> tasks;
  /** Read-only views made once: tasks() is called per job on every pass, a new wrapper each time added up. */
  private final List<TaskInfo> tasksView;
  private static final int STATUSES = TaskStatus.values().length;
  private final int[] statusCounts = new int[STATUSES];
  /**
   * The PodGroup's fields read per job on every pass (queue, creation time, minMember, minTaskMember), copied here
   * once: the PodGroup is immutable, and reading them through it costs a pointer chase per job per pass.
   */
  private final int minMember;
  private final String queue;
  private final Instant created;
  private final Map<String, Integer> minTaskMember;
  /** The phase and network ask the PodGroup opens with, for {@link #reopen} (which then need not read it). */
  private final PodGroupPhase openPhase;
  private final NetworkTopology openTopology;
  /**
   * What the tasks whose status {@link TaskStatus#holdsResources} request together, slot by slot, kept in step with
   * every status change like the counts: drf, the queue shares and the queue statuses at close read it per job instead
   * of walking the tasks of every running job each cycle.
   */
  private long[] held = NOTHING_HELD;
  /** Tasks whose status {@link TaskStatus#isReady}. */
  private int ready;
  /** Tasks failed or releasing: no longer part of the gang. */
  private int invalid;
  private PodGroupPhase phase;
  private String fitError;
  private String failedTask;
  private String unschedulableSummary;
  private String unschedulableMessage;
  private String enqueueRejection;
  /** Null until a condition is set: most jobs of a cycle get none, and a cycle builds tens of thousands. */
  private List<JobCondition> conditions;
  private List<JobCondition> conditionsView = List.of();
  private NetworkTopology networkTopology;
  private String domain;
  /** The group's pods held back by scheduling gates (no tasks), and what they request together; mostly none. */
  private int gated;
  private io.basalt.model.ResourceVector gatedRequest = io.basalt.model.ResourceVector.ZERO;

  public JobInfo(String key, PodGroup podGroup, boolean implicit, int priority) {
    this.key = key;
    this.podGroup = podGroup;
    this.implicit = implicit;
    this.priority = priority;
    this.tasks = new ArrayList<>(implicit ? 1 : 10);
    this.tasksView = Collections.unmodifiableList(tasks);
    this.minMember = podGroup.minMember();
    this.queue = podGroup.queue();
    this.created = podGroup.creationTimestamp();
    this.minTaskMember = podGroup.minTaskMember();
    this.openPhase = PodGroupPhase.of(podGroup.phase());
    this.openTopology = podGroup.networkTopology();
    this.phase = openPhase;
    this.networkTopology = openTopology;
  }

  /** {@code namespace/name} of the PodGroup, or of the pod for an implicit job. */
  public String key() {
    return key;
  }

  public PodGroup podGroup() {
    return podGroup;
  }

  /** True for a pod without a PodGroup: nothing to write back, no gang. */
  public boolean isImplicit() {
    return implicit;
  }

  public String queue() {
    return queue;
  }

  public int minMember() {
    return minMember;
  }

  /** Where in the network fabric the job's pods must sit (its PodGroup's ask, or a pod's group size); or null. */
  public NetworkTopology networkTopology() {
    return networkTopology;
  }

  public void setNetworkTopology(NetworkTopology ask) {
    this.networkTopology = ask;
  }

  /** The fabric domain topology-aware placement put the job in this session, or null. */
  public String domain() {
    return domain;
  }

  public void setDomain(String domain) {
    this.domain = domain;
  }

  public Map<String, Integer> minTaskMember() {
    return minTaskMember;
  }

  /** PodGroup's PriorityClass value, else the highest pod priority. */
  public int priority() {
    return priority;
  }

  public Instant creationTimestamp() {
    return created;
  }

  public List<TaskInfo> tasks() {
    return tasksView;
  }

  /** PodGroup phase as the session sees it: Pending until enqueue admits it, then Inqueue, then Running. */
  public PodGroupPhase phase() {
    return phase;
  }

  public void setPhase(PodGroupPhase phase) {
    this.phase = phase;
  }

  public int count(TaskStatus status) {
    return statusCounts[status.ordinal()];
  }

  /** Tasks placed or running: what counts toward minMember. */
  public int readyTaskNum() {
    return ready;
  }

  /**
   * The group's pods that still have scheduling gates: they are not tasks of the job, so {@link #validTaskNum()}
   * leaves them out; a gang that needs them to reach minMember is not valid until they are ungated.
   */
  public int gatedTaskNum() {
    return gated;
  }

  /** Counts one more gated pod of the group, requesting {@code request}. */
  public void addGated(io.basalt.model.ResourceVector request) {
    gated++;
    gatedRequest = gatedRequest.plus(request);
  }

  /**
   * The PodGroup's minResources less what its gated pods request (never below zero), as Volcano deducts them, so a
   * gang waiting on gates does not take admission room from others; null when the PodGroup declares none.
   */
  public io.basalt.model.ResourceVector minResources() {
    io.basalt.model.ResourceVector min = podGroup.minResources();
    if (gated == 0 || min == null) {
      return min;
    }
    long[] left = new long[min.size()];
    for (int i = 0; i < left.length; i++) {
      left[i] = Math.max(0, min.get(i) - gatedRequest.get(i));
    }
    return io.basalt.model.ResourceVector.of(left);
  }

  /** Tasks reserved on nodes whose resources are still being released. */
  public int waitingTaskNum() {
    return count(TaskStatus.PIPELINED);
  }

  /** Tasks that can still be part of the gang (everything but failed and releasing). */
  public int validTaskNum() {
    return tasks.size() - invalid;
  }

  /**
   * Slot {@code slot} of what the job's tasks holding resources (allocated, binding, bound, running) request together;
   * 0 at or beyond {@link #heldSlots()}.
   */
  public long held(int slot) {
    return slot < held.length ? held[slot] : 0;
  }

  /** {@link #held(int)} for every slot up to {@link #heldSlots()}, in a new array. */
  public long[] held() {
    return held.clone();
  }

  /** How many slots {@link #held(int)} reads from its array; every slot beyond holds 0. */
  public int heldSlots() {
    return held.length;
  }

  public List<TaskInfo> tasksWithStatus(TaskStatus status) {
    List<TaskInfo> r = new ArrayList<>();
    for (TaskInfo t : tasks) {
      if (t.status() == status) {
        r.add(t);
      }
    }
    return r;
  }

  /** Why the last attempt to place a task failed ("0/8 nodes are available: ..."), or null. */
  public String fitError() {
    return fitError;
  }

  /** A job-wide reason (a domain that holds no group, a queue that is overused): it applies to every pod. */
  public void setFitError(String fitError) {
    this.fitError = fitError;
    this.failedTask = null;
  }

  /** The reason {@code task}'s failure ended the job's attempt; the job's other pods name it in theirs. */
  public void setFitError(TaskInfo task, String fitError) {
    this.fitError = fitError;
    this.failedTask = task.key();
  }

  /** The pod whose failure ended the last attempt, or null when the reason is job-wide. */
  public String failedTask() {
    return failedTask;
  }

  /** A job-level explanation (e.g. the gang's), preferred over {@link #fitError()} in pending reasons. */
  public String unschedulableMessage() {
    return unschedulableMessage;
  }

  /** The gang's head line ("3/4 tasks in gang unschedulable"), which every pending pod's reason starts with. */
  public String unschedulableSummary() {
    return unschedulableSummary;
  }

  /** The gang is not ready: {@code summary} says how far off, {@code why} what stopped it. */
  public void setUnschedulable(String summary, String why) {
    this.unschedulableSummary = summary;
    this.unschedulableMessage = summary + ": " + why;
  }

  /** Why enqueue left the job Pending this session (a plugin's or the queue's reason), or null. */
  public String enqueueRejection() {
    return enqueueRejection;
  }

  public void rejectEnqueue(String reason) {
    this.enqueueRejection = reason;
  }

  /** Conditions plugins set on the PodGroup this session. */
  public List<JobCondition> conditions() {
    return conditionsView;
  }

  public void addCondition(JobCondition condition) {
    if (conditions == null) {
      conditions = new ArrayList<>(2);
      conditionsView = Collections.unmodifiableList(conditions);
    }
    conditions.removeIf(c -> c.type().equals(condition.type()));
    conditions.add(condition);
  }

  /**
   * Back to what the constructor leaves, without tasks, for a session that reuses this object (see
   * {@link KeptTasks}): every field a session can set is reset from the PodGroup.
   */
  void reopen() {
    tasks.clear();
    java.util.Arrays.fill(statusCounts, 0);
    java.util.Arrays.fill(held, 0);
    ready = 0;
    invalid = 0;
    phase = openPhase;
    fitError = null;
    failedTask = null;
    unschedulableSummary = null;
    unschedulableMessage = null;
    enqueueRejection = null;
    conditions = null;
    conditionsView = List.of();
    networkTopology = openTopology;
    domain = null;
    gated = 0;
    gatedRequest = io.basalt.model.ResourceVector.ZERO;
  }

  public void addTask(TaskInfo task) {
    tasks.add(task);
    task.setJob(this);
    counted(task.status(), 1);
    if (task.status().holdsResources()) {
      hold(task, 1);
    }
  }

  void onStatusChange(TaskInfo task, TaskStatus from, TaskStatus to) {
    counted(from, -1);
    counted(to, 1);
    if (from.holdsResources() != to.holdsResources()) { // allocated to binding, say, holds the same
      hold(task, to.holdsResources() ? 1 : -1);
    }
  }

  private void counted(TaskStatus s, int sign) {
    statusCounts[s.ordinal()] += sign;
    if (s.isReady()) {
      ready += sign;
    } else if (s == TaskStatus.FAILED || s == TaskStatus.RELEASING) {
      invalid += sign;
    }
  }

  /** Adds ({@code sign} 1) or takes away (-1) what {@code task} requests to or from {@link #held}. */
  private void hold(TaskInfo task, int sign) {
    io.basalt.model.ResourceVector r = task.request();
    if (r.size() > held.length) {
      held = java.util.Arrays.copyOf(held, r.size());
    }
    for (int i = 0, n = r.size(); i < n; i++) {
      held[i] += sign * r.get(i);
    }
  }

  @Override
  public String toString() {
    return "Job[" + key + " " + phase + " ready=" + readyTaskNum() + "/" + minMember() + "]";
  }
}
