package io.basalt.kube.kueue;

import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ClusterQueues and cohorts as Basalt {@link Queue}s, in the engine's vocabulary. Per resource, summed over the
 * flavors: {@code deserved} is the nominal quota; {@code capability} nominal plus {@code borrowingLimit} (no entry,
 * i.e. no limit, when a queue in a cohort sets no borrowingLimit for some flavor); {@code guarantee} the part of the
 * nominal quota never lent ({@code nominal - lendingLimit}), only where a lendingLimit is set. The parent is the
 * cohort, itself a queue whose parent is its Cohort object's parent. Per-flavor quota is not the queue's: admission
 * ({@link KueueAdmission}) enforces it and holds pods to the flavor's nodes.
 */
final class KueueQueues {
  private KueueQueues() {}

  /** The queues, ClusterQueues first then cohorts; a name already taken by {@code existing} is skipped, warned. */
  static List<Queue> of(Map<String, KueueRecord.ClusterQueue> cqs, Map<String, KueueRecord.Cohort> cohorts,
      Set<String> existing, List<String> warnings) {
    List<Queue> out = new ArrayList<>();
    Set<String> taken = new LinkedHashSet<>(existing);
    Map<String, Map<String, Long>> cohortDeserved = new LinkedHashMap<>();
    for (KueueRecord.ClusterQueue cq : cqs.values()) {
      Map<String, Long> deserved = new LinkedHashMap<>();
      Map<String, Long> capability = new LinkedHashMap<>();
      Set<String> unlimited = new LinkedHashSet<>();
      Map<String, Long> guarantee = new LinkedHashMap<>();
      boolean borrowsAlone = false;
      for (KueueRecord.ResourceGroup g : cq.resourceGroups()) {
        for (KueueRecord.FlavorQuotas f : g.flavors()) {
          for (KueueRecord.Quota q : f.resources()) {
            deserved.merge(q.resource(), q.nominal(), Long::sum);
            if (q.borrowingLimit() == null && cq.cohort() != null) {
              unlimited.add(q.resource());
            }
            borrowsAlone |= q.borrowingLimit() != null && q.borrowingLimit() > 0 && cq.cohort() == null;
            capability.merge(q.resource(), q.nominal() + (q.borrowingLimit() == null ? 0 : q.borrowingLimit()),
                Long::sum);
            if (q.lendingLimit() != null) {
              guarantee.merge(q.resource(), Math.max(0, q.nominal() - q.lendingLimit()), Long::sum);
            }
          }
        }
      }
      if (borrowsAlone) {
        warnings.add("Kueue: " + cq.display() + " sets a borrowingLimit but no cohort (Kueue's webhook would refuse "
            + "it): Basalt lets it borrow up to that limit from what the cluster leaves idle");
      }
      unlimited.forEach(capability::remove);
      if (cq.cohort() != null) {
        deserved.forEach((r, v) -> cohortDeserved.computeIfAbsent(cq.cohort(), c -> new LinkedHashMap<>())
            .merge(r, v, Long::sum));
      }
      add(out, taken, warnings, cq.display(), new Queue(cq.name(), cq.weight(), vector(capability),
          vector(guarantee), vector(deserved), true, 0, cq.cohort(), cq.stopped() ? "Closed" : "Open",
          cq.annotations()));
    }
    Set<String> cohortNames = new LinkedHashSet<>(cohortDeserved.keySet());
    cohortNames.addAll(cohorts.keySet());
    for (String name : cohortNames) {
      KueueRecord.Cohort c = cohorts.get(name);
      Map<String, Long> deserved = new LinkedHashMap<>(cohortDeserved.getOrDefault(name, Map.of()));
      if (c != null) {
        for (KueueRecord.ResourceGroup g : c.resourceGroups()) {
          for (KueueRecord.FlavorQuotas f : g.flavors()) {
            f.resources().forEach(q -> deserved.merge(q.resource(), q.nominal(), Long::sum));
          }
        }
      }
      add(out, taken, warnings, "cohort " + name, new Queue(name, c == null ? 1 : c.weight(), null, null,
          vector(deserved), true, 0, c == null ? null : c.parent(), "Open", Map.of()));
    }
    return out;
  }

  private static void add(List<Queue> out, Set<String> taken, List<String> warnings, String what, Queue q) {
    if (!taken.add(q.name())) {
      warnings.add("Kueue: " + what + ": a queue named " + q.name() + " already exists; the Kueue one is not made");
      return;
    }
    out.add(q);
  }

  /** Null for nothing set (an empty capability would read as "no limit" anyway). */
  private static ResourceVector vector(Map<String, Long> amounts) {
    if (amounts.isEmpty()) {
      return null;
    }
    ResourceVector.Builder b = ResourceVector.builder();
    amounts.forEach(b::add);
    return b.build();
  }
}
