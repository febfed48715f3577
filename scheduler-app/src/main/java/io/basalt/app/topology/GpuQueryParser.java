package io.basalt.app.topology;

import io.basalt.gpu.GpuDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code nvidia-smi --query-gpu=index,uuid,name,memory.total --format=csv,noheader}: one GPU per line, in
 * index order, as {@code 0, GPU-…, NVIDIA H100 80GB HBM3, 81559 MiB}. Spaces in the name become '-' so the model
 * reads like the {@code nvidia.com/gpu.product} node label ({@code NVIDIA-H100-80GB-HBM3}). nvidia-smi's
 * {@code [N/A]} / {@code [Not Supported]} leave a field unknown (empty, or 0 MiB) rather than failing the node.
 */
final class GpuQueryParser {
  static final List<String> FIELDS = List.of("index", "uuid", "name", "memory.total");
  private static final Pattern MEMORY = Pattern.compile("(\\d+)\\s*(MiB|GiB)?", Pattern.CASE_INSENSITIVE);

  private GpuQueryParser() {}

  static List<GpuDevice> parse(String output, String source) throws SmiOutputException {
    String[] lines = SmiText.lines(output);
    List<GpuDevice> devices = new ArrayList<>();
    for (int li = 0; li < lines.length; li++) {
      String line = SmiText.clean(lines[li]).strip();
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split(",", -1);
      if (devices.isEmpty() && f[0].strip().equalsIgnoreCase("index")) {
        continue; // a header row: --format=csv without noheader
      }
      if (f.length != FIELDS.size()) {
        throw new SmiOutputException(source, li + 1, null, "expected " + FIELDS.size() + " comma-separated fields ("
            + String.join(", ", FIELDS) + "), found " + f.length + ": '" + line + "'");
      }
      devices.add(device(f, devices.size(), li + 1, source));
    }
    if (devices.isEmpty()) {
      throw new SmiOutputException(source, 0, null, "no GPUs listed");
    }
    return devices;
  }

  private static GpuDevice device(String[] f, int expected, int line, String source) throws SmiOutputException {
    String index = f[0].strip();
    if (!index.equals(Integer.toString(expected))) {
      throw new SmiOutputException(source, line, "1 (index)", "expected GPU index " + expected + ", found '" + index
          + "' (GPUs must be listed once each, in index order)");
    }
    String uuid = unknown(f[1]) ? "" : f[1].strip();
    String model = unknown(f[2]) ? "" : f[2].strip().replaceAll("\\s+", "-");
    return new GpuDevice(expected, uuid, model, memoryMiB(f[3].strip(), line, source));
  }

  private static long memoryMiB(String value, int line, String source) throws SmiOutputException {
    if (unknown(value)) {
      return 0;
    }
    Matcher m = MEMORY.matcher(value);
    if (!m.matches()) {
      throw new SmiOutputException(source, line, "4 (memory.total)",
          "expected a size in MiB like '81559 MiB', found '" + value + "'");
    }
    try {
      long v = Long.parseLong(m.group(1));
      boolean gib = m.group(2) != null && m.group(2).toLowerCase(Locale.ROOT).equals("gib");
      return gib ? Math.multiplyExact(v, 1024L) : v;
    } catch (NumberFormatException | ArithmeticException e) {
      throw new SmiOutputException(source, line, "4 (memory.total)", "'" + value + "' is out of range");
    }
  }

  /** nvidia-smi prints [N/A] or [Not Supported] (sometimes without brackets) for values it cannot read. */
  private static boolean unknown(String field) {
    String s = field.strip();
    return s.isEmpty() || s.startsWith("[") || s.equalsIgnoreCase("N/A");
  }
}
