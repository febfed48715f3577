package io.basalt.model;

import java.util.Map;

/** A Namespace's labels, which {@code namespaceSelector}s of pod affinity terms match. */
public record Namespace(String name, Map<String, String> labels) {
  /** The label Kubernetes sets on every namespace (since 1.21), to its name. */
  public static final String NAME_LABEL = "kubernetes.io/metadata.name";

  public Namespace {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  /** The labels of a namespace no object describes: the one Kubernetes always sets. */
  public static Map<String, String> implicitLabels(String name) {
    return Map.of(NAME_LABEL, name);
  }
}
