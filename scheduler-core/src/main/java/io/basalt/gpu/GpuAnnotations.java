package io.basalt.gpu;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The annotations GPU placement reads and writes: a node's topology ({@value #TOPOLOGY}, or MetaX's
 * {@value #METAX_DEVICES}, or HAMi's {@value HamiFormat#NVIDIA_REGISTER}) and the devices chosen for a pod
 * ({@value #DEVICES}, {@value #UUIDS}).
 */
public final class GpuAnnotations {
  /** Node: {"devices":[{"index":0,"uuid":...,"model":...,"memoryMiB":...}],"links":[["X","NV18",...],...]}. */
  public static final String TOPOLOGY = "basalt.io/gpu-topology";
  /** Node, written by MetaX's device plugin: a JSON list of devices with uuid, model, totalVRam, linkZone. */
  public static final String METAX_DEVICES = "metax-tech.com/node-gpu-devices";
  /** Pod: the GPU indices it was given, "2,3". */
  public static final String DEVICES = "basalt.io/gpu-devices";
  /** Pod: the UUIDs of those GPUs, when the node reported them. */
  public static final String UUIDS = "basalt.io/gpu-uuids";
  /** MetaXLink within a linkZone is scored as one lane (100); across zones the devices talk over PCIe (PHB). */
  static final String METAX_LINK = "MX1";
  static final String PCIE = "PHB";

  private GpuAnnotations() {}

  /**
   * The node's topology from its annotations, or null when it reports none.
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong with it
   */
  public static GpuTopology topology(Map<String, String> nodeAnnotations) {
    String basalt = nodeAnnotations.get(TOPOLOGY);
    if (basalt != null) {
      return parseTopology(basalt);
    }
    String metax = nodeAnnotations.get(METAX_DEVICES);
    if (metax != null) {
      return parseMetax(metax);
    }
    String hami = nodeAnnotations.get(HamiFormat.NVIDIA_REGISTER);
    return hami == null ? null : HamiFormat.topology(HamiFormat.parseRegister(hami));
  }

  /**
   * The annotation the node's inventory is read from, in order of preference (Basalt's topology, MetaX's devices,
   * HAMi's register), or null; nodes with the same text share one parsed topology.
   */
  public static String inventorySource(Map<String, String> nodeAnnotations) {
    for (String key : List.of(TOPOLOGY, METAX_DEVICES, HamiFormat.NVIDIA_REGISTER)) {
      if (nodeAnnotations.containsKey(key)) {
        return key;
      }
    }
    return null;
  }

  static GpuTopology parseTopology(String json) {
    JsonObject root;
    try {
      root = JsonParser.parseString(json).getAsJsonObject();
    } catch (JsonParseException | IllegalStateException e) {
      throw bad(TOPOLOGY, "not a JSON object");
    }
    JsonArray devices = array(root, "devices", TOPOLOGY);
    JsonArray links = array(root, "links", TOPOLOGY);
    List<GpuDevice> list = new ArrayList<>();
    for (int i = 0; i < devices.size(); i++) {
      JsonObject d = devices.get(i).isJsonObject() ? devices.get(i).getAsJsonObject() : null;
      if (d == null || !d.has("index") || d.get("index").getAsInt() != i) {
        throw bad(TOPOLOGY, "devices[" + i + "] must be an object with \"index\": " + i);
      }
      list.add(new GpuDevice(i, text(d, "uuid"), text(d, "model"),
          d.has("memoryMiB") ? d.get("memoryMiB").getAsLong() : 0));
    }
    int n = list.size();
    if (links.size() != n) {
      throw bad(TOPOLOGY, "links has " + links.size() + " rows for " + n + " devices");
    }
    int[][] scores = new int[n][n];
    for (int i = 0; i < n; i++) {
      JsonArray row = links.get(i).isJsonArray() ? links.get(i).getAsJsonArray() : null;
      if (row == null || row.size() != n) {
        throw bad(TOPOLOGY, "links[" + i + "] must list " + n + " link codes");
      }
      for (int j = 0; j < n; j++) {
        try {
          scores[i][j] = i == j ? 0 : GpuTopology.pairScore(row.get(j).getAsString());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
          throw bad(TOPOLOGY, "links[" + i + "][" + j + "]: " + e.getMessage());
        }
      }
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++) {
        if (scores[i][j] != scores[j][i]) {
          throw bad(TOPOLOGY, "links[" + i + "][" + j + "] and links[" + j + "][" + i + "] differ");
        }
      }
    }
    return new GpuTopology(list, scores, false);
  }

  static GpuTopology parseMetax(String json) {
    JsonArray devices;
    try {
      devices = JsonParser.parseString(json).getAsJsonArray();
    } catch (JsonParseException | IllegalStateException e) {
      throw bad(METAX_DEVICES, "not a JSON list of devices");
    }
    int n = devices.size();
    List<GpuDevice> list = new ArrayList<>();
    int[] zones = new int[n];
    for (int i = 0; i < n; i++) {
      if (!devices.get(i).isJsonObject()) {
        throw bad(METAX_DEVICES, "device " + i + " is not an object");
      }
      JsonObject d = devices.get(i).getAsJsonObject();
      long vram = d.has("totalVRam") ? d.get("totalVRam").getAsLong() : 0;
      list.add(new GpuDevice(i, text(d, "uuid"), text(d, "model"), vram));
      zones[i] = d.has("linkZone") ? d.get("linkZone").getAsInt() : 0;
    }
    int[][] scores = new int[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        boolean linked = zones[i] != 0 && zones[i] == zones[j];
        scores[i][j] = i == j ? 0 : GpuTopology.pairScore(linked ? METAX_LINK : PCIE);
      }
    }
    return new GpuTopology(list, scores, false);
  }

  /** The annotation value for {@code topology}, as the topology agent writes it. */
  public static String format(GpuTopology topology, List<List<String>> linkCodes) {
    return format(topology.devices(), linkCodes);
  }

  /** The annotation value for these devices and link codes. */
  public static String format(List<GpuDevice> gpus, List<List<String>> linkCodes) {
    JsonObject root = new JsonObject();
    JsonArray devices = new JsonArray();
    for (GpuDevice d : gpus) {
      JsonObject o = new JsonObject();
      o.addProperty("index", d.index());
      o.addProperty("uuid", d.uuid());
      o.addProperty("model", d.model());
      o.addProperty("memoryMiB", d.memoryMiB());
      devices.add(o);
    }
    root.add("devices", devices);
    JsonArray links = new JsonArray();
    for (List<String> row : linkCodes) {
      JsonArray r = new JsonArray();
      row.forEach(r::add);
      links.add(r);
    }
    root.add("links", links);
    return root.toString();
  }

  private static JsonArray array(JsonObject root, String field, String annotation) {
    JsonElement e = root.get(field);
    if (e == null || !e.isJsonArray()) {
      throw bad(annotation, "\"" + field + "\" must be a list");
    }
    return e.getAsJsonArray();
  }

  private static String text(JsonObject o, String field) {
    return o.has(field) && !o.get(field).isJsonNull() ? o.get(field).getAsString() : "";
  }

  private static IllegalArgumentException bad(String annotation, String problem) {
    return new IllegalArgumentException("annotation " + annotation + ": " + problem);
  }
}
