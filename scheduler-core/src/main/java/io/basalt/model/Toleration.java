package io.basalt.model;

/** A pod toleration with Kubernetes matching rules: empty key with Exists tolerates everything. */
public record Toleration(String key, String operator, String value, String effect) {
  public boolean tolerates(Taint taint) {
    if (effect != null && !effect.isEmpty() && !effect.equals(taint.effect())) {
      return false;
    }
    boolean exists = "Exists".equals(operator);
    if (key == null || key.isEmpty()) {
      return exists;
    }
    if (!key.equals(taint.key())) {
      return false;
    }
    if (exists) {
      return true;
    }
    String v = value == null ? "" : value;
    String tv = taint.value() == null ? "" : taint.value();
    return v.equals(tv);
  }
}
