package io.basalt.model;

/** A node taint; {@code effect} is NoSchedule, PreferNoSchedule or NoExecute. */
public record Taint(String key, String value, String effect) {
  /** PreferNoSchedule is a preference, not a filter. */
  public boolean blocksScheduling() {
    return "NoSchedule".equals(effect) || "NoExecute".equals(effect);
  }

  @Override
  public String toString() {
    return key + (value == null || value.isEmpty() ? "" : "=" + value) + ":" + effect;
  }
}
