package io.basalt.api;

import io.basalt.model.LabelSelector;
import io.basalt.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods assigned to each node when a snapshot was taken (every scheduler's, finished ones left out), for the
 * filters and scores that read other pods (host ports, inter-pod affinity, topology spread). Apart from them, the few
 * that carry pod affinity or anti-affinity terms (kube-scheduler's "pods with affinity"): inter-pod affinity reads
 * those without a pass over every pod of the cluster. And, worked out the first time a selector asks, the pods by label
 * (key and value), so that counting the pods a selector matches visits only those carrying a label it requires.
 */
public final class AssignedPods {
  public static final AssignedPods NONE = new AssignedPods(Map.of(), List.of(), List.of());

  private final Map<String, Integer> positions;
  private final List<List<Pod>> byPosition;
  private final List<Pod> withAffinity;
  /** Label key, then value, to the pods carrying it; null until first asked for. */
  private volatile Map<String, Map<String, List<Pod>>> byLabel;

  /**
   * @param positions each node's index in {@code byPosition}, by name
   * @param byPosition the pods of each node, by position; an empty list for a node without pods
   * @param withAffinity the assigned pods carrying pod affinity or anti-affinity terms
   */
  public AssignedPods(Map<String, Integer> positions, List<List<Pod>> byPosition, List<Pod> withAffinity) {
    this.positions = positions;
    this.byPosition = byPosition;
    this.withAffinity = withAffinity;
  }

  /** The pods on {@code node}; empty when none or when the node is unknown. */
  public List<Pod> on(String node) {
    Integer p = positions.get(node);
    return p == null ? List.of() : byPosition.get(p);
  }

  /** The assigned pods carrying pod affinity or anti-affinity terms. */
  public List<Pod> withAffinity() {
    return withAffinity;
  }

  /**
   * The pods {@code selector} may match: those carrying the label value it requires that the fewest pods carry
   * ({@code matchLabels}, or an {@code In} requirement of one value), in no particular order; null when it requires
   * no label value, and then any pod may match. A null selector matches none.
   */
  public List<Pod> candidates(LabelSelector selector) {
    if (selector == null) {
      return List.of();
    }
    List<Pod> best = null;
    for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
      best = fewer(best, labelled(e.getKey(), e.getValue()));
    }
    for (LabelSelector.Requirement r : selector.matchExpressions()) {
      if ("In".equals(r.operator()) && r.values().size() == 1) {
        best = fewer(best, labelled(r.key(), r.values().get(0)));
      }
    }
    return best;
  }

  private static List<Pod> fewer(List<Pod> best, List<Pod> other) {
    return best == null || other.size() < best.size() ? other : best;
  }

  /** The pods labelled {@code key}={@code value}. */
  public List<Pod> labelled(String key, String value) {
    Map<String, Map<String, List<Pod>>> index = byLabel;
    if (index == null) {
      index = index();
      byLabel = index;
    }
    Map<String, List<Pod>> values = index.get(key);
    List<Pod> pods = values == null ? null : values.get(value);
    return pods == null ? List.of() : pods;
  }

  private Map<String, Map<String, List<Pod>>> index() {
    Map<String, Map<String, List<Pod>>> index = new HashMap<>();
    for (List<Pod> pods : byPosition) {
      for (Pod pod : pods) {
        for (Map.Entry<String, String> label : pod.labels().entrySet()) {
          index.computeIfAbsent(label.getKey(), k -> new HashMap<>())
              .computeIfAbsent(label.getValue(), v -> new ArrayList<>()).add(pod);
        }
      }
    }
    return index;
  }
}
