package io.basalt.app.topology;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuDevice;
import io.basalt.gpu.GpuTopology;
import java.util.List;
import java.util.Map;

/** The value of {@value GpuAnnotations#TOPOLOGY} for one node, and how many GPUs it describes. */
record TopologyAnnotation(String json, int gpus) {

  /**
   * Joins the two outputs. {@link GpuTopology} can only be built outside its package by reading an annotation, so
   * the devices and codes are drafted as one, read back with the scheduler's own {@link GpuAnnotations#topology}
   * (which also proves the scheduler will accept it) and written by {@link GpuAnnotations#format}.
   *
   * @throws SmiOutputException when the outputs disagree on the GPU count, or the scheduler would reject the result
   */
  static TopologyAnnotation of(List<GpuDevice> devices, List<List<String>> codes, String topoSource,
      String querySource) throws SmiOutputException {
    if (devices.size() != codes.size()) {
      throw new SmiOutputException(topoSource, 0, null, "lists " + codes.size() + " GPUs but `" + querySource
          + "` lists " + devices.size() + "; both must describe the same GPUs");
    }
    GpuTopology topology;
    try {
      topology = io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.TOPOLOGY, draft(devices, codes)));
    } catch (IllegalArgumentException e) {
      throw new SmiOutputException(topoSource, 0, null, e.getMessage());
    }
    return new TopologyAnnotation(GpuAnnotations.format(topology, codes), devices.size());
  }

  private static String draft(List<GpuDevice> devices, List<List<String>> codes) {
    JsonArray ds = new JsonArray();
    for (GpuDevice d : devices) {
      JsonObject o = new JsonObject();
      o.addProperty("index", d.index());
      o.addProperty("uuid", d.uuid());
      o.addProperty("model", d.model());
      o.addProperty("memoryMiB", d.memoryMiB());
      ds.add(o);
    }
    JsonArray links = new JsonArray();
    for (List<String> row : codes) {
      JsonArray r = new JsonArray();
      row.forEach(r::add);
      links.add(r);
    }
    JsonObject root = new JsonObject();
    root.add("devices", ds);
    root.add("links", links);
    return root.toString();
  }
}
