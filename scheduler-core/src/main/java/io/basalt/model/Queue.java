package io.basalt.model;

import java.util.Map;

/**
 * A Volcano Queue ({@code scheduling.volcano.sh/v1beta1}). Resource fields are null when unset, which is not the
 * same as zero (an unset capability means unlimited).
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
