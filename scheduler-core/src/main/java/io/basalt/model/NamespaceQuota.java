package io.basalt.model;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A namespace's {@code ResourceQuota}, as far as it caps pods: {@code spec.hard} per resource in the engine's units
 * (the pod's request, {@code requests.cpu} and {@code cpu} alike; {@code pods} counts pods), and the PriorityClass
 * scope choosing which pods it counts. The API server enforces it when a pod is created; Basalt reads it to say why a
 * gang whose pods it refused can never start, and the simulator plays the API server's refusal.
 *
 * @param hard resource name ({@link ResourceNames}; {@code pods} for the pod count) to the most all counted pods of the
 *     namespace may request together
 * @param scope which pods count; {@link PriorityScope#ALL} without a PriorityClass scope
 * @param unsupported keys of {@code spec.hard} and scopes not enforced (limits, storage, object counts), for a warning
 */
public record NamespaceQuota(String namespace, String name, Map<String, Long> hard, PriorityScope scope,
    List<String> unsupported) {
  public NamespaceQuota {
    hard = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(hard)); // reasons name keys in one order
    unsupported = List.copyOf(unsupported);
    scope = scope == null ? PriorityScope.ALL : scope;
  }

  public String key() {
    return namespace + "/" + name;
  }

  /** Whether the quota counts {@code pod} (its namespace and PriorityClass scope). */
  public boolean counts(Pod pod) {
    return namespace.equals(pod.namespace()) && scope.matches(pod.priorityClassName());
  }

  /**
   * {@code scopeSelector}'s PriorityClass expression: {@code In}, {@code NotIn}, {@code Exists} or
   * {@code DoesNotExist} over the pod's {@code priorityClassName}.
   */
  public record PriorityScope(String operator, Set<String> values) {
    public static final PriorityScope ALL = new PriorityScope("All", Set.of());

    public PriorityScope {
      values = Set.copyOf(values);
    }

    public boolean matches(String priorityClassName) {
      boolean has = priorityClassName != null && !priorityClassName.isEmpty();
      return switch (operator) {
        case "In" -> has && values.contains(priorityClassName);
        case "NotIn" -> !has || !values.contains(priorityClassName);
        case "Exists" -> has;
        case "DoesNotExist" -> !has;
        default -> true;
      };
    }
  }
}
