package io.basalt.app.conformance;

import static io.basalt.app.conformance.TableYaml.copy;
import static io.basalt.app.conformance.TableYaml.dump;
import static io.basalt.app.conformance.TableYaml.k8s;
import static io.basalt.app.conformance.TableYaml.list;
import static io.basalt.app.conformance.TableYaml.map;
import static io.basalt.app.conformance.TableYaml.node;
import static io.basalt.app.conformance.TableYaml.quantities;
import static io.basalt.app.conformance.TableYaml.str;

import io.basalt.app.Scenarios;
import io.basalt.config.Hook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;

/**
 * Reads {@code test-fixtures/volcano-conformance/*.yaml}: one file per Volcano test file, its cases written as
 * compactly as Volcano's builders write them ({@code n1: {cpu: 2, memory: 2G, pods: 10}}), expanded here into the
 * Kubernetes YAML and scheduler config the simulator reads. The file's top-level keys ({@code actions},
 * {@code tiers}, {@code conf}, {@code priorityClasses}, {@code test}) are defaults every case may override.
 *
 * <p>{@code tiers} are written as Volcano's unit tests build them: only the hooks a plugin lists under {@code enable}
 * are enabled, every other flag is written out as false (a conf file would leave them on). {@code conf} instead is
 * a config text taken as is.
 */
final class VolcanoTables {
  static final String DIR = "volcano-conformance";


  private VolcanoTables() {}

  static List<VolcanoCase> all() {
    Path dir = Scenarios.fixture(DIR);
    try (Stream<Path> files = Files.list(dir)) {
      List<VolcanoCase> all = new ArrayList<>();
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        all.addAll(read(f));
      }
      return all;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<VolcanoCase> read(Path file) throws IOException {
    Map<String, Object> doc = new Yaml().load(Files.readString(file));
    String table = file.getFileName().toString().replaceFirst("\\.yaml$", "");
    List<VolcanoCase> cases = new ArrayList<>();
    for (Object o : list(doc.get("cases"))) {
      Map<String, Object> c = map(o);
      Map<String, Object> merged = new LinkedHashMap<>(doc);
      merged.remove("cases");
      merged.putAll(c);
      String name = str(c.get("name"));
      try {
        cases.add(new VolcanoCase(table, str(merged.get("source")) + " " + str(merged.get("test")), name,
            conf(merged), cluster(merged), outcome(c.get("expect")), c.containsKey("basalt")
                ? outcome(c.get("basalt")) : null, (String) c.get("deliberate"), (String) c.get("open"),
            (String) c.get("note")));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(file.getFileName() + ": case '" + name + "': " + e.getMessage(), e);
      }
    }
    return cases;
  }

  // ---- config ---------------------------------------------------------------------------------------------------

  private static String conf(Map<String, Object> c) {
    if (c.get("conf") instanceof String text) {
      return text;
    }
    List<Object> tiers = new ArrayList<>();
    for (Object tier : list(c.get("tiers"))) {
      List<Object> plugins = new ArrayList<>();
      for (Object p : list(tier)) {
        Map<String, Object> entry = map(p);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", entry.get("name"));
        List<Hook> on = list(entry.get("enable")).stream().map(h -> hook(str(h))).toList();
        for (Hook h : Hook.values()) {
          out.put(h.key(), on.contains(h));
        }
        if (entry.get("arguments") != null) {
          out.put("arguments", entry.get("arguments"));
        }
        plugins.add(out);
      }
      tiers.add(Map.of("plugins", plugins));
    }
    Map<String, Object> conf = new LinkedHashMap<>();
    conf.put("actions", c.get("actions"));
    conf.put("tiers", tiers);
    if (c.get("configurations") != null) {
      conf.put("configurations", c.get("configurations"));
    }
    return dump(List.of(conf));
  }

  /** {@code jobOrder} for {@code enableJobOrder}, {@code overused} for {@code enabledOverused}. */
  private static Hook hook(String shortName) {
    for (Hook h : Hook.values()) {
      String bare = h.key().replaceFirst("^(?i)enabled?", "");
      if (bare.equalsIgnoreCase(shortName)) {
        return h;
      }
    }
    throw new IllegalArgumentException("unknown hook '" + shortName + "'");
  }

  // ---- cluster --------------------------------------------------------------------------------------------------

  private static String cluster(Map<String, Object> c) {
    List<Object> docs = new ArrayList<>();
    map(c.get("priorityClasses")).forEach((name, v) -> {
      Map<String, Object> pc = new LinkedHashMap<>();
      pc.put("apiVersion", "scheduling.k8s.io/v1");
      pc.put("kind", "PriorityClass");
      pc.put("metadata", Map.of("name", name));
      if (v instanceof Map<?, ?> m) {
        pc.put("value", m.get("value"));
        if (m.get("preemptionPolicy") != null) {
          pc.put("preemptionPolicy", m.get("preemptionPolicy"));
        }
      } else {
        pc.put("value", v);
      }
      docs.add(pc);
    });
    map(c.get("nodes")).forEach((name, v) -> docs.add(node(name, map(v), Map.of())));
    map(c.get("queues")).forEach((name, v) -> docs.add(queue(name, map(v))));
    map(c.get("podGroups")).forEach((key, v) -> docs.add(podGroup(key, map(v))));
    map(c.get("pods")).forEach((key, v) -> docs.add(pod(key, map(v))));
    String extra = c.get("yaml") instanceof String s ? "---\n" + s : "";
    return dump(docs) + extra;
  }

  private static Map<String, Object> queue(String name, Map<String, Object> v) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", name);
    if (v.get("annotations") != null) {
      meta.put("annotations", v.get("annotations"));
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("weight", v.getOrDefault("weight", 1));
    copy(v, spec, "priority", "parent", "reclaimable");
    for (String r : List.of("capability", "deserved")) {
      if (v.get(r) != null) {
        spec.put(r, quantities(v.get(r)));
      }
    }
    if (v.get("guarantee") != null) {
      spec.put("guarantee", Map.of("resource", quantities(v.get("guarantee"))));
    }
    return k8s("scheduling.volcano.sh/v1beta1", "Queue", meta, spec,
        Map.of("state", v.getOrDefault("state", "Open")));
  }

  private static Map<String, Object> podGroup(String key, Map<String, Object> v) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("minMember", v.getOrDefault("minMember", 1));
    spec.put("queue", v.getOrDefault("queue", "default"));
    copy(v, spec, "minTaskMember", "priorityClassName", "networkTopology");
    if (v.get("minResources") != null) {
      spec.put("minResources", quantities(v.get("minResources")));
    }
    return k8s("scheduling.volcano.sh/v1beta1", "PodGroup", meta(key, Map.of(), Map.of()), spec,
        Map.of("phase", v.getOrDefault("phase", "Inqueue")));
  }

  private static Map<String, Object> pod(String key, Map<String, Object> v) {
    Map<String, Object> annotations = new LinkedHashMap<>(map(v.get("annotations")));
    if (v.get("group") != null) {
      annotations.put("scheduling.k8s.io/group-name", v.get("group"));
    }
    if (v.get("role") != null) {
      annotations.put("volcano.sh/task-spec", v.get("role"));
    }
    Map<String, Object> labels = new LinkedHashMap<>(map(v.get("labels")));
    if (v.get("preemptable") != null) {
      labels.put("volcano.sh/preemptable", String.valueOf(v.get("preemptable")));
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("schedulerName", "basalt-scheduler");
    if (v.get("node") != null) {
      spec.put("nodeName", v.get("node"));
    }
    copy(v, spec, "priority", "priorityClassName", "preemptionPolicy", "nodeSelector", "tolerations", "affinity",
        "topologySpreadConstraints");
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", "c");
    container.put("image", "x");
    container.put("resources", Map.of("requests", quantities(v.get("req"))));
    spec.put("containers", List.of(container));
    String phase = (String) v.getOrDefault("phase", v.get("node") == null ? "Pending" : "Running");
    return k8s("v1", "Pod", meta(key, labels, annotations), spec, Map.of("phase", phase));
  }

  private static Map<String, Object> meta(String key, Map<String, Object> labels, Map<String, Object> annotations) {
    int slash = key.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("'" + key + "' is not namespace/name");
    }
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", key.substring(slash + 1));
    meta.put("namespace", key.substring(0, slash));
    meta.put("labels", labels);
    meta.put("annotations", annotations);
    return meta;
  }




  // ---- outcomes -------------------------------------------------------------------------------------------------

  private static VolcanoCase.Outcome outcome(Object o) {
    Map<String, Object> m = map(o);
    Map<String, String> binds = new LinkedHashMap<>();
    map(m.get("binds")).forEach((pod, node) -> binds.put(pod, str(node)));
    Map<String, Map<String, Double>> scores = new LinkedHashMap<>();
    map(m.get("scores")).forEach((pod, byNode) -> {
      Map<String, Double> s = new LinkedHashMap<>();
      map(byNode).forEach((node, score) -> s.put(node, ((Number) score).doubleValue()));
      scores.put(pod, s);
    });
    return new VolcanoCase.Outcome(binds, list(m.get("evicted")).stream().map(TableYaml::str).toList(), scores);
  }




}
