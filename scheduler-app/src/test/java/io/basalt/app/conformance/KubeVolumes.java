package io.basalt.app.conformance;

import static io.basalt.app.conformance.TableYaml.k8s;
import static io.basalt.app.conformance.TableYaml.list;
import static io.basalt.app.conformance.TableYaml.map;
import static io.basalt.app.conformance.TableYaml.str;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The storage objects of a kube-scheduler volume table row, written as compactly as kube's test builders write them,
 * expanded into Kubernetes YAML:
 *
 * <ul>
 *   <li>{@code classes: {wait-sc: {mode: WaitForFirstConsumer, provisioner: p, default: true}}}
 *   <li>{@code pvs: {pv-a: {class: c, size: 100Gi, modes: [..], affinity: {label: [values]}, labels: {..},
 *       driver: csi-driver, source: {awsElasticBlockStore: {..}}, claim: ns/name, phase: Available}}}
 *   <li>{@code claims: {ns/name: {class: c, volume: pv-a, size: 50Gi, modes: [..], phase: Lost, owner: ns/pod}}}: no
 *       {@code class} key leaves {@code storageClassName} unset, {@code class: ""} sets it empty; {@code owner} makes
 *       the pod its controller (a generic ephemeral volume's claim)
 *   <li>{@code csinodes: {node: {driver: 2, other: null}}}: a driver's attach limit, null for none
 *   <li>{@code attachments: {va-name: {node: n, attacher: driver, pv: pv-a}}}: VolumeAttachments
 * </ul>
 *
 * <p>A pod's {@code volumes} is a list of {@code {claim: name}}, {@code {ephemeral: volume}} (a generic ephemeral
 * volume, whose claim is {@code <pod>-<volume>}) or a volume source as is ({@code {configMap: {name: x}}}).
 */
final class KubeVolumes {
  private KubeVolumes() {}

  /** The case's storage objects, in the order the simulator reads them best: classes, PVs, claims, CSINodes. */
  static List<Object> objects(Map<String, Object> c) {
    List<Object> docs = new ArrayList<>();
    map(c.get("classes")).forEach((name, v) -> docs.add(storageClass(name, map(v))));
    map(c.get("pvs")).forEach((name, v) -> docs.add(volume(name, map(v))));
    map(c.get("claims")).forEach((key, v) -> docs.add(claim(key, map(v))));
    map(c.get("csinodes")).forEach((name, v) -> docs.add(csiNode(name, map(v))));
    map(c.get("attachments")).forEach((name, v) -> docs.add(attachment(name, map(v))));
    return docs;
  }

  /** Puts the pod's {@code volumes} into its spec. */
  static void podVolumes(Map<String, Object> pod, Map<String, Object> spec) {
    if (pod.get("volumes") == null) {
      return;
    }
    List<Object> out = new ArrayList<>();
    List<Object> in = list(pod.get("volumes"));
    for (int i = 0; i < in.size(); i++) {
      Map<String, Object> v = map(in.get(i));
      Map<String, Object> volume = new LinkedHashMap<>();
      if (v.get("claim") != null) {
        volume.put("name", "v" + i);
        volume.put("persistentVolumeClaim", Map.of("claimName", str(v.get("claim"))));
      } else if (v.get("ephemeral") != null) {
        volume.put("name", str(v.get("ephemeral")));
        volume.put("ephemeral", Map.of("volumeClaimTemplate",
            Map.of("spec", Map.of("accessModes", List.of("ReadWriteOnce")))));
      } else {
        volume.put("name", "v" + i);
        volume.putAll(v);
      }
      out.add(volume);
    }
    spec.put("volumes", out);
  }

  private static Map<String, Object> storageClass(String name, Map<String, Object> v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("apiVersion", "storage.k8s.io/v1");
    m.put("kind", "StorageClass");
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", name);
    if (Boolean.TRUE.equals(v.get("default"))) {
      meta.put("annotations", Map.of("storageclass.kubernetes.io/is-default-class", "true"));
    }
    m.put("metadata", meta);
    m.put("provisioner", v.getOrDefault("provisioner", "kubernetes.io/no-provisioner"));
    if (v.get("mode") != null) {
      m.put("volumeBindingMode", v.get("mode"));
    }
    if (v.get("allowedTopologies") != null) {
      m.put("allowedTopologies", v.get("allowedTopologies"));
    }
    return m;
  }

  private static Map<String, Object> volume(String name, Map<String, Object> v) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", name);
    if (v.get("labels") != null) {
      meta.put("labels", v.get("labels"));
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    if (v.get("class") != null) {
      spec.put("storageClassName", v.get("class"));
    }
    spec.put("capacity", Map.of("storage", String.valueOf(v.getOrDefault("size", "1Gi"))));
    spec.put("accessModes", v.getOrDefault("modes", List.of("ReadWriteOnce")));
    if (v.get("driver") != null) {
      spec.put("csi", Map.of("driver", v.get("driver"), "volumeHandle", v.getOrDefault("handle", name)));
    } else if (v.get("source") != null) {
      spec.putAll(map(v.get("source")));
    } else {
      spec.put("hostPath", Map.of("path", "/tmp"));
    }
    if (v.get("affinity") != null) {
      List<Object> exprs = new ArrayList<>();
      map(v.get("affinity")).forEach((k, values) ->
          exprs.add(Map.of("key", k, "operator", "In", "values", values)));
      spec.put("nodeAffinity", Map.of("required",
          Map.of("nodeSelectorTerms", List.of(Map.of("matchExpressions", exprs)))));
    }
    if (v.get("claim") != null) {
      String key = str(v.get("claim"));
      spec.put("claimRef", Map.of("namespace", key.substring(0, key.indexOf('/')),
          "name", key.substring(key.indexOf('/') + 1)));
    }
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", v.getOrDefault("phase", v.get("claim") != null ? "Bound" : "Available"));
    return k8s("v1", "PersistentVolume", meta, spec, status);
  }

  private static Map<String, Object> claim(String key, Map<String, Object> v) {
    int slash = key.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("claim '" + key + "' is not namespace/name");
    }
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", key.substring(slash + 1));
    meta.put("namespace", key.substring(0, slash));
    if (v.get("owner") != null) { // a pod without a uid has uid namespace/name
      String owner = str(v.get("owner"));
      meta.put("ownerReferences", List.of(Map.of("apiVersion", "v1", "kind", "Pod",
          "name", owner.substring(owner.indexOf('/') + 1), "uid", owner, "controller", true)));
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    if (v.containsKey("class")) {
      spec.put("storageClassName", v.get("class") == null ? "" : v.get("class"));
    }
    spec.put("accessModes", v.getOrDefault("modes", List.of("ReadWriteOnce")));
    spec.put("resources", Map.of("requests", Map.of("storage", String.valueOf(v.getOrDefault("size", "1Gi")))));
    if (v.get("volume") != null) {
      spec.put("volumeName", v.get("volume"));
    }
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", v.getOrDefault("phase", v.get("volume") != null ? "Bound" : "Pending"));
    return k8s("v1", "PersistentVolumeClaim", meta, spec, status);
  }

  private static Map<String, Object> attachment(String name, Map<String, Object> v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("apiVersion", "storage.k8s.io/v1");
    m.put("kind", "VolumeAttachment");
    m.put("metadata", Map.of("name", name));
    m.put("spec", Map.of("attacher", str(v.get("attacher")), "nodeName", str(v.get("node")),
        "source", Map.of("persistentVolumeName", str(v.get("pv")))));
    return m;
  }

  private static Map<String, Object> csiNode(String name, Map<String, Object> drivers) {
    List<Object> list = new ArrayList<>();
    drivers.forEach((driver, limit) -> {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("name", driver);
      d.put("nodeID", name);
      if (limit != null) {
        d.put("allocatable", Map.of("count", limit));
      }
      list.add(d);
    });
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("apiVersion", "storage.k8s.io/v1");
    m.put("kind", "CSINode");
    m.put("metadata", Map.of("name", name));
    m.put("spec", Map.of("drivers", list));
    return m;
  }
}
