package io.basalt.model;

import java.util.List;

/** A node selector term: all requirements must match (terms themselves are OR'ed). An empty term matches nothing. */
public record NodeSelectorTerm(List<NodeSelectorRequirement> requirements) {
  public NodeSelectorTerm {
    requirements = List.copyOf(requirements);
  }

  public boolean matches(Node node) {
    if (requirements.isEmpty()) {
      return false;
    }
    for (NodeSelectorRequirement r : requirements) {
      if (!r.matches(node)) {
        return false;
      }
    }
    return true;
  }
}
