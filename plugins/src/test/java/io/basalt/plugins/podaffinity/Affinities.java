package io.basalt.plugins.podaffinity;

import io.basalt.framework.PluginRegistry;
import io.basalt.model.LabelSelector;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodAffinityTerm;
import io.basalt.model.PodConstraints;
import io.basalt.model.WeightedPodAffinityTerm;
import io.basalt.plugins.nodeorder.NodeOrderPlugin;
import io.basalt.plugins.predicates.PredicatesPlugin;
import io.basalt.session.Session;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds pods with inter-pod (anti-)affinity and sessions with predicates and nodeorder, for this package's tests. */
final class Affinities {
  static final PluginRegistry REGISTRY =
      PluginRegistry.of(PredicatesPlugin.descriptor(), NodeOrderPlugin.descriptor());
  static final String CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins:
        - name: predicates
        - name: nodeorder
      """;

  private final List<PodAffinityTerm> requiredAffinity = new ArrayList<>();
  private final List<WeightedPodAffinityTerm> preferredAffinity = new ArrayList<>();
  private final List<PodAffinityTerm> requiredAnti = new ArrayList<>();
  private final List<WeightedPodAffinityTerm> preferredAnti = new ArrayList<>();

  static Affinities terms() {
    return new Affinities();
  }

  Affinities affinity(PodAffinityTerm t) {
    requiredAffinity.add(t);
    return this;
  }

  Affinities anti(PodAffinityTerm t) {
    requiredAnti.add(t);
    return this;
  }

  Affinities preferAffinity(int weight, PodAffinityTerm t) {
    preferredAffinity.add(new WeightedPodAffinityTerm(weight, t));
    return this;
  }

  Affinities preferAnti(int weight, PodAffinityTerm t) {
    preferredAnti.add(new WeightedPodAffinityTerm(weight, t));
    return this;
  }

  Pod on(Pod pod) {
    return pod.withConstraints(new PodConstraints(List.of(), List.of(), List.of(), requiredAffinity,
        preferredAffinity, requiredAnti, preferredAnti, List.of(), List.of()));
  }

  /** A term over {@code topologyKey} with {@code selector}, in the owner's namespace. */
  static PodAffinityTerm term(String topologyKey, LabelSelector selector) {
    return new PodAffinityTerm(selector, List.of(), null, topologyKey, List.of(), List.of());
  }

  static PodAffinityTerm inNamespaces(String topologyKey, LabelSelector selector, List<String> namespaces,
      LabelSelector namespaceSelector) {
    return new PodAffinityTerm(selector, namespaces, namespaceSelector, topologyKey, List.of(), List.of());
  }

  static PodAffinityTerm withKeys(String topologyKey, LabelSelector selector, List<String> matchLabelKeys,
      List<String> mismatchLabelKeys) {
    return new PodAffinityTerm(selector, List.of(), null, topologyKey, matchLabelKeys, mismatchLabelKeys);
  }

  static LabelSelector labels(String key, String value) {
    return new LabelSelector(Map.of(key, value), List.of());
  }

  static LabelSelector expr(String key, String operator, String... values) {
    return new LabelSelector(Map.of(),
        List.of(new LabelSelector.Requirement(key, operator, List.of(values))));
  }

  static LabelSelector exprs(LabelSelector.Requirement... requirements) {
    return new LabelSelector(Map.of(), List.of(requirements));
  }

  static LabelSelector.Requirement req(String key, String operator, String... values) {
    return new LabelSelector.Requirement(key, operator, List.of(values));
  }

  /** A session over {@code nodes} and {@code pods} with predicates and nodeorder at their defaults. */
  static Session open(List<Node> nodes, List<Pod> pods) {
    return open(nodes, pods, CONF);
  }

  static Session open(List<Node> nodes, List<Pod> pods, String conf) {
    TestSessions cluster = TestSessions.cluster();
    nodes.forEach(cluster::node);
    pods.forEach(cluster::pod);
    return cluster.open(REGISTRY, conf);
  }
}
