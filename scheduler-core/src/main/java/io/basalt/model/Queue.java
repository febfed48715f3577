package io.basalt.model;

import java.util.Map;

/**
 * A queue jobs are admitted through and share the cluster by, whatever object states it: a Volcano Queue
 * ({@code scheduling.volcano.sh/v1beta1}) today, whose vocabulary the fields use; another source (Kueue's
 * ClusterQueue) maps its own fields onto them in its kind adapter. Resource fields are null when unset, which is not
 * the same as zero (an unset capability means unlimited).
 *
 * @param weight the share of the cluster relative to other queues (proportion, drf)
 * @param parent the parent queue's name in a hierarchy; null at the root
 * @param state Open, Closed, ...: only an open queue admits jobs
 * @param annotations the source object's annotations (plugins read settings from them, e.g. drf's hierarchy)
 */
public record Queue(
    String name,
    int weight,
    ResourceVector capability,
    ResourceVector guarantee,
    ResourceVector deserved,
    boolean reclaimable,
    int priority,
    String parent,
    String state,
    Map<String, String> annotations) {

  public static final String DEFAULT = "default";

  public Queue {
    annotations = Map.copyOf(annotations);
  }

  /** The queue every pod without one lands in; exists even when not declared. */
  public static Queue implicitDefault(String name) {
    return new Queue(name, 1, null, null, null, true, 0, null, "Open", Map.of());
  }

  public boolean isOpen() {
    return state == null || "Open".equals(state);
  }
}
