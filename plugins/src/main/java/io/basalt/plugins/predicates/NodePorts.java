package io.basalt.plugins.predicates;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedFilter;
import io.basalt.framework.SessionView;
import io.basalt.model.HostPort;
import io.basalt.model.Pod;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * kube-scheduler's NodePorts filter: a pod asking for a host port fits a node only when no pod there holds a
 * conflicting one ({@link HostPort#conflictsWith}: same protocol and port, same host IP or either the wildcard). The
 * pods there are every scheduler's assigned pods at session open (terminating ones too: their ports are held until
 * they are gone, as kube-scheduler's node info holds them) plus what this session placed or pipelined there, less
 * what it evicted; a discarded placement gives its ports back.
 *
 * <p>One object per session. The ports in use on a node are read from its pods the first time a pod with host ports
 * asks about it, then kept current by the placements the session reports. A pod without host ports fits everywhere:
 * its answer is signed with a constant and never asked. A pod with host ports reads other pods, so it signs nothing.
 */
final class NodePorts implements PreparedFilter, PodSigner, AllocationListener {
  /** kube-scheduler's reason (nodeports plugin {@code ErrReason}). */
  static final FilterResult PORTS_TAKEN =
      FilterResult.unfit("node(s) didn't have free ports for the requested pod ports");
  /** The signature of every pod without host ports: its answer is "fits" on every node. */
  private static final Object NO_PORTS = "no-host-ports";

  private final SessionView session;
  /** Per node name, the pods holding host ports there with their ports, by uid; filled as nodes are asked about. */
  private final Map<String, Map<String, List<HostPort>>> used = new HashMap<>();

  NodePorts(SessionView session) {
    this.session = session;
  }

  @Override
  public FilterResult filter(TaskInfo task, NodeInfo node) {
    List<HostPort> wanted = task.pod().constraints().hostPorts();
    return wanted.isEmpty() || fits(wanted, node) ? FilterResult.OK : PORTS_TAKEN;
  }

  @Override
  public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
    List<HostPort> wanted = task.pod().constraints().hostPorts();
    if (wanted.isEmpty()) {
      return null; // fits every node
    }
    return node -> fits(wanted, node) ? FilterResult.OK : PORTS_TAKEN;
  }

  @Override
  public Object sign(TaskInfo task) {
    return task.pod().constraints().hostPorts().isEmpty() ? NO_PORTS : null;
  }

  @Override
  public void onAllocate(TaskInfo task) {
    List<HostPort> ports = task.pod().constraints().hostPorts();
    if (!ports.isEmpty() && task.nodeName() != null) {
      on(task.nodeName()).put(task.uid(), ports);
    }
  }

  /** An undone placement, or an eviction: the pod's ports are free again on its node. */
  @Override
  public void onDeallocate(TaskInfo task) {
    if (!task.pod().constraints().hostPorts().isEmpty() && task.nodeName() != null) {
      on(task.nodeName()).remove(task.uid());
    }
  }

  private boolean fits(List<HostPort> wanted, NodeInfo node) {
    Map<String, List<HostPort>> held = on(node.name());
    if (held.isEmpty()) {
      return true;
    }
    for (List<HostPort> ports : held.values()) {
      for (int i = 0, n = ports.size(); i < n; i++) {
        HostPort taken = ports.get(i);
        for (int j = 0, m = wanted.size(); j < m; j++) {
          if (wanted.get(j).conflictsWith(taken)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /** The host ports held on node {@code name}, read from its pods at session open on first use. */
  private Map<String, List<HostPort>> on(String name) {
    Map<String, List<HostPort>> held = used.get(name);
    if (held == null) {
      held = new HashMap<>();
      NodeInfo node = session.node(name);
      List<Pod> pods = node == null ? List.of() : session.podsOn(node);
      for (int i = 0, n = pods.size(); i < n; i++) {
        Pod p = pods.get(i);
        if (!p.constraints().hostPorts().isEmpty()) {
          held.put(p.uid(), p.constraints().hostPorts());
        }
      }
      used.put(name, held);
    }
    return held;
  }
}
