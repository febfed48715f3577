package io.basalt.dra;

import java.util.HashMap;
import java.util.Map;

/**
 * A device some node can be allocated, with its CEL input built once and each selector's verdict on it kept for the
 * snapshot's life (a device does not change within one).
 */
final class Candidate {
  final DeviceId id;
  final Device device;
  final boolean nodeLocal;
  private Map<String, Object> input;
  private final Map<String, Selectors.Result> verdicts = new HashMap<>(4);

  Candidate(DeviceId id, Device device, boolean nodeLocal) {
    this.id = id;
    this.device = device;
    this.nodeLocal = nodeLocal;
  }

  /** Whether this device passes {@code expression}. */
  synchronized Selectors.Result test(String expression) {
    Selectors.Result r = verdicts.get(expression);
    if (r == null) {
      if (input == null) {
        input = Selectors.input(id.driver(), device);
      }
      r = Selectors.test(expression, input);
      verdicts.put(expression, r);
    }
    return r;
  }

  /** The value of the fully qualified attribute {@code name}, or null. */
  Object attribute(String name) {
    return device.attributes().get(name);
  }

  @Override
  public String toString() {
    return id.toString();
  }
}
