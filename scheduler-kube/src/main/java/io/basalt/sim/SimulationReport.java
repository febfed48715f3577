package io.basalt.sim;

import io.basalt.session.DomainVerdict;
import java.util.List;
import java.util.Map;

/** What a simulation decided, in the shape {@code basalt simulate --output json} prints. */
public record SimulationReport(
    List<Bound> bindings,
    List<Pending> pending,
    List<Evicted> evicted,
    List<Group> podGroups,
    List<QueueRow> queues,
    List<String> warnings,
    int cycles,
    int nodes,
    List<VolumeRow> volumes,
    List<Claim> claims) {

  public SimulationReport {
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
    claims = claims == null ? List.of() : List.copyOf(claims);
  }

  /** A report of a cluster whose binder bound no volume claim and wrote no DRA claim. */
  public SimulationReport(List<Bound> bindings, List<Pending> pending, List<Evicted> evicted, List<Group> podGroups,
      List<QueueRow> queues, List<String> warnings, int cycles, int nodes) {
    this(bindings, pending, evicted, podGroups, queues, warnings, cycles, nodes, List.of(), List.of());
  }

  /**
   * A DRA ResourceClaim as the binds left it: its allocated devices ({@code driver/pool/device}), the node they pin
   * the pods to (null when none) and the pods it is reserved for.
   */
  public record Claim(String claim, List<String> devices, String node, List<String> reservedFor) {}

  /**
   * A claim the binder bound for a bound pod: {@code volume} is the PV with how it came ({@code pv-1 (bound)},
   * {@code pvc-... (provisioned on node-a)}).
   */
  public record VolumeRow(String pod, String claim, String volume) {}

  /** @param explain node name to verdict, only with {@code --explain} */
  /** @param domain the node's network domain path, widest first ({@code sb1/sb1-df2}); empty without a fabric */
  /** @param annotations every annotation the bind writes on the pod (chosen GPUs, HAMi's protocol), by name */
  public record Bound(String pod, String node, List<String> devices, Map<String, NodeVerdict> explain,
      String domain, Map<String, String> annotations) {}

  /**
   * @param nominatedNode where room is held for the pod (pipelined there, or its preemption's node), as live mode
   *     writes it to {@code status.nominatedNodeName}; null when none
   */
  public record Pending(String pod, String reason, Map<String, NodeVerdict> explain, String nominatedNode) {}

  public record Evicted(String pod, String reason) {}

  /**
   * @param from what the group came from: {@code PodGroup} for an object, else e.g. {@code Job ml/train}
   * @param domains with {@code --explain}, for a job asking for a network domain: the domains its last placement
   *     attempt considered, by tier, the chosen first; null otherwise
   */
  public record Group(String name, String phase, int minMember, int scheduled, String from,
      List<DomainVerdict> domains) {}

  /** A queue's share: {@code deserved} is null when no plugin divides the cluster between queues. */
  public record QueueRow(String name, int weight, Map<String, String> deserved, Map<String, String> allocated,
      boolean overused) {}

  public QueueRow queue(String name) {
    return queues.stream().filter(q -> q.name().equals(name)).findFirst().orElse(null);
  }

  public Bound binding(String pod) {
    return bindings.stream().filter(b -> b.pod().equals(pod)).findFirst().orElse(null);
  }

  public Pending pendingPod(String pod) {
    return pending.stream().filter(p -> p.pod().equals(pod)).findFirst().orElse(null);
  }

  public Group podGroup(String name) {
    return podGroups.stream().filter(g -> g.name().equals(name)).findFirst().orElse(null);
  }
}
