package io.basalt.model;

import java.util.List;
import java.util.Map;

/**
 * One requirement of a node selector term: {@code key operator values} over labels, or over fields
 * ({@code metadata.name}) when {@code field} is true. Operators: In, NotIn, Exists, DoesNotExist, Gt, Lt.
 */
public record NodeSelectorRequirement(String key, String operator, List<String> values, boolean field) {
  public NodeSelectorRequirement {
    values = values == null ? List.of() : List.copyOf(values);
  }

  public boolean matches(Node node) {
    Map<String, String> source = field ? Map.of("metadata.name", node.name()) : node.labels();
    String actual = source.get(key);
    return switch (operator) {
      case "In" -> actual != null && values.contains(actual);
      case "NotIn" -> actual == null || !values.contains(actual);
      case "Exists" -> actual != null;
      case "DoesNotExist" -> actual == null;
      case "Gt", "Lt" -> compare(actual);
      default -> false;
    };
  }

  private boolean compare(String actual) {
    if (actual == null || values.size() != 1) {
      return false;
    }
    try {
      long a = Long.parseLong(actual);
      long b = Long.parseLong(values.get(0));
      return "Gt".equals(operator) ? a > b : a < b;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
