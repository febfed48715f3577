package io.basalt.app.conformance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/** What the Volcano and kube-scheduler tables share: reading their YAML and writing Kubernetes objects from it. */
final class TableYaml {
  private TableYaml() {}

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
