package io.basalt.gpu.protocol;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceProtocol;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.protocol.basalt.BasaltProtocol;
import io.basalt.gpu.protocol.hami.HamiFormat;
import io.basalt.gpu.protocol.hami.HamiProtocol;
import io.basalt.gpu.protocol.hami.HamiVendor;
import io.basalt.model.Pod;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The device protocols Basalt speaks ({@link #BASALT}, {@link #HAMI}: one {@link DeviceProtocol} each, in its own
 * package) and which one tells a node's device plugin the devices Basalt chose, per device resource: {@code basalt}
 * (only {@code basalt.io/gpu-devices} and {@code gpu-uuids}) or {@code hami} (also HAMi's per-container annotations
 * and node lock, so HAMi's device plugins allocate exactly those devices). {@code auto}, the default, is the protocol
 * that {@linkplain DeviceProtocol#detects detects} the node ({@code hami} on nodes carrying HAMi's inventory for that
 * vendor: {@value HamiFormat#NVIDIA_REGISTER} for NVIDIA, MetaX's {@value GpuAnnotations#METAX_DEVICES} for MetaX),
 * else {@code basalt}. A new protocol is a package beside {@code hami}, listed in {@link #ALL} and named in
 * {@link Mode}.
 *
 * <p>Set by {@code --device-protocol} ({@code fallback}) and per resource in the scheduler config:
 * {@code configurations: [{name: deviceProtocol, arguments: {nvidia.com/gpu: hami, metax-tech.com/gpu: basalt}}]};
 * a resource's own entry wins, then the flag, then the config's {@code default}.
 */
public record DeviceProtocols(Mode fallback, Map<String, Mode> perResource) {
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

  public static final DeviceProtocol BASALT = BasaltProtocol.INSTANCE;
  public static final DeviceProtocol HAMI = HamiProtocol.INSTANCE;
  /** Every protocol, in the order a pod's record of its devices is read and its annotations are written. */
  public static final List<DeviceProtocol> ALL = List.of(BASALT, HAMI);
  /** The device resources a protocol may be chosen for in the {@value #CONFIGURATION} configuration. */
  public static final List<String> RESOURCES =
      java.util.Arrays.stream(HamiVendor.values()).map(HamiVendor::resource).toList();

  public static final DeviceProtocols AUTO = new DeviceProtocols(Mode.AUTO, Map.of());

  public DeviceProtocols {
    perResource = Map.copyOf(perResource);
  }

  /**
   * This setting with a config's {@value #CONFIGURATION} arguments on top.
   *
   * @throws IllegalArgumentException naming the key whose value is not a protocol
   */
  public DeviceProtocols with(Map<String, ?> arguments) {
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
    return new DeviceProtocols(base, per);
  }

  /**
   * Whether devices asked for with {@code resource} on a node with these annotations are told to it in
   * {@code protocol}: Basalt's always (its record is the engine's own), another when chosen for the resource, or
   * chosen by {@code auto} because it detects the node.
   */
  public boolean speaks(DeviceProtocol protocol, String resource, Map<String, String> nodeAnnotations) {
    if (protocol == BASALT) {
      return true;
    }
    Mode m = perResource.getOrDefault(resource, fallback);
    return m == Mode.AUTO ? protocol.detects(resource, nodeAnnotations)
        : m.name().toLowerCase(Locale.ROOT).equals(protocol.name());
  }

  /**
   * The annotations telling {@code node} the devices of {@code claim} chosen for {@code pod}: each protocol's that
   * speaks there, Basalt's first; empty when no device was chosen.
   */
  public Map<String, String> annotations(Pod pod, String node, Map<String, String> nodeAnnotations, GpuTopology t,
      DeviceClaim claim) {
    if (claim.isEmpty()) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (DeviceProtocol p : ALL) {
      out.putAll(p.annotations(pod, node, t, claim, r -> speaks(p, r, nodeAnnotations)));
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * The node's topology from its annotations, or null when it reports none.
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong with it
   */
  public static GpuTopology topology(Map<String, String> nodeAnnotations) {
    String source = inventorySource(nodeAnnotations);
    if (source == null) {
      return null;
    }
    String value = nodeAnnotations.get(source);
    if (value == null) {
      return null;
    }
    if (value.length() > GpuAnnotations.MAX_CHARS) {
      throw new IllegalArgumentException("annotation " + source + ": " + value.length() + " characters, more than the "
          + GpuAnnotations.MAX_CHARS + " all of a node's annotations may have");
    }
    for (DeviceProtocol p : ALL) {
      if (p.inventoryAnnotations().contains(source)) {
        return p.inventory(source, value);
      }
    }
    return null;
  }

  /**
   * The annotation the node's inventory is read from, in order of preference (each protocol's, Basalt's first:
   * its topology, MetaX's devices, then HAMi's register), or null; nodes with the same text share one parsed topology.
   */
  public static String inventorySource(Map<String, String> nodeAnnotations) {
    for (DeviceProtocol p : ALL) {
      for (String key : p.inventoryAnnotations()) {
        if (nodeAnnotations.containsKey(key)) {
          return key;
        }
      }
    }
    return null;
  }
}
