package io.basalt.api;

/** Where a task (one pod) stands within a session, following Volcano's task lifecycle. */
public enum TaskStatus {
  PENDING,
  /** Placed in this session on a node with enough idle resources; bound when its job's statement commits. */
  ALLOCATED,
  /** Placed on a node that fits only once releasing pods are gone: reserved, not bound. */
  PIPELINED,
  BINDING,
  BOUND,
  RUNNING,
  /** Terminating (or being evicted): still holds resources that will free up. */
  RELEASING,
  SUCCEEDED,
  FAILED;

  /**
   * The status {@code pod}'s task opens a session with: finished, pending, releasing or running as the pod reports;
   * null for a pod that finished without ever being placed (it gets no task).
   */
  public static TaskStatus atOpen(io.basalt.model.Pod pod) {
    boolean assigned = pod.isAssigned();
    if ("Succeeded".equals(pod.phase())) {
      return assigned ? SUCCEEDED : null;
    }
    if ("Failed".equals(pod.phase())) {
      return assigned ? FAILED : null;
    }
    if (!assigned) {
      return PENDING;
    }
    return pod.terminating() ? RELEASING : RUNNING;
  }

  /** Counted toward a gang's minMember: placed or running. */
  public boolean isReady() {
    return this == ALLOCATED || this == BINDING || this == BOUND || this == RUNNING || this == SUCCEEDED;
  }

  /**
   * Holds resources for its job: placed, binding, bound or running (a releasing pod's are on their way out). What drf
   * and the queue shares count as a job's allocation, summed by {@link JobInfo#held(int)}.
   */
  public boolean holdsResources() {
    return this == ALLOCATED || this == BINDING || this == BOUND || this == RUNNING;
  }

  /** Occupies resources on a node. */
  public boolean isOnNode() {
    return this == ALLOCATED || this == BINDING || this == BOUND || this == RUNNING || this == RELEASING;
  }
}
