package io.basalt.framework;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.QueueInfo;
import io.basalt.fabric.Fabric;
import io.basalt.model.PriorityClass;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a plugin may read of the cycle it serves: the jobs, queues and nodes built from the snapshot. Plugins change
 * nothing through it; placements and evictions are the actions' business.
 */
public interface SessionView {
  Collection<JobInfo> jobs();

  JobInfo job(String key);

  /**
   * The jobs as they stood at open, sorted out for the plugins' opening passes (admitted, holding, pending requests
   * by queue); for {@code onSessionOpen} only.
   */
  io.basalt.api.JobsAtOpen jobsAtOpen();

  Collection<QueueInfo> queues();

  QueueInfo queue(String name);

  /** The network domains over the nodes (supernodes, HyperNodes); {@code Fabric.EMPTY} when none are declared. */
  Fabric fabric();

  /** Nodes in a stable order; index positions are stable for the session. */
  List<NodeInfo> nodes();

  NodeInfo node(String name);

  /**
   * The pods assigned to {@code node} when the session opened, every scheduler's (finished ones left out): what host
   * ports, inter-pod affinity and topology spread count. Placements and evictions made since are told to
   * {@link AllocationListener}s instead.
   */
  List<io.basalt.model.Pod> podsOn(NodeInfo node);

  /**
   * All of {@link #podsOn}'s pods, with the few that carry pod affinity terms apart and an index by label, so the
   * filters that count other pods visit those that can count instead of every pod.
   */
  io.basalt.api.AssignedPods assignedPods();

  /**
   * {@code namespace}'s labels, for pod affinity's namespace selectors: as its Namespace states them, or, where the
   * cluster state holds no Namespace object for it, the one label Kubernetes always sets
   * ({@code kubernetes.io/metadata.name}).
   */
  Map<String, String> namespaceLabels(String namespace);

  Map<String, PriorityClass> priorityClasses();

  /** What all nodes offer together, per resource slot (a fresh array). */
  long[] clusterAllocatable();

  /**
   * What all nodes offered and used together when the session opened (before any placement), shared by every plugin
   * so none has to sum over the nodes itself.
   */
  io.basalt.api.ClusterTotals totalsAtOpen();

  /** Why the job cannot be scheduled at all (missing PodGroup or queue, too few pods for its gang), or null. */
  String jobInvalidReason(JobInfo job);

  /** Resource slots a device plugin accounts per device, which node-level sums must skip; null when none. */
  boolean[] deviceManagedResources();

  /**
   * The cluster's claims, PVs, StorageClasses, CSINodes and storage capacities when the session opened, for the volume
   * filters; what this session's placements chose is theirs to keep.
   */
  default io.basalt.model.ClusterVolumes volumes() {
    return io.basalt.model.ClusterVolumes.EMPTY;
  }
}
