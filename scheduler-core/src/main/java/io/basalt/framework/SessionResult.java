package io.basalt.framework;

import io.basalt.model.Pod;
import java.util.List;

/** What a closed session decided: what to bind, what to evict, and the status to write back. */
public record SessionResult(
    List<Binding> bindings,
    List<Eviction> evictions,
    List<PendingPod> pending,
    List<JobStatus> jobs) {

  /** Bind {@code pod} to {@code node}. */
  public record Binding(Pod pod, String node) {}

  public record Eviction(Pod pod, String reason) {}

  /** A pod left pending, why, and the node it is pipelined to (null if none). */
  public record PendingPod(Pod pod, String reason, String nominatedNode) {}

  /**
   * A job's status after the session: PodGroup phase, minMember, how many tasks are placed or running, and conditions.
   */
  public record JobStatus(String key, boolean implicit, String phase, int minMember, int scheduled,
      List<JobCondition> conditions) {}
}
