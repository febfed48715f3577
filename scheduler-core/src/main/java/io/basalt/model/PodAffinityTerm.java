package io.basalt.model;

import java.util.List;

/**
 * One term of {@code podAffinity} or {@code podAntiAffinity}: pods matching {@code labelSelector} in the namespaces
 * the term names, counted per value of {@code topologyKey} on the nodes.
 *
 * @param labelSelector null when absent: the term then matches no pod
 * @param namespaces the namespaces listed; with both this and {@code namespaceSelector} absent, the pod's own
 * @param namespaceSelector null when absent; an empty selector means every namespace
 * @param matchLabelKeys label keys whose values on the incoming pod are added to the selector as {@code In}
 * @param mismatchLabelKeys label keys whose values on the incoming pod are added to the selector as {@code NotIn}
 */
public record PodAffinityTerm(
    LabelSelector labelSelector,
    List<String> namespaces,
    LabelSelector namespaceSelector,
    String topologyKey,
    List<String> matchLabelKeys,
    List<String> mismatchLabelKeys) {
  public PodAffinityTerm {
    namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    matchLabelKeys = matchLabelKeys == null ? List.of() : List.copyOf(matchLabelKeys);
    mismatchLabelKeys = mismatchLabelKeys == null ? List.of() : List.copyOf(mismatchLabelKeys);
  }
}
