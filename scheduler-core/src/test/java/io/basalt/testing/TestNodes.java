package io.basalt.testing;

import io.basalt.model.Node;
import io.basalt.model.Quantities;
import io.basalt.model.ResourceVector;
import io.basalt.model.Taint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds engine {@link Node}s for tests: {@code TestNodes.node("n1").cpu("8").memory("32Gi").gpu(8).build()}. */
public final class TestNodes {
  private final String name;
  private final ResourceVector.Builder allocatable = ResourceVector.builder().set("pods", 110);
  private final Map<String, String> labels = new HashMap<>();
  private final Map<String, String> annotations = new HashMap<>();
  private final List<Taint> taints = new ArrayList<>();
  private boolean unschedulable;
  private boolean ready = true;

  private TestNodes(String name) {
    this.name = name;
  }

  public static TestNodes node(String name) {
    return new TestNodes(name);
  }

  public TestNodes cpu(String q) {
    return resource("cpu", q);
  }

  public TestNodes memory(String q) {
    return resource("memory", q);
  }

  public TestNodes gpu(int count) {
    return resource("nvidia.com/gpu", Integer.toString(count));
  }

  /**
   * A node in HAMi form: {@code devices} GPUs listed in {@code basalt.io/gpu-topology} (every pair PCIe), offered as
   * {@code nvidia.com/gpu} = devices x 10 vGPU slots.
   */
  public TestNodes hamiGpus(int devices) {
    List<io.basalt.gpu.GpuDevice> list = new ArrayList<>();
    List<List<String>> links = new ArrayList<>();
    for (int i = 0; i < devices; i++) {
      list.add(new io.basalt.gpu.GpuDevice(i, "GPU-" + i, "A100", 81920));
      List<String> row = new ArrayList<>();
      for (int j = 0; j < devices; j++) {
        row.add(i == j ? "X" : "PHB");
      }
      links.add(row);
    }
    annotation(io.basalt.gpu.GpuAnnotations.TOPOLOGY, io.basalt.gpu.GpuAnnotations.format(list, links));
    return gpu(devices * 10);
  }

  public TestNodes resource(String name, String quantity) {
    allocatable.set(name, Quantities.parse(name, quantity));
    return this;
  }

  public TestNodes label(String k, String v) {
    labels.put(k, v);
    return this;
  }

  public TestNodes annotation(String k, String v) {
    annotations.put(k, v);
    return this;
  }

  public TestNodes taint(String key, String value, String effect) {
    taints.add(new Taint(key, value, effect));
    return this;
  }

  public TestNodes unschedulable() {
    this.unschedulable = true;
    return this;
  }

  public TestNodes notReady() {
    this.ready = false;
    return this;
  }

  public Node build() {
    return new Node(name, allocatable.build(), labels, annotations, taints, unschedulable, ready);
  }
}
