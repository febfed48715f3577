package io.basalt.testing;

import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.model.Toleration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Builds engine {@link Pod}s for tests: {@code TestPods.pod("ns/p1").cpu("2").gpu(1).build()}. */
public final class TestPods {
  private static final AtomicLong SEQ = new AtomicLong();

  private final String namespace;
  private final String name;
  private String schedulerName = "basalt-scheduler";
  private String nodeName;
  private String phase = "Pending";
  private boolean terminating;
  private Integer priority;
  private String priorityClassName;
  private final ResourceVector.Builder request = ResourceVector.builder().add(ResourceNames.PODS, 1);
  private final Map<String, String> labels = new HashMap<>();
  private final Map<String, String> annotations = new HashMap<>();
  private final Map<String, String> nodeSelector = new HashMap<>();
  private final List<NodeSelectorTerm> affinity = new ArrayList<>();
  private final List<Toleration> tolerations = new ArrayList<>();
  private Instant created = Instant.ofEpochSecond(1_700_000_000L + SEQ.incrementAndGet());

  private TestPods(String key) {
    String[] parts = key.split("/", 2);
    this.namespace = parts.length == 2 ? parts[0] : "default";
    this.name = parts.length == 2 ? parts[1] : parts[0];
  }

  /** A pending pod named {@code ns/name} (or {@code name} in "default") for basalt-scheduler. */
  public static TestPods pod(String key) {
    return new TestPods(key);
  }

  public TestPods cpu(String q) {
    return resource("cpu", q);
  }

  public TestPods memory(String q) {
    return resource("memory", q);
  }

  public TestPods gpu(int count) {
    return resource("nvidia.com/gpu", Integer.toString(count));
  }

  public TestPods resource(String name, String quantity) {
    request.add(name, io.basalt.model.Quantities.parse(name, quantity));
    return this;
  }

  public TestPods onNode(String node) {
    this.nodeName = node;
    this.phase = "Running";
    return this;
  }

  /** The pod's phase as the API reports it ("Succeeded", "Failed", ...). */
  public TestPods phase(String phase) {
    this.phase = phase;
    return this;
  }

  public TestPods terminating() {
    this.terminating = true;
    return this;
  }

  public TestPods priority(int p) {
    this.priority = p;
    return this;
  }

  public TestPods priorityClass(String pc) {
    this.priorityClassName = pc;
    return this;
  }

  public TestPods scheduler(String s) {
    this.schedulerName = s;
    return this;
  }

  public TestPods group(String group) {
    return annotation(Pod.GROUP_NAME_ANNOTATION, group);
  }

  public TestPods role(String role) {
    return annotation(Pod.TASK_SPEC_ANNOTATION, role);
  }

  public TestPods label(String k, String v) {
    labels.put(k, v);
    return this;
  }

  public TestPods annotation(String k, String v) {
    annotations.put(k, v);
    return this;
  }

  public TestPods nodeSelector(String k, String v) {
    nodeSelector.put(k, v);
    return this;
  }

  public TestPods affinity(NodeSelectorTerm term) {
    affinity.add(term);
    return this;
  }

  public TestPods toleration(Toleration t) {
    tolerations.add(t);
    return this;
  }

  public TestPods created(Instant t) {
    this.created = t;
    return this;
  }

  public Pod build() {
    return new Pod(namespace + "-" + name + "-uid", namespace, name, schedulerName, nodeName, phase, terminating,
        priority, priorityClassName, null, request.build(), labels, annotations, nodeSelector, affinity,
        tolerations, created);
  }
}
