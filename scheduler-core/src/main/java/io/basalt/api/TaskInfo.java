package io.basalt.api;

import io.basalt.model.Pod;
import io.basalt.model.QueueRequest;
import io.basalt.model.ResourceVector;

/**
 * One pod within a session: the immutable {@link Pod} plus where the session has put it. Status and node change
 * only through a {@link Statement}, so a discarded gang leaves no trace.
 */
public final class TaskInfo {
  private final Pod pod;
  private final int priority;
  /**
   * What the session's build reads of the pod per pod per cycle, read from it once (a kept task is handed out again
   * without touching the pod): its request, group, queue asked for and the status it opened with.
   */
  private final ResourceVector request;
  private final String group;
  private QueueRequest queueRequest;
  private final TaskStatus openStatus;
  /** The {@link KeptTasks} session that last handed this object out, or 0, and where in its order. */
  int openedIn;
  int keptAt;
  /** True when {@link #priority} is the pod's own {@code spec.priority}: it holds as long as the pod is the same. */
  boolean priorityFromPod;
  /** {@link Pod#key()} builds the string anew per call; sorts and reasons ask it many times per cycle. */
  private String key;
  /** {@link Pod#taskSpec()} is an annotation lookup; placing a gang asks it per task per try. */
  private String role;
  /** {@link #groupSizeAnnotation}, "" when the pod has none; null until asked. */
  private String groupSize;
  private JobInfo job;
  private TaskStatus status;
  private String nodeName;
  private NodeInfo reservation;
  private io.basalt.gpu.DeviceClaim devices = io.basalt.gpu.DeviceClaim.NONE;
  private String fitError;
  private String fitNode;
  /** Values by {@link CycleState.Key} id; null until something is kept. */
  private Object[] cycleState;

  public TaskInfo(Pod pod, int priority, TaskStatus status) {
    this.pod = pod;
    this.priority = priority;
    this.status = status;
    this.openStatus = status;
    this.nodeName = pod.nodeName();
    this.request = pod.request();
    this.group = pod.groupName();
  }

  public Pod pod() {
    return pod;
  }

  public String key() {
    String k = key;
    if (k == null) {
      k = pod.key();
      key = k;
    }
    return k;
  }

  public String uid() {
    return pod.uid();
  }

  public ResourceVector request() {
    return request;
  }

  /** The pod's PodGroup name ({@link Pod#groupName()}), or null for a pod scheduled on its own. */
  public String groupName() {
    return group;
  }

  /**
   * The queue the pod asks for ({@link QueueRequest#of(Pod)}), read from its annotations and labels once, as the
   * object equal requests share ({@link QueueRequest#shared}).
   */
  public QueueRequest queueRequest() {
    QueueRequest q = queueRequest;
    if (q == null) {
      q = QueueRequest.of(pod).shared();
      queueRequest = q;
    }
    return q;
  }

  /** Pod priority: {@code spec.priority}, else its PriorityClass, else the global default class, else 0. */
  public int priority() {
    return priority;
  }

  public JobInfo job() {
    return job;
  }

  public TaskStatus status() {
    return status;
  }

  /** The node the task runs on, is placed on, or is pipelined to; null while pending. */
  public String nodeName() {
    return nodeName;
  }

  /**
   * The pod's {@link io.basalt.model.NetworkTopology#GPU_GROUP_SIZE_ANNOTATION}, or null, read from the pod once: the
   * build asks it of every gang's tasks every cycle.
   */
  public String groupSizeAnnotation() {
    String a = groupSize;
    if (a == null) {
      a = pod.annotations().get(io.basalt.model.NetworkTopology.GPU_GROUP_SIZE_ANNOTATION);
      a = a == null ? "" : a;
      groupSize = a;
    }
    return a.isEmpty() ? null : a;
  }

  /** The pod's role in its job ({@code volcano.sh/task-spec}), or "" when it has none. */
  public String role() {
    String r = role;
    if (r == null) {
      r = pod.taskSpec();
      r = r == null ? "" : r;
      role = r;
    }
    return r;
  }

  /** The GPUs chosen for this task on its node this session. */
  public io.basalt.gpu.DeviceSet devices() {
    return devices.devices();
  }

  /** The same, with whether it is a share and how much of the device. */
  public io.basalt.gpu.DeviceClaim deviceClaim() {
    return devices;
  }

  public void setDevices(io.basalt.gpu.DeviceClaim devices) {
    this.devices = devices;
  }

  /** The node held for this pending task since an earlier preemption nominated it there, or null. */
  public NodeInfo reservation() {
    return reservation;
  }

  public void reserve(NodeInfo node) {
    this.reservation = node;
  }

  /**
   * Why this pod's own last attempt this session failed, or null when it was not tried or fitted: each pending pod
   * is told its own reason, not the last gang member's.
   */
  public String fitError() {
    return fitError;
  }

  /** The node this pod fitted on in its last attempt before its gang was rolled back, or null. */
  public String fitNode() {
    return fitNode;
  }

  /** Records this session's latest attempt: the node it fitted on, or why it fitted nowhere. */
  public void noteAttempt(String node, String error) {
    this.fitNode = node;
    this.fitError = error;
  }

  /**
   * The value kept under {@code key} for this cycle, computed by the first asker ({@link CycleState}): something
   * derived from the immutable pod (and the session) that many searches of one cycle ask for.
   */
  @SuppressWarnings("unchecked")
  public <T> T cycleState(CycleState.Key<T> key, java.util.function.Function<TaskInfo, T> compute) {
    Object[] state = cycleState;
    if (state != null && key.id < state.length && state[key.id] != null) {
      return (T) state[key.id];
    }
    T value = compute.apply(this);
    if (state == null || key.id >= state.length) {
      state = cycleState = state == null ? new Object[Math.max(key.id + 1, CycleState.keys())]
          : java.util.Arrays.copyOf(state, Math.max(key.id + 1, CycleState.keys()));
    }
    state[key.id] = value;
    return value;
  }

  /**
   * Back to what {@code new TaskInfo(pod, priority, status)} held, for a session that reuses this object (see
   * {@link KeptTasks}): every field a session can set is cleared, the cycle state too (some hold session objects). The job
   * stays until the build adds the task to its job (the kept lone-pod job is found through it).
   */
  void reopen() {
    this.status = openStatus;
    this.nodeName = pod.nodeName();
    this.reservation = null;
    this.devices = io.basalt.gpu.DeviceClaim.NONE;
    this.fitError = null;
    this.fitNode = null;
    this.cycleState = null;
  }

  void setJob(JobInfo job) {
    this.job = job;
  }

  public void place(TaskStatus newStatus, String node) {
    job.onStatusChange(this, status, newStatus);
    this.status = newStatus;
    this.nodeName = node;
  }

  @Override
  public String toString() {
    return key() + "[" + status + (nodeName == null ? "" : "@" + nodeName) + "]";
  }
}
