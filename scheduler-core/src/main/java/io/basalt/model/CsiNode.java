package io.basalt.model;

import java.util.Map;

/**
 * A CSINode: per CSI driver installed on the node, how many of its volumes the node can attach
 * ({@code spec.drivers[].allocatable.count}); a driver without a count is absent (no limit).
 */
public record CsiNode(String nodeName, Map<String, Integer> attachLimits) {
  public CsiNode {
    attachLimits = attachLimits == null ? Map.of() : Map.copyOf(attachLimits);
  }
}
