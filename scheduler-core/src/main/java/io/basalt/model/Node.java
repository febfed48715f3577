package io.basalt.model;

import java.util.List;
import java.util.Map;

/** A Kubernetes node as the engine sees it: what it offers and who may run there. Immutable. */
public record Node(
    String name,
    ResourceVector allocatable,
    Map<String, String> labels,
    Map<String, String> annotations,
    List<Taint> taints,
    boolean unschedulable,
    boolean ready) {

  public Node {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    taints = List.copyOf(taints);
  }

  /** A ready, schedulable node without labels or taints; for tests and generated clusters. */
  public static Node of(String name, ResourceVector allocatable) {
    return new Node(name, allocatable, Map.of(), Map.of(), List.of(), false, true);
  }

  public Node withLabels(Map<String, String> newLabels) {
    return new Node(name, allocatable, newLabels, annotations, taints, unschedulable, ready);
  }

  public Node withTaints(List<Taint> newTaints) {
    return new Node(name, allocatable, labels, annotations, newTaints, unschedulable, ready);
  }
}
