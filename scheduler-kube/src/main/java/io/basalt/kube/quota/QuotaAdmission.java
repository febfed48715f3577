package io.basalt.kube.quota;

import io.basalt.model.NamespaceQuota;
import io.basalt.model.Pod;
import io.basalt.model.Quantities;
import io.basalt.model.ResourceNames;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The API server's ResourceQuota admission, played by the simulator: pods are created in order (those already on a
 * node first, then by creation time), and a pod that would take a namespace's counted pods past a quota's
 * {@code spec.hard} is refused, i.e. never created, with a warning naming the quota and the numbers. Live, the API
 * server does this itself. Finished pods count for nothing, as in the quota controller.
 */
public final class QuotaAdmission {
  private QuotaAdmission() {}

  /** The pods created (in their original order) and one warning per pod refused or quota key not enforced. */
  public record Result(List<Pod> pods, List<String> warnings) {}

  /** {@code pods} as admitted under {@code quotas}; null when there are no quotas (nothing changes). */
  public static Result apply(List<Pod> pods, List<NamespaceQuota> quotas) {
    if (quotas.isEmpty()) {
      return null;
    }
    List<String> warnings = new ArrayList<>();
    for (NamespaceQuota q : quotas) {
      if (!q.unsupported().isEmpty()) {
        warnings.add("ResourceQuota " + q.key() + ": not enforced by simulate: " + String.join(", ", q.unsupported()));
      }
    }
    List<Pod> order = new ArrayList<>(pods);
    // stable: list order among equals
    order.sort(Comparator.comparing((Pod p) -> p.isAssigned() ? 0 : 1)
        .thenComparing(Pod::creationTimestamp, Comparator.nullsLast(Comparator.naturalOrder())));
    Map<NamespaceQuota, Map<String, Long>> used = new HashMap<>();
    Set<Pod> refused = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    for (Pod p : order) {
      if (p.isFinished()) {
        continue;
      }
      String why = null;
      for (NamespaceQuota q : quotas) {
        if (q.counts(p) && !p.isAssigned()) {
          why = exceeded(q, used.getOrDefault(q, Map.of()), p);
          if (why != null) {
            break;
          }
        }
      }
      if (why != null) {
        refused.add(p);
        warnings.add("pod " + p.key() + " refused by " + why + " (the API server would not create it)");
        continue;
      }
      for (NamespaceQuota q : quotas) {
        if (q.counts(p)) {
          Map<String, Long> u = used.computeIfAbsent(q, k -> new HashMap<>());
          q.hard().keySet().forEach(r -> u.merge(r, p.request().get(r), Long::sum));
        }
      }
    }
    List<Pod> out = new ArrayList<>();
    for (Pod p : pods) {
      if (!refused.contains(p)) {
        out.add(p);
      }
    }
    return new Result(out, warnings);
  }

  /** Which hard limit {@code pod} would pass, with the numbers; null when it fits. */
  static String exceeded(NamespaceQuota q, Map<String, Long> used, Pod pod) {
    for (Map.Entry<String, Long> h : q.hard().entrySet()) {
      String r = h.getKey();
      long ask = pod.request().get(r);
      long in = used.getOrDefault(r, 0L);
      if (ask > 0 && in + ask > h.getValue()) {
        return "ResourceQuota " + q.key() + ": " + keyOf(r) + " would be " + fmt(r, in + ask) + ", hard "
            + fmt(r, h.getValue()) + " (" + fmt(r, in) + " used)";
      }
    }
    return null;
  }

  /** The {@code spec.hard} key a resource is capped under, as users write it. */
  static String keyOf(String resource) {
    return resource.equals(ResourceNames.PODS_NAME) ? "pods" : "requests." + resource;
  }

  static String fmt(String resource, long amount) {
    int i = ResourceNames.indexIfKnown(resource);
    return i < 0 || resource.equals(ResourceNames.PODS_NAME) ? Long.toString(amount) : Quantities.format(i, amount);
  }
}
