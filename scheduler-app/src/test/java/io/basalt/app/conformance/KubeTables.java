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
 * Reads {@code test-fixtures/kube-conformance/*.yaml}: one file per kube-scheduler plugin, its cases written as
 * compactly as kube-scheduler's test builders write them ({@code node1: {labels: {foo: bar}}}), expanded here into
 * the Kubernetes YAML and scheduler config the simulator reads. The file's top-level keys ({@code source},
 * {@code test}, {@code conf}, {@code scoring}, {@code nodes}, {@code pods}, {@code pod}) are defaults every case
 * may override; {@code wording} maps kube-scheduler's reasons to Basalt's words for the whole table.
 *
 * <p>The config: {@code conf} is a config text taken as is; {@code scoring: {leastrequested: 1}} is
 * {@code nodeorder} alone with that weight and every other nodeorder weight 0, so the node's score is that one
 * kube-scheduler score; neither gives {@code predicates} alone (a filter table).
 */
final class KubeTables {
  static final String DIR = "kube-conformance";
  /** The incoming pod's namespace/name. */
  static final String INCOMING = "default/incoming";

  /** Volcano's nodeorder weights, each set to 0 unless a case's {@code scoring} names it. */
  private static final List<String> WEIGHTS = List.of("leastrequested", "mostrequested", "balancedresource",
      "nodeaffinity", "podaffinity", "tainttoleration", "imagelocality", "podtopologyspread");
  /** A node's room where the case does not size it: plenty, as kube's filter tests give nodes no sizes at all. */
  private static final Map<String, Object> ROOM = Map.of("cpu", "32", "memory", "64Gi", "pods", "110");

  private KubeTables() {}

  static List<KubeCase> all() {
    Path dir = Scenarios.fixture(DIR);
    try (Stream<Path> files = Files.list(dir)) {
      List<KubeCase> all = new ArrayList<>();
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted(KubeTables::order).toList()) {
        all.addAll(read(f));
      }
      return all;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Files sort by their leading number ({@code 01-nodeaffinity.yaml}): the working tables first. */
  private static int order(Path a, Path b) {
    return a.getFileName().toString().compareTo(b.getFileName().toString());
  }

  /** The table's name: the file name without its order prefix and extension. */
  static String tableName(Path file) {
    return file.getFileName().toString().replaceFirst("\\.yaml$", "").replaceFirst("^\\d+-", "");
  }

  static List<KubeCase> read(Path file) throws IOException {
    Map<String, Object> doc = new Yaml().load(Files.readString(file));
    String table = tableName(file);
    Map<String, String> wording = new LinkedHashMap<>();
    map(doc.get("wording")).forEach((k, v) -> wording.put(k, str(v)));
    List<KubeCase> cases = new ArrayList<>();
    for (Object o : list(doc.get("cases"))) {
      Map<String, Object> c = map(o);
      Map<String, Object> merged = new LinkedHashMap<>(doc);
      merged.remove("cases");
      merged.putAll(c);
      String name = str(c.get("name"));
      try {
        Map<String, String> kube = verdicts(c.get("expect"));
        Map<String, Object> nodes = map(merged.get("nodes"));
        if (!kube.containsKey(KubeCase.POD) && !kube.keySet().equals(nodes.keySet())) {
          throw new IllegalArgumentException("expect names " + kube.keySet() + ", the nodes are " + nodes.keySet());
        }
        cases.add(new KubeCase(table, str(merged.get("source")) + " " + str(merged.get("test")), name,
            conf(merged), cluster(merged), kube, c.containsKey("basalt") ? verdicts(c.get("basalt")) : null,
            (String) c.get("deliberate"), (String) c.get("open"), (String) c.get("note"), wording));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(file.getFileName() + ": case '" + name + "': " + e.getMessage(), e);
      }
    }
    return cases;
  }

  private static Map<String, String> verdicts(Object o) {
    Map<String, String> r = new LinkedHashMap<>();
    map(o).forEach((node, v) -> r.put(node, str(v)));
    if (r.isEmpty()) {
      throw new IllegalArgumentException("no verdicts");
    }
    return r;
  }

  // ---- config ---------------------------------------------------------------------------------------------------

  private static String conf(Map<String, Object> c) {
    if (c.get("conf") instanceof String text) {
      return text;
    }
    Map<String, Object> plugin = new LinkedHashMap<>();
    if (c.get("scoring") != null) {
      Map<String, Object> weights = map(c.get("scoring"));
      for (String w : weights.keySet()) {
        if (!WEIGHTS.contains(w)) {
          throw new IllegalArgumentException("unknown nodeorder weight '" + w + "'");
        }
      }
      Map<String, Object> args = new LinkedHashMap<>();
      for (String w : WEIGHTS) {
        args.put(w + ".weight", weights.getOrDefault(w, 0));
      }
      plugin.put("name", "nodeorder");
      plugin.put("arguments", args);
    } else {
      plugin.put("name", "predicates");
    }
    Map<String, Object> conf = new LinkedHashMap<>();
    conf.put("actions", "allocate, backfill");
    conf.put("tiers", List.of(Map.of("plugins", List.of(plugin))));
    return dump(List.of(conf));
  }

  // ---- cluster --------------------------------------------------------------------------------------------------

  private static String cluster(Map<String, Object> c) {
    List<Object> docs = new ArrayList<>();
    map(c.get("nodes")).forEach((name, v) -> docs.add(node(name, map(v), ROOM)));
    docs.addAll(KubeVolumes.objects(c));
    map(c.get("pods")).forEach((key, v) -> {
      Map<String, Object> p = map(v);
      if (p.get("node") == null) {
        throw new IllegalArgumentException("existing pod '" + key + "' names no node");
      }
      docs.add(pod(key, p));
    });
    docs.add(pod(INCOMING, map(c.get("pod"))));
    return dump(docs);
  }

  /**
   * A pod: {@code req} is one container's requests, {@code containers} and {@code initContainers} lists of them
   * (kube's tests build pods of several containers), {@code ports} its first container's host ports,
   * {@code initPorts} an init container's ({@code sidecar: true} makes it one), {@code images} the images of its
   * containers.
   */
  private static Map<String, Object> pod(String key, Map<String, Object> v) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("schedulerName", "basalt-scheduler");
    if (v.get("node") != null) {
      spec.put("nodeName", v.get("node"));
    }
    if (v.get("nodeName") != null) {
      spec.put("nodeName", v.get("nodeName"));
    }
    copy(v, spec, "priority", "nodeSelector", "tolerations", "affinity", "topologySpreadConstraints", "overhead");
    if (v.get("schedulingGates") != null) {
      spec.put("schedulingGates", list(v.get("schedulingGates")).stream().map(g -> Map.of("name", g)).toList());
    }
    List<Object> requests = v.get("containers") != null ? list(v.get("containers"))
        : v.get("images") != null ? list(v.get("images")).stream().map(i -> (Object) Map.of()).toList()
        : List.of(v.get("req") == null ? Map.of() : v.get("req"));
    List<Object> containers = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      Map<String, Object> container = container("c" + i, requests.get(i));
      if (v.get("images") != null) {
        container.put("image", list(v.get("images")).get(i));
      }
      if (i == 0 && v.get("ports") != null) {
        container.put("ports", list(v.get("ports")).stream().map(p -> port(map(p))).toList());
      }
      containers.add(container);
    }
    spec.put("containers", containers);
    KubeVolumes.podVolumes(v, spec);
    if (v.get("initContainers") != null) {
      List<Object> inits = new ArrayList<>();
      List<Object> reqs = list(v.get("initContainers"));
      for (int i = 0; i < reqs.size(); i++) {
        inits.add(container("init" + i, reqs.get(i)));
      }
      spec.put("initContainers", inits);
    }
    if (v.get("initPorts") != null) {
      // One init container holding these host ports; a sidecar (restartPolicy Always) keeps running beside the pod.
      Map<String, Object> init = container("init-ports", Map.of());
      init.put("ports", list(v.get("initPorts")).stream().map(p -> port(map(p))).toList());
      if (Boolean.TRUE.equals(v.get("sidecar"))) {
        init.put("restartPolicy", "Always");
      }
      spec.put("initContainers", List.of(init));
    }
    String phase = (String) v.getOrDefault("phase", v.get("node") == null ? "Pending" : "Running");
    return k8s("v1", "Pod", meta(key, map(v.get("labels"))), spec, Map.of("phase", phase));
  }

  private static Map<String, Object> container(String name, Object requests) {
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", name);
    container.put("image", "x");
    container.put("resources", Map.of("requests", quantities(requests)));
    return container;
  }

  /** {@code {hostPort: 8080, protocol: UDP, hostIP: 127.0.0.1}}: the container port is the host port. */
  private static Map<String, Object> port(Map<String, Object> p) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("containerPort", p.getOrDefault("containerPort", p.get("hostPort")));
    copy(p, r, "hostPort", "protocol", "hostIP");
    return r;
  }

  private static Map<String, Object> meta(String key, Map<String, Object> labels) {
    int slash = key.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("'" + key + "' is not namespace/name");
    }
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", key.substring(slash + 1));
    meta.put("namespace", key.substring(0, slash));
    meta.put("labels", labels);
    return meta;
  }







}
