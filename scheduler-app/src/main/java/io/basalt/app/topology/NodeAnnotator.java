package io.basalt.app.topology;

/** Reads and writes one annotation of a node; an interface so the agent's compare-then-write logic is tested alone. */
interface NodeAnnotator {
  /** The annotation's current value on {@code node}, or null when the node has none. */
  String get(String node, String key) throws ClusterException;

  /** Sets the annotation on {@code node}, leaving its other annotations and fields alone. */
  void set(String node, String key, String value) throws ClusterException;
}
