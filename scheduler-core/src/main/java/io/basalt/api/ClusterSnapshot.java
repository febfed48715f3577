package io.basalt.api;

import io.basalt.dra.DraState;
import io.basalt.fabric.Fabric;
import io.basalt.gpu.protocol.DeviceProtocols;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import java.util.List;
import java.util.Map;

/**
 * What a session starts from: node accounting copies and the scheduler's own pods (pending or placed; pods of other
 * schedulers only count in the nodes' usage).
 *
 * @param nominations this scheduler's pending pod uid to the node held for it (a preemption freed it, the pod was
 *     pipelined there, or a bind was refused): written as the pod's {@code status.nominatedNodeName}
 * @param fabric the network domains over the nodes (HyperNodes, a MetaX node_group, node labels); empty without
 * @param deviceProtocol how chosen devices are told to nodes (the {@code --device-protocol} setting)
 * @param totals what the nodes offer and use together; summed here from {@code nodes} when null
 * @param positions each node's position in {@code nodes} by name; worked out here when null. The cache hands the same
 *     map to every snapshot until a node comes or goes, so a session does not index the nodes itself
 * @param assignedPods the pods assigned to each node (every scheduler's, finished ones left out), for the filters
 *     that read other pods (host ports, inter-pod affinity, topology spread)
 * @param namespaceLabels namespace name to its labels, for pod affinity's namespace selectors; only those the
 *     cluster state describes
 * @param othersNominated other schedulers' pending pods nominated to a node ({@code status.nominatedNodeName}): the
 *     room they were promised is held for them, as kube-scheduler holds it for nominated pods
 * @param volumes the claims, PVs, StorageClasses, CSINodes and CSIStorageCapacities, for the volume filters
 * @param dra the DRA objects (device classes, ResourceSlices, claims, templates); {@link DraState#EMPTY} without
 * @param quotas the namespaces' ResourceQuotas, for the reason a gang they refused pods of never starts; empty without
 */
public record ClusterSnapshot(
    List<NodeInfo> nodes,
    List<Pod> pods,
    Map<String, PodGroup> podGroups,
    Map<String, Queue> queues,
    Map<String, PriorityClass> priorityClasses,
    String defaultQueue,
    Map<String, String> nominations,
    Fabric fabric,
    DeviceProtocols deviceProtocol,
    ClusterTotals totals,
    Map<String, Integer> positions,
    AssignedPods assignedPods,
    Map<String, Map<String, String>> namespaceLabels,
    List<Pod> othersNominated,
    io.basalt.model.ClusterVolumes volumes,
    DraState dra,
    List<io.basalt.model.NamespaceQuota> quotas) {
  public ClusterSnapshot {
    quotas = quotas == null ? List.of() : quotas;
    dra = dra == null ? DraState.EMPTY : dra;
    volumes = volumes == null ? io.basalt.model.ClusterVolumes.EMPTY : volumes;
    namespaceLabels = namespaceLabels == null ? Map.of() : namespaceLabels;
    assignedPods = assignedPods == null ? AssignedPods.NONE : assignedPods;
    othersNominated = othersNominated == null ? List.of() : othersNominated;
    fabric = fabric == null ? Fabric.EMPTY : fabric;
    deviceProtocol = deviceProtocol == null ? DeviceProtocols.AUTO : deviceProtocol;
    totals = totals == null ? ClusterTotals.of(nodes, io.basalt.model.ResourceNames.count()) : totals;
    positions = positions == null ? positionsOf(nodes) : positions;
  }

  /** A snapshot of a cluster without ResourceQuotas. */
  public ClusterSnapshot(List<NodeInfo> nodes, List<Pod> pods, Map<String, PodGroup> podGroups,
      Map<String, Queue> queues, Map<String, PriorityClass> priorityClasses, String defaultQueue,
      Map<String, String> nominations, Fabric fabric, DeviceProtocols deviceProtocol, ClusterTotals totals,
      Map<String, Integer> positions, AssignedPods assignedPods, Map<String, Map<String, String>> namespaceLabels,
      List<Pod> othersNominated, io.basalt.model.ClusterVolumes volumes, DraState dra) {
    this(nodes, pods, podGroups, queues, priorityClasses, defaultQueue, nominations, fabric, deviceProtocol, totals,
        positions, assignedPods, namespaceLabels, othersNominated, volumes, dra, List.of());
  }

  /** A snapshot of a cluster without storage or DRA objects. */
  public ClusterSnapshot(List<NodeInfo> nodes, List<Pod> pods, Map<String, PodGroup> podGroups,
      Map<String, Queue> queues, Map<String, PriorityClass> priorityClasses, String defaultQueue,
      Map<String, String> nominations, Fabric fabric, DeviceProtocols deviceProtocol, ClusterTotals totals,
      Map<String, Integer> positions, AssignedPods assignedPods, Map<String, Map<String, String>> namespaceLabels,
      List<Pod> othersNominated) {
    this(nodes, pods, podGroups, queues, priorityClasses, defaultQueue, nominations, fabric, deviceProtocol, totals,
        positions, assignedPods, namespaceLabels, othersNominated, null, DraState.EMPTY);
  }

  /** A snapshot where no other scheduler's pod is nominated to a node. */
  public ClusterSnapshot(List<NodeInfo> nodes, List<Pod> pods, Map<String, PodGroup> podGroups,
      Map<String, Queue> queues, Map<String, PriorityClass> priorityClasses, String defaultQueue,
      Map<String, String> nominations, Fabric fabric, DeviceProtocols deviceProtocol, ClusterTotals totals,
      Map<String, Integer> positions, AssignedPods assignedPods) {
    this(nodes, pods, podGroups, queues, priorityClasses, defaultQueue, nominations, fabric, deviceProtocol, totals,
        positions, assignedPods, Map.of(), List.of());
  }

  /** The pods assigned to {@code node} when the snapshot was taken, every scheduler's; empty when none. */
  public List<Pod> podsOn(String node) {
    return assignedPods.on(node);
  }

  private static Map<String, Integer> positionsOf(List<NodeInfo> nodes) {
    Map<String, Integer> at = new java.util.HashMap<>(nodes.size() * 2);
    for (int i = 0; i < nodes.size(); i++) {
      at.put(nodes.get(i).name(), i);
    }
    return Map.copyOf(at);
  }
}
