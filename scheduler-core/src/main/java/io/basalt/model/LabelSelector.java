package io.basalt.model;

import java.util.List;
import java.util.Map;

/**
 * A label selector as pod affinity terms and topology spread constraints carry it: {@code matchLabels} and
 * {@code matchExpressions}, all of which must hold. An empty selector matches every pod; where the API allows the
 * selector to be absent, callers hold null for it, which matches no pod (as Kubernetes reads a nil selector there).
 */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {
  /** Matches every label set. */
  public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

  /** One expression: {@code key operator values}; operators In, NotIn, Exists, DoesNotExist. */
  public record Requirement(String key, String operator, List<String> values) {
    public Requirement {
      values = values == null ? List.of() : List.copyOf(values);
    }

    public boolean matches(Map<String, String> labels) {
      String actual = labels.get(key);
      return switch (operator) {
        case "In" -> actual != null && values.contains(actual);
        case "NotIn" -> actual == null || !values.contains(actual);
        case "Exists" -> actual != null;
        case "DoesNotExist" -> actual == null;
        default -> false;
      };
    }
  }

  public LabelSelector {
    matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
    matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
  }

  public boolean matches(Map<String, String> labels) {
    for (Map.Entry<String, String> e : matchLabels.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    for (Requirement r : matchExpressions) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A label every set this selector matches carries, to index by: the {@code matchLabels} pair of the smallest key,
   * else the first {@code In} requirement of one value; null when it requires no label value.
   */
  public Map.Entry<String, String> requiredLabel() {
    Map.Entry<String, String> best = null;
    for (Map.Entry<String, String> e : matchLabels.entrySet()) {
      if (best == null || e.getKey().compareTo(best.getKey()) < 0) {
        best = e;
      }
    }
    if (best != null) {
      return Map.entry(best.getKey(), best.getValue());
    }
    for (Requirement r : matchExpressions) {
      if ("In".equals(r.operator()) && r.values().size() == 1) {
        return Map.entry(r.key(), r.values().get(0));
      }
    }
    return null;
  }

  public boolean isEmpty() {
    return matchLabels.isEmpty() && matchExpressions.isEmpty();
  }
}
