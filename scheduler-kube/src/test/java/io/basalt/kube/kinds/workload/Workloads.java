package io.basalt.kube.kinds.workload;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.basalt.kube.Kinds;
import io.basalt.kube.ManifestReader;
import io.basalt.kube.Manifests;
import io.basalt.kube.kinds.Expansion;
import io.basalt.kube.kinds.KindAdapter;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import org.yaml.snakeyaml.Yaml;

/** Test helpers: YAML to the JSON tree the reader hands over, and the reader run over YAML. */
final class Workloads {
  private Workloads() {}

  static JsonObject json(String yaml) {
    Object tree = new Yaml().load(yaml);
    return new Gson().toJsonTree(tree).getAsJsonObject();
  }

  /** What the registry's adapter for the document's kind expands it to; null when no kind reads it. */
  static Expansion expand(String yaml) {
    JsonObject o = json(yaml);
    KindAdapter<?> kind = Kinds.builtin().forDocument(o.get("apiVersion").getAsString(), o.get("kind").getAsString());
    return kind == null ? null : kind.expand(o);
  }

  static Manifests read(String yaml) {
    return new ManifestReader().readString("w.yaml", yaml);
  }

  static List<String> podNames(Manifests m) {
    return m.pods().stream().map(p -> p.getMetadata().getName()).toList();
  }

  static V1Pod pod(Manifests m, String name) {
    return m.pods().stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no pod " + name + " in " + podNames(m)));
  }

  static V1OwnerReference owner(V1Pod p) {
    List<V1OwnerReference> refs = p.getMetadata().getOwnerReferences();
    if (refs == null || refs.size() != 1) {
      throw new AssertionError("expected one owner reference: " + refs);
    }
    return refs.get(0);
  }
}
