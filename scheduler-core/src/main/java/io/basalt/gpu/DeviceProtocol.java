package io.basalt.gpu;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Which protocol tells a node's device plugin the devices Basalt chose, per device resource: {@code basalt} (only
 * {@code basalt.io/gpu-devices} and {@code gpu-uuids}) or {@code hami} (also HAMi's per-container annotations and
 * node lock, so HAMi's device plugins allocate exactly those devices). {@code auto}, the default, is {@code hami} on
 * nodes carrying HAMi's inventory for that vendor ({@value HamiFormat#NVIDIA_REGISTER} for NVIDIA, MetaX's
 * {@value GpuAnnotations#METAX_DEVICES} for MetaX), else {@code basalt}.
 *
 * <p>Set by {@code --device-protocol} ({@code fallback}) and per resource in the scheduler config:
 * {@code configurations: [{name: deviceProtocol, arguments: {nvidia.com/gpu: hami, metax-tech.com/gpu: basalt}}]};
 * a resource's own entry wins, then the flag, then the config's {@code default}.
 */
public record DeviceProtocol(Mode fallback, Map<String, Mode> perResource) {
  /** The configurations entry holding per-resource settings. */
  public static final String CONFIGURATION = "deviceProtocol";

  public enum Mode {
    AUTO, HAMI, BASALT;

    /**
     * Parses {@code auto}, {@code hami} or {@code basalt}.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Mode parse(String text) {
      try {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException | NullPointerException e) {
        throw new IllegalArgumentException("device protocol '" + text + "' is not one of auto, hami, basalt");
      }
    }
  }

  public static final DeviceProtocol AUTO = new DeviceProtocol(Mode.AUTO, Map.of());

  public DeviceProtocol {
    perResource = Map.copyOf(perResource);
  }

  /**
   * This setting with a config's {@value #CONFIGURATION} arguments on top.
   *
   * @throws IllegalArgumentException naming the key whose value is not a protocol
   */
  public DeviceProtocol with(Map<String, ?> arguments) {
    if (arguments.isEmpty()) {
      return this;
    }
    Map<String, Mode> per = new HashMap<>(perResource);
    Mode base = fallback;
    for (Map.Entry<String, ?> e : arguments.entrySet()) {
      Mode m;
      try {
        m = Mode.parse(String.valueOf(e.getValue()));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(CONFIGURATION + "." + e.getKey() + ": " + ex.getMessage());
      }
      if (e.getKey().equals("default")) {
        base = fallback == Mode.AUTO ? m : fallback;
      } else {
        per.put(e.getKey(), m);
      }
    }
    return new DeviceProtocol(base, per);
  }

  /** Whether devices of {@code vendor} on a node with these annotations are told to it in HAMi's protocol. */
  public boolean hami(HamiVendor vendor, Map<String, String> nodeAnnotations) {
    Mode m = perResource.getOrDefault(vendor.resource(), fallback);
    if (m == Mode.AUTO) {
      return nodeAnnotations.containsKey(vendor == HamiVendor.NVIDIA ? HamiFormat.NVIDIA_REGISTER
          : GpuAnnotations.METAX_DEVICES);
    }
    return m == Mode.HAMI;
  }
}
