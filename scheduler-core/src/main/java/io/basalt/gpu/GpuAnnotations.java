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
 * Basalt's own annotations: a node's topology ({@value #TOPOLOGY}, or MetaX's device plugin's {@value #METAX_DEVICES})
 * and the devices chosen for a pod ({@value #DEVICES}, {@value #UUIDS}). Which node annotation is read, and HAMi's
 * formats, are the device protocols' ({@code gpu.protocol}).
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
  public static final String PCIE = "PHB";
  /** Kubernetes caps all of an object's annotations together at 256 KiB; a longer value is not read at all. */
  public static final int MAX_CHARS = 256 * 1024;
  /**
   * The most devices one node may report. Far above any machine built (an NVL72 rack is 72), and the bound that keeps
   * a wrong annotation from making an n x n pair matrix in the gigabytes: checked before the matrix is made.
   */
  public static final int MAX_DEVICES = 4096;
  /** "0,1,...,4095" is 19,350 characters. */
  private static final int MAX_CLAIM_CHARS = 20 * 1024;

  private GpuAnnotations() {}

  /** Basalt's topology annotation. */
  public static GpuTopology parseTopology(String json) {
    JsonObject root;
    try {
      root = JsonParser.parseString(json).getAsJsonObject();
    } catch (JsonParseException | IllegalStateException e) {
      throw bad(TOPOLOGY, "not a JSON object");
    }
    JsonArray devices = array(root, "devices", TOPOLOGY);
    JsonArray links = array(root, "links", TOPOLOGY);
    int n = devices.size();
    checkCount(TOPOLOGY, n);
    List<GpuDevice> list = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      JsonObject d = object(devices.get(i), TOPOLOGY, "devices[" + i + "]");
      JsonFields f = new JsonFields(TOPOLOGY, "devices[" + i + "]");
      long index = f.whole(d, "index", Long.MIN_VALUE + 1, Long.MAX_VALUE, Long.MIN_VALUE);
      if (index != i) {
        throw f.bad("index", (index == Long.MIN_VALUE ? "missing" : index + "") + ", expected " + i);
      }
      list.add(new GpuDevice(i, f.text(d, "uuid"), f.text(d, "model"), f.whole(d, "memoryMiB", 0, Long.MAX_VALUE, 0)));
    }
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
        JsonElement code = row.get(j);
        if (!code.isJsonPrimitive() || !code.getAsJsonPrimitive().isString()) {
          throw bad(TOPOLOGY, "links[" + i + "][" + j + "]: a link code must be a string, not "
              + JsonFields.shape(code));
        }
        try {
          scores[i][j] = i == j ? 0 : GpuTopology.pairScore(JsonFields.clip(code.getAsString()));
        } catch (IllegalArgumentException e) {
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

  /** MetaX's device list. */
  public static GpuTopology parseMetax(String json) {
    JsonArray devices;
    try {
      devices = JsonParser.parseString(json).getAsJsonArray();
    } catch (JsonParseException | IllegalStateException e) {
      throw bad(METAX_DEVICES, "not a JSON list of devices");
    }
    int n = devices.size();
    checkCount(METAX_DEVICES, n);
    List<GpuDevice> list = new ArrayList<>();
    long[] zones = new long[n];
    for (int i = 0; i < n; i++) {
      JsonObject d = object(devices.get(i), METAX_DEVICES, "device " + i);
      JsonFields f = new JsonFields(METAX_DEVICES, "device " + i);
      long vram = f.whole(d, "totalVRam", 0, Long.MAX_VALUE, 0);
      list.add(new GpuDevice(i, f.text(d, "uuid"), f.text(d, "model"), vram));
      zones[i] = f.whole(d, "linkZone", Long.MIN_VALUE, Long.MAX_VALUE, 0);
    }
    return GpuTopology.zoned(list, zones, GpuTopology.pairScore(METAX_LINK), GpuTopology.pairScore(PCIE));
  }

  /**
   * The GPUs a pod's {@value #DEVICES} claims on a node of {@code gpus} GPUs: distinct indices, each below
   * {@code gpus}.
   *
   * @throws IllegalArgumentException naming the value and what is wrong (not indices, a repeat, out of range)
   */
  public static DeviceSet claim(String text, int gpus) {
    if (text.length() > MAX_CLAIM_CHARS) {
      throw new IllegalArgumentException("'" + JsonFields.clip(text) + "' is too long (" + text.length()
          + " characters) for a list of at most " + MAX_DEVICES + " GPU indices");
    }
    long[] words = new long[1];
    for (String part : text.split(",", -1)) {
      int i;
      try {
        i = Integer.parseInt(part.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + JsonFields.clip(text)
            + "' is not a list of GPU indices (e.g. \"2,3\")");
      }
      if (i < 0 || i >= gpus) {
        throw new IllegalArgumentException("'" + JsonFields.clip(text) + "' names GPU " + i + ", but the node has "
            + gpus + " GPUs" + (gpus > 0 ? " (0.." + (gpus - 1) + ")" : ""));
      }
      if (i >>> 6 < words.length && (words[i >>> 6] & 1L << i) != 0) {
        throw new IllegalArgumentException("'" + JsonFields.clip(text) + "' names GPU " + i + " twice");
      }
      words = DeviceSet.set(words, i);
    }
    return DeviceSet.fromWords(words);
  }

  /** Refuses more devices than a node may have, before the n x n pair matrix is made. */
  public static void checkCount(String annotation, int devices) {
    if (devices > MAX_DEVICES) {
      throw bad(annotation, "lists " + devices + " devices; at most " + MAX_DEVICES + " GPUs per node are supported");
    }
  }

  private static JsonObject object(JsonElement e, String annotation, String where) {
    if (!e.isJsonObject()) {
      throw bad(annotation, where + " must be an object, not " + JsonFields.shape(e));
    }
    return e.getAsJsonObject();
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

  static IllegalArgumentException bad(String annotation, String problem) {
    return new IllegalArgumentException("annotation " + annotation + ": " + problem);
  }
}
