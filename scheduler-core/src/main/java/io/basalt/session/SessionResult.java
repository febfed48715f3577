package io.basalt.session;

import io.basalt.api.JobCondition;
import io.basalt.api.PodGroupPhase;
import io.basalt.model.Pod;
import io.basalt.model.ResourceVector;
import java.util.List;

/**
 * What a closed session decided: what to bind, what to evict, and the status to write back ({@code jobs}: the
 * groups' statuses).
 */
public record SessionResult(
    List<Binding> bindings,
    List<Eviction> evictions,
    List<PendingPod> pending,
    List<JobStatus> jobs,
    List<QueueStatus> queues) {

  /** Bind {@code pod} to {@code node}, first adding {@code annotations} (e.g. the GPUs chosen for it). */
  public record Binding(Pod pod, String node, java.util.Map<String, String> annotations) {
    public Binding {
      annotations = java.util.Map.copyOf(annotations);
    }
  }

  public record Eviction(Pod pod, String reason) {}

  /** A pod left pending, why, the node it is pipelined to (null if none), and its job's queue. */
  public record PendingPod(Pod pod, String reason, String nominatedNode, String queue) {}

  /**
   * A queue's status after the session: its share (null when no plugin divides the cluster), what it holds, and
   * its PodGroups by phase.
   */
  public record QueueStatus(String name, int weight, ResourceVector deserved, ResourceVector allocated,
      boolean overused, int pending, int inqueue, int running) {}

  /**
   * A job's status after the session: PodGroup phase, minMember, how many tasks are placed or running, and conditions.
   * A session reports groups only (a pod on its own has no group status to write).
   *
   * @param implicit a pod on its own, no group (never reported by a session; writers skip such a status)
   * @param inferredFrom for a group Basalt inferred (no Volcano PodGroup object to write to), what it came from, e.g.
   *     {@code Job ml/train}; null otherwise
   * @param domain the network domain topology-aware placement put the job in during this session, or null
   */
  public record JobStatus(String key, boolean implicit, PodGroupPhase phase, int minMember, int scheduled,
      List<JobCondition> conditions, String inferredFrom, String domain) {
    /** The status of a PodGroup object or of a pod on its own. */
    public JobStatus(String key, boolean implicit, PodGroupPhase phase, int minMember, int scheduled,
        List<JobCondition> conditions) {
      this(key, implicit, phase, minMember, scheduled, conditions, null, null);
    }

    /** True when a PodGroup object stands behind this job (its status can be written). */
    public boolean hasPodGroupObject() {
      return !implicit && inferredFrom == null;
    }
  }
}
