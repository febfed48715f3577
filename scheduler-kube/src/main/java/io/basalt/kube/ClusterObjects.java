package io.basalt.kube;

import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import io.basalt.kube.fabric.HyperNodeReader;
import io.basalt.kube.gang.CoschedulingGroup;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A cluster in the engine's model, converted from {@link Manifests}: document order is kept. {@code errors} holds the
 * manifest's own errors followed by one line per object that failed conversion (that object is left out), e.g.
 * {@code pods.yaml doc 2: Pod team-a/p1: spec.containers[0].resources.requests.cpu: negative quantity '-1'}, then the
 * problems of the network fabric its HyperNodes make ({@link Fabric#EMPTY} when there are none).
 */
public record ClusterObjects(
    List<Node> nodes,
    List<Pod> pods,
    List<PodGroup> podGroups,
    List<Queue> queues,
    List<PriorityClass> priorityClasses,
    List<CoschedulingGroup> coschedulingGroups,
    List<OwnerObject> owners,
    List<String> errors,
    Fabric fabric) {

  public ClusterObjects {
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
    podGroups = List.copyOf(podGroups);
    queues = List.copyOf(queues);
    priorityClasses = List.copyOf(priorityClasses);
    coschedulingGroups = List.copyOf(coschedulingGroups);
    owners = List.copyOf(owners);
    errors = List.copyOf(errors);
    fabric = fabric == null ? Fabric.EMPTY : fabric;
  }

  /** Converts every object of {@code m}, the fabric from its HyperNodes; never throws for a bad object. */
  public static ClusterObjects from(Manifests m) {
    return from(m, null);
  }

  /**
   * As {@link #from(Manifests)}, but the fabric built by {@code topology} over the converted nodes (its problems
   * appended to the errors), and the HyperNodes of {@code m} not read; null reads the HyperNodes.
   */
  public static ClusterObjects from(Manifests m, Function<List<Node>, FabricBuilder.Result> topology) {
    List<String> errors = new ArrayList<>(m.errors());
    List<Node> nodes = convert(m, m.nodes(), KubeConverter::toNode, errors);
    List<Pod> pods = convert(m, m.pods(), KubeConverter::toPod, errors);
    List<PodGroup> groups = convert(m, m.podGroups(), KubeConverter::toPodGroup, errors);
    List<Queue> queues = convert(m, m.queues(), KubeConverter::toQueue, errors);
    List<PriorityClass> classes = convert(m, m.priorityClasses(), KubeConverter::toPriorityClass, errors);
    List<CoschedulingGroup> cosched = convert(m, m.coschedulingGroups(), KubeConverter::toCoschedulingGroup, errors);
    Fabric fabric = Fabric.EMPTY;
    if (topology != null || !m.hyperNodes().isEmpty()) {
      FabricBuilder.Result r = topology != null ? topology.apply(nodes) : HyperNodeReader.read(m.hyperNodes(), nodes);
      errors.addAll(r.problems());
      fabric = r.fabric();
    }
    return new ClusterObjects(nodes, pods, groups, queues, classes, cosched, m.owners(), errors, fabric);
  }

  private static <K extends KubernetesObject, T> List<T> convert(Manifests m, List<K> in, Function<K, T> f,
      List<String> errors) {
    List<T> out = new ArrayList<>(in.size());
    for (K k : in) {
      try {
        out.add(f.apply(k));
      } catch (KubeConversionException e) {
        String origin = m.origin(k);
        errors.add((origin == null ? "" : origin + ": ") + e.getMessage());
      }
    }
    return out;
  }
}
