package io.basalt.dra;

import java.util.Map;

/**
 * One device a ResourceSlice publishes.
 *
 * @param attributes fully qualified name ({@code domain/name}; an unqualified name in the slice is the driver's) to
 *     its value: a {@link String} (string or version), a {@link Long} or a {@link Boolean}
 * @param capacity fully qualified name to the amount, in base units rounded up (as the engine reads quantities)
 */
public record Device(String name, Map<String, Object> attributes, Map<String, Long> capacity) {
  public Device {
    attributes = Map.copyOf(attributes);
    capacity = Map.copyOf(capacity);
  }

  /** {@code name} qualified by {@code driver} when it names no domain, as the API server reads attribute names. */
  public static String qualify(String driver, String name) {
    return name.indexOf('/') >= 0 ? name : driver + "/" + name;
  }
}
