package io.basalt.plugins.podaffinity;

import io.basalt.model.LabelSelector;
import io.basalt.model.Pod;
import io.basalt.model.PodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod (anti-)affinity term read for the pod that carries it: which pods it matches (selector, namespaces) and the
 * node label it counts them by. Equal terms count the same pods, so a term is a key of the counts kept for it.
 *
 * <p>{@code matchLabelKeys} and {@code mismatchLabelKeys} become {@code In} and {@code NotIn} requirements on the
 * owner's values of those labels (keys the owner lacks are ignored). Since Kubernetes 1.31 the API server does this
 * at pod creation; doing it again adds requirements already there, which changes nothing, and manifests read by the
 * simulator get what the API server would have made of them.
 *
 * @param selector null when the term has none: it then matches no pod
 * @param namespaces the namespaces listed, or the owner's own when neither they nor a namespace selector are given
 * @param namespaceSelector null when absent; an empty one matches every namespace
 */
record Term(LabelSelector selector, Set<String> namespaces, LabelSelector namespaceSelector, String topologyKey) {
  static Term of(PodAffinityTerm t, Pod owner) {
    Set<String> namespaces = t.namespaces().isEmpty() && t.namespaceSelector() == null
        ? Set.of(owner.namespace()) : Set.copyOf(t.namespaces());
    return new Term(merged(t, owner.labels()), namespaces, t.namespaceSelector(), t.topologyKey());
  }

  static List<Term> of(List<PodAffinityTerm> terms, Pod owner) {
    List<Term> out = new ArrayList<>(terms.size());
    for (PodAffinityTerm t : terms) {
      out.add(of(t, owner));
    }
    return List.copyOf(out);
  }

  private static LabelSelector merged(PodAffinityTerm t, Map<String, String> ownerLabels) {
    LabelSelector s = t.labelSelector();
    if (s == null || (t.matchLabelKeys().isEmpty() && t.mismatchLabelKeys().isEmpty())) {
      return s;
    }
    List<LabelSelector.Requirement> expressions = new ArrayList<>(s.matchExpressions());
    add(expressions, t.matchLabelKeys(), "In", ownerLabels);
    add(expressions, t.mismatchLabelKeys(), "NotIn", ownerLabels);
    return new LabelSelector(s.matchLabels(), expressions);
  }

  private static void add(List<LabelSelector.Requirement> out, List<String> keys, String operator,
      Map<String, String> ownerLabels) {
    for (String key : keys) {
      String value = ownerLabels.get(key);
      if (value != null) {
        out.add(new LabelSelector.Requirement(key, operator, List.of(value)));
      }
    }
  }

  /** Whether {@code pod}, in a namespace labelled {@code namespaceLabels}, is one this term counts. */
  boolean matches(Pod pod, Map<String, String> namespaceLabels) {
    if (selector == null) {
      return false;
    }
    if (!namespaces.contains(pod.namespace())
        && (namespaceSelector == null || !namespaceSelector.matches(namespaceLabels))) {
      return false;
    }
    return selector.matches(pod.labels());
  }
}
