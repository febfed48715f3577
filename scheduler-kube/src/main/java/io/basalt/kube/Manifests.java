package io.basalt.kube;

import com.google.gson.JsonObject;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.coscheduling.CoschedulingPodGroup;
import io.basalt.kube.kinds.volcano.HyperNode;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link ManifestReader} found: the objects of each kind of its {@link Kinds} in document order, the owners of
 * the workloads it expanded, plus one line per document it skipped (an unknown kind), per object it could not read
 * (a bad quantity, a duplicate) and per warning (a field the model does not know, so probably a typo). Immutable.
 */
public final class Manifests {
  private final Kinds kinds;
  private final Map<KindAdapter<?>, List<KubernetesObject>> objects;
  private final List<OwnerObject> owners;
  private final List<String> skipped;
  private final List<String> errors;
  private final List<String> warnings;
  private final Map<Object, String> origins;

  private Manifests(Builder b) {
    kinds = b.kinds;
    Map<KindAdapter<?>, List<KubernetesObject>> copy = new LinkedHashMap<>();
    b.objects.forEach((k, list) -> copy.put(k, List.copyOf(list)));
    objects = copy;
    owners = List.copyOf(b.owners);
    skipped = List.copyOf(b.skipped);
    errors = List.copyOf(b.errors);
    warnings = List.copyOf(b.warnings);
    origins = new IdentityHashMap<>(b.origins);
  }

  /** The kinds these manifests were read with. */
  public Kinds kinds() {
    return kinds;
  }

  /** The objects of {@code kind}, in document order. */
  @SuppressWarnings("unchecked")
  public <T extends KubernetesObject> List<T> objects(KindAdapter<T> kind) {
    return (List<T>) objects.getOrDefault(kind, List.of());
  }

  /** The objects of every kind whose client-java class is {@code type}, kind by kind in registry order. */
  public <T extends KubernetesObject> List<T> objects(Class<T> type) {
    List<T> out = new ArrayList<>();
    objects.forEach((k, list) -> {
      if (k.type() == type) {
        list.forEach(o -> out.add(type.cast(o)));
      }
    });
    return out;
  }

  public List<V1Node> nodes() {
    return objects(V1Node.class);
  }

  public List<V1Pod> pods() {
    return objects(V1Pod.class);
  }

  /** Volcano PodGroups ({@code scheduling.volcano.sh}). */
  public List<V1beta1PodGroup> podGroups() {
    return objects(V1beta1PodGroup.class);
  }

  public List<V1beta1Queue> queues() {
    return objects(V1beta1Queue.class);
  }

  public List<V1PriorityClass> priorityClasses() {
    return objects(V1PriorityClass.class);
  }

  public List<V1Namespace> namespaces() {
    return objects(V1Namespace.class);
  }

  /** scheduler-plugins coscheduling PodGroups ({@code scheduling.x-k8s.io}). */
  public List<CoschedulingPodGroup> coschedulingGroups() {
    return objects(CoschedulingPodGroup.class);
  }

  /** The workloads (Jobs, JobSets, ...) that were expanded into pods: what gang inference reads of the owners. */
  public List<OwnerObject> owners() {
    return owners;
  }

  /**
   * Volcano {@code topology.volcano.sh/v1alpha1 HyperNode} documents as written (see
   * {@link io.basalt.kube.fabric.HyperNodeReader}, which {@link #toModel()} uses to build the fabric).
   */
  public List<JsonObject> hyperNodes() {
    return objects(HyperNode.class).stream().map(HyperNode::toDocument).toList();
  }

  /** One line per document of a kind Basalt does not use, e.g. {@code jobs.yaml doc 3: skipped kind Job ...}. */
  public List<String> skipped() {
    return skipped;
  }

  /** One line per object that could not be read and was left out (bad quantity, wrong type, duplicate, no kind). */
  public List<String> errors() {
    return errors;
  }

  /** Objects read but with fields the client-java model does not know (typos, newer Kubernetes) or lacks. */
  public List<String> warnings() {
    return warnings;
  }

  /** Where {@code object} (one of this result's objects) came from, e.g. {@code cluster.yaml doc 4}; null if not ours. */
  public String origin(KubernetesObject object) {
    return origins.get(object);
  }

  /** Number of objects read, of every kind (expanded workloads count by what they made, not themselves). */
  public int size() {
    return objects.values().stream().mapToInt(List::size).sum();
  }

  /** Converts to the engine's model; objects that fail conversion are reported in its errors and left out. */
  public ClusterObjects toModel() {
    return ClusterObjects.from(this);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Manifests[");
    objects.forEach((k, list) -> {
      if (!list.isEmpty()) {
        sb.append(k.plural()).append('=').append(list.size()).append(", ");
      }
    });
    return sb.append("skipped=").append(skipped.size()).append(", errors=").append(errors.size())
        .append(", warnings=").append(warnings.size()).append(']').toString();
  }

  /** Accumulates objects as {@link ManifestReader} reads them. */
  static final class Builder {
    final Kinds kinds;
    final Map<KindAdapter<?>, List<KubernetesObject>> objects = new LinkedHashMap<>();
    final List<OwnerObject> owners = new ArrayList<>();
    final List<String> skipped = new ArrayList<>();
    final List<String> errors = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    final Map<Object, String> origins = new IdentityHashMap<>();

    Builder(Kinds kinds) {
      this.kinds = kinds;
      kinds.all().forEach(k -> objects.put(k, new ArrayList<>()));
    }

    void add(KindAdapter<?> kind, KubernetesObject o, String origin) {
      objects.get(kind).add(o);
      origins.put(o, origin);
    }

    /** Takes back an object added earlier (by identity). */
    void remove(KubernetesObject o) {
      objects.values().forEach(list -> list.removeIf(x -> x == o));
      origins.remove(o);
    }

    Manifests build() {
      return new Manifests(this);
    }
  }
}
