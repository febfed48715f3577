package io.basalt.plugins.podaffinity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The terms of the pods a session placed or removed, each filed under the label value it requires of the pods it
 * matches (or apart, when it requires none): a {@link PodState.View} of one kind of incoming pod reads only the terms
 * that may match it, not every term of every placement. Each term is filed once, and an incoming pod carries one
 * value per key, so a view reads each term at most once.
 */
final class TermLog {
  /**
   * One term of a pod placed ({@code delta} 1) or removed (-1) on a node labelled {@code nodeLabels}, as a view counts
   * it: into its required anti-affinity counts, or into its score by {@code weight}.
   */
  record Entry(Term term, Map<String, String> nodeLabels, boolean anti, long weight, int delta) {}

  private final List<Entry> unindexed = new ArrayList<>();
  private final Map<String, Map<String, List<Entry>>> byLabel = new HashMap<>();

  /** Files {@code terms} of a pod placed or removed; required affinity is scored by {@code hardWeight} when above 0. */
  void add(PodState.Terms terms, Map<String, String> nodeLabels, int delta, long hardWeight) {
    for (Term t : terms.requiredAnti()) {
      file(new Entry(t, nodeLabels, true, 1, delta));
    }
    if (hardWeight > 0) {
      for (Term t : terms.requiredAffinity()) {
        file(new Entry(t, nodeLabels, false, hardWeight, delta));
      }
    }
    int[] w = terms.preferredAffinityWeights();
    for (int i = 0; i < w.length; i++) {
      file(new Entry(terms.preferredAffinity().get(i), nodeLabels, false, w[i], delta));
    }
    w = terms.preferredAntiWeights();
    for (int i = 0; i < w.length; i++) {
      file(new Entry(terms.preferredAnti().get(i), nodeLabels, false, -w[i], delta));
    }
  }

  private void file(Entry e) {
    Map.Entry<String, String> label = e.term().selector() == null ? null : e.term().selector().requiredLabel();
    if (label == null) {
      unindexed.add(e);
    } else {
      filed(label.getKey(), label.getValue()).add(e);
    }
  }

  private List<Entry> filed(String key, String value) {
    return byLabel.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(value, v -> new ArrayList<>());
  }

  /**
   * What a view of pods labelled {@code labels} reads, now and as the log grows: the terms requiring no label, and
   * those requiring each of its labels.
   */
  List<List<Entry>> sources(Map<String, String> labels) {
    List<List<Entry>> out = new ArrayList<>(1 + labels.size());
    out.add(unindexed);
    for (Map.Entry<String, String> label : labels.entrySet()) {
      out.add(filed(label.getKey(), label.getValue()));
    }
    return out;
  }
}
