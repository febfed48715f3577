package io.basalt.plugins.topologyspread;

import io.basalt.model.LabelSelector;
import io.basalt.model.OwnerReference;
import io.basalt.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Which existing pods a constraint counts (kube-scheduler's selector of a spread constraint), by value. */
sealed interface PodMatcher {
  /** Whether {@code pod} counts: kube-scheduler counts no pod for an empty selector, nor for an absent one. */
  boolean counts(Pod pod);

  /** Whether the incoming pod matches itself (its own placement adds one to the domain). */
  boolean matchesSelf(Pod pod);

  /** A constraint's label selector; null when the constraint had none (then nothing matches). */
  record Selector(LabelSelector selector) implements PodMatcher {
    @Override
    public boolean counts(Pod pod) {
      return selector != null && !selector.isEmpty() && selector.matches(pod.labels());
    }

    @Override
    public boolean matchesSelf(Pod pod) {
      return selector != null && selector.matches(pod.labels());
    }

    /**
     * {@code selector} with the incoming pod's values of {@code keys} ANDed in ({@code matchLabelKeys}); keys the pod
     * lacks are left out, and an absent selector stays absent.
     */
    static Selector merged(LabelSelector selector, List<String> keys, Map<String, String> labels) {
      if (selector == null || keys.isEmpty()) {
        return new Selector(selector);
      }
      Map<String, String> match = new HashMap<>(selector.matchLabels());
      boolean added = false;
      for (String k : keys) {
        String v = labels.get(k);
        if (v != null) {
          // A real API server may have merged it already: ANDing the same pair again changes nothing.
          match.put(k, v);
          added = true;
        }
      }
      if (!added) {
        return new Selector(selector);
      }
      List<LabelSelector.Requirement> expressions = new ArrayList<>(selector.matchExpressions());
      for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
        String mine = match.get(e.getKey());
        if (!mine.equals(e.getValue())) {
          // The selector asks another value of the same key: both must hold, so nothing matches.
          expressions.add(new LabelSelector.Requirement(e.getKey(), "In", List.of(e.getValue())));
        }
      }
      return new Selector(new LabelSelector(match, expressions));
    }
  }

  /**
   * The pods of the incoming pod's controller: stands for the selector kube-scheduler derives for its default
   * constraints from the pod's ReplicaSet, StatefulSet or ReplicationController (which Basalt does not read).
   */
  record SameController(String kind, String name) implements PodMatcher {
    @Override
    public boolean counts(Pod pod) {
      OwnerReference c = pod.controller();
      return c != null && kind.equals(c.kind()) && name.equals(c.name());
    }

    @Override
    public boolean matchesSelf(Pod pod) {
      return true;
    }
  }
}
