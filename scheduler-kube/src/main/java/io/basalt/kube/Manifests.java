package io.basalt.kube;

import com.google.gson.JsonObject;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.coscheduling.CoschedulingPodGroup;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link ManifestReader} found, in document order: the client-java objects Basalt uses, plus one line per
 * document it skipped (an unknown kind), per object it could not read (a bad quantity, a duplicate) and per warning
 * (a field the model does not know, so probably a typo). Immutable.
 */
public final class Manifests {
  private final List<V1Node> nodes;
  private final List<V1Pod> pods;
  private final List<V1beta1PodGroup> podGroups;
  private final List<V1beta1Queue> queues;
  private final List<V1PriorityClass> priorityClasses;
  private final List<V1Namespace> namespaces;
  private final List<CoschedulingPodGroup> coschedulingGroups;
  private final List<OwnerObject> owners;
  private final List<JsonObject> hyperNodes;
  private final List<String> skipped;
  private final List<String> errors;
  private final List<String> warnings;
  private final Map<Object, String> origins;

  private Manifests(Builder b) {
    nodes = List.copyOf(b.nodes);
    pods = List.copyOf(b.pods);
    podGroups = List.copyOf(b.podGroups);
    queues = List.copyOf(b.queues);
    priorityClasses = List.copyOf(b.priorityClasses);
    namespaces = List.copyOf(b.namespaces);
    coschedulingGroups = List.copyOf(b.coschedulingGroups);
    owners = List.copyOf(b.owners);
    hyperNodes = List.copyOf(b.hyperNodes);
    skipped = List.copyOf(b.skipped);
    errors = List.copyOf(b.errors);
    warnings = List.copyOf(b.warnings);
    origins = new IdentityHashMap<>(b.origins);
  }

  public List<V1Node> nodes() {
    return nodes;
  }

  public List<V1Pod> pods() {
    return pods;
  }

  public List<V1beta1PodGroup> podGroups() {
    return podGroups;
  }

  public List<V1beta1Queue> queues() {
    return queues;
  }

  public List<V1PriorityClass> priorityClasses() {
    return priorityClasses;
  }

  public List<V1Namespace> namespaces() {
    return namespaces;
  }

  /** scheduler-plugins coscheduling PodGroups ({@code scheduling.x-k8s.io}). */
  public List<CoschedulingPodGroup> coschedulingGroups() {
    return coschedulingGroups;
  }

  /** The workloads (Jobs, JobSets, ...) that were expanded into pods: what gang inference reads of the owners. */
  public List<OwnerObject> owners() {
    return owners;
  }

  /**
   * Volcano {@code topology.volcano.sh/v1alpha1 HyperNode} documents as read (no client-java model exists; see
   * {@link io.basalt.kube.fabric.HyperNodeReader}, which {@link #toModel()} uses to build the fabric).
   */
  public List<JsonObject> hyperNodes() {
    return hyperNodes;
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

  /** Number of objects read (nodes, pods, PodGroups of both kinds, queues, PriorityClasses, namespaces, HyperNodes). */
  public int size() {
    return nodes.size() + pods.size() + podGroups.size() + queues.size() + priorityClasses.size()
        + namespaces.size() + coschedulingGroups.size() + hyperNodes.size();
  }

  /** Converts to the engine's model; objects that fail conversion are reported in its errors and left out. */
  public ClusterObjects toModel() {
    return ClusterObjects.from(this);
  }

  @Override
  public String toString() {
    return "Manifests[nodes=" + nodes.size() + ", pods=" + pods.size() + ", podGroups=" + podGroups.size()
        + ", queues=" + queues.size() + ", priorityClasses=" + priorityClasses.size() + ", namespaces="
        + namespaces.size() + ", hyperNodes=" + hyperNodes.size() + ", skipped=" + skipped.size() + ", errors="
        + errors.size() + ", warnings=" + warnings.size() + "]";
  }

  /** Accumulates objects as {@link ManifestReader} reads them. */
  static final class Builder {
    final List<V1Node> nodes = new ArrayList<>();
    final List<V1Pod> pods = new ArrayList<>();
    final List<V1beta1PodGroup> podGroups = new ArrayList<>();
    final List<V1beta1Queue> queues = new ArrayList<>();
    final List<V1PriorityClass> priorityClasses = new ArrayList<>();
    final List<V1Namespace> namespaces = new ArrayList<>();
    final List<CoschedulingPodGroup> coschedulingGroups = new ArrayList<>();
    final List<OwnerObject> owners = new ArrayList<>();
    final List<JsonObject> hyperNodes = new ArrayList<>();
    final List<String> skipped = new ArrayList<>();
    final List<String> errors = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    final Map<Object, String> origins = new IdentityHashMap<>();

    void add(KubernetesObject o, String origin) {
      if (o instanceof V1Pod p) {
        pods.add(p);
      } else if (o instanceof V1Node n) {
        nodes.add(n);
      } else if (o instanceof V1beta1PodGroup g) {
        podGroups.add(g);
      } else if (o instanceof V1beta1Queue q) {
        queues.add(q);
      } else if (o instanceof V1PriorityClass c) {
        priorityClasses.add(c);
      } else if (o instanceof V1Namespace ns) {
        namespaces.add(ns);
      } else if (o instanceof CoschedulingPodGroup g) {
        coschedulingGroups.add(g);
      } else {
        throw new IllegalArgumentException("not a kind Manifests holds: " + o.getClass().getName());
      }
      origins.put(o, origin);
    }

    void addHyperNode(JsonObject o, String origin) {
      hyperNodes.add(o);
      origins.put(o, origin);
    }

    /** Takes back an object added earlier (by identity). */
    void remove(KubernetesObject o) {
      for (List<? extends KubernetesObject> list : List.of(pods, nodes, podGroups, queues, priorityClasses, namespaces,
          coschedulingGroups)) {
        list.removeIf(x -> x == o);
      }
      origins.remove(o);
    }

    Manifests build() {
      return new Manifests(this);
    }
  }
}
