package io.basalt.app.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/** What the Volcano and kube-scheduler tables share: reading their YAML and writing Kubernetes objects from it. */
final class TableYaml {
  private static final List<String> NODE_KEYS = List.of("labels", "taints", "unschedulable", "images");

  private TableYaml() {}

  /**
   * A Node from a table row: labels, taints, unschedulable and images are fields, every other key a resource,
   * offered on top of {@code room}.
   */
  static Map<String, Object> node(String name, Map<String, Object> v, Map<String, Object> room) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", name);
    meta.put("labels", map(v.get("labels")));
    Map<String, Object> resources = new LinkedHashMap<>(room);
    v.forEach((k, q) -> {
      if (!NODE_KEYS.contains(k)) {
        resources.put(k, String.valueOf(q));
      }
    });
    Map<String, Object> spec = new LinkedHashMap<>();
    if (v.get("taints") != null) {
      spec.put("taints", v.get("taints"));
    }
    if (Boolean.TRUE.equals(v.get("unschedulable"))) {
      spec.put("unschedulable", true);
    }
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("allocatable", resources);
    status.put("capacity", resources);
    if (v.get("images") != null) {
      List<Object> images = new ArrayList<>();
      map(v.get("images")).forEach((image, size) -> images.add(Map.of("names", List.of(image), "sizeBytes", size)));
      status.put("images", images);
    }
    return k8s("v1", "Node", meta, spec, status);
  }

  static Map<String, Object> k8s(String apiVersion, String kind, Map<String, Object> meta,
      Map<String, Object> spec, Map<String, Object> status) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("apiVersion", apiVersion);
    m.put("kind", kind);
    m.put("metadata", meta);
    m.put("spec", spec);
    m.put("status", status);
    return m;
  }

  static Map<String, Object> quantities(Object v) {
    Map<String, Object> r = new LinkedHashMap<>();
    map(v).forEach((k, q) -> r.put(k, String.valueOf(q)));
    return r;
  }

  static void copy(Map<String, Object> from, Map<String, Object> to, String... keys) {
    for (String k : keys) {
      if (from.get(k) != null) {
        to.put(k, from.get(k));
      }
    }
  }

  static String dump(List<Object> docs) {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    return new Yaml(options).dumpAll(docs.iterator());
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    if (o == null) {
      return Map.of();
    }
    if (!(o instanceof Map<?, ?>)) {
      throw new IllegalArgumentException("expected a mapping, got " + o);
    }
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object o) {
    if (o == null) {
      return List.of();
    }
    if (!(o instanceof List<?>)) {
      throw new IllegalArgumentException("expected a list, got " + o);
    }
    return (List<Object>) o;
  }

  static String str(Object o) {
    if (o == null) {
      throw new IllegalArgumentException("missing value");
    }
    return String.valueOf(o);
  }
}
