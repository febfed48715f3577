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

  /**
   * Bind {@code pod} to {@code node}, first adding {@code annotations} (e.g. the GPUs chosen for it) and writing its
   * DRA {@code claims}' allocation and reservation.
   */
  public record Binding(Pod pod, String node, java.util.Map<String, String> annotations,
      List<io.basalt.dra.ClaimBinding> claims) {
    public Binding {
      annotations = java.util.Map.copyOf(annotations);
      claims = claims == null ? List.of() : List.copyOf(claims);
    }

    /** A binding that writes no DRA claim. */
    public Binding(Pod pod, String node, java.util.Map<String, String> annotations) {
      this(pod, node, annotations, List.of());
    }
  }

  public record Eviction(Pod pod, String reason) {}

  /**
   * A pod left pending, why, the node it is pipelined to (null if none), and its job's queue. A pod with scheduling
   * gates is pending too, with a reason starting {@link #SCHEDULING_GATED}: the API server gave it its condition
   * ({@code PodScheduled=False}, reason {@code SchedulingGated}), which a status writer leaves as it is.
   */
  public record PendingPod(Pod pod, String reason, String nominatedNode, String queue) {
    /** kube-scheduler's and the API server's reason for a pod held back by {@code spec.schedulingGates}. */
    public static final String SCHEDULING_GATED = "SchedulingGated";

    /** Whether the pod waits on its scheduling gates (it was never tried). */
    public boolean gated() {
      return pod.isGated();
    }

    /** "SchedulingGated: waiting for scheduling gates: [a b]", as kube-scheduler's SchedulingGates plugin says it. */
    static String gatedReason(Pod pod) {
      return SCHEDULING_GATED + ": waiting for scheduling gates: ["
          + String.join(" ", pod.constraints().schedulingGates()) + "]";
    }
  }

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
   * @param running the group's pods in phase Running (Volcano's {@code status.running}); {@code scheduled} counts
   *     placed and bound ones too
   */
  public record JobStatus(String key, boolean implicit, PodGroupPhase phase, int minMember, int scheduled,
      List<JobCondition> conditions, String inferredFrom, String domain, int running) {
    /** The status of a PodGroup object or of a pod on its own. */
    public JobStatus(String key, boolean implicit, PodGroupPhase phase, int minMember, int scheduled,
        List<JobCondition> conditions) {
      this(key, implicit, phase, minMember, scheduled, conditions, null, null, 0);
    }

    /** A status whose pods' phases were not looked at ({@code running} 0). */
    public JobStatus(String key, boolean implicit, PodGroupPhase phase, int minMember, int scheduled,
        List<JobCondition> conditions, String inferredFrom, String domain) {
      this(key, implicit, phase, minMember, scheduled, conditions, inferredFrom, domain, 0);
    }

    /** True when a PodGroup object stands behind this job (its status can be written). */
    public boolean hasPodGroupObject() {
      return !implicit && inferredFrom == null;
    }
  }
}
