package io.basalt.plugins.podaffinity;

import io.basalt.framework.NodeScorer;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.TaskFilter;

/**
 * kube-scheduler's InterPodAffinity, for the plugins that carry it in Volcano: {@code predicates} registers the
 * filter, {@code nodeorder} the score. Each keeps its own count of the session's pods, told of placements and
 * evictions through the registrar.
 */
public final class PodAffinity {
  /** kube-scheduler's default {@code hardPodAffinityWeight}, which Volcano leaves as it is. */
  public static final int HARD_POD_AFFINITY_WEIGHT = 1;

  private PodAffinity() {}

  /** The filter for this session, its pod counts kept current through {@code registrar}. */
  public static TaskFilter filter(SessionView session, Registrar registrar) {
    PodState state = new PodState(session, HARD_POD_AFFINITY_WEIGHT);
    registrar.addAllocationListener(state);
    return new AffinityFilter(state);
  }

  /** The normalising scorer for this session, scores times {@code weight}, its counts kept current likewise. */
  public static NodeScorer scorer(SessionView session, Registrar registrar, int weight) {
    PodState state = new PodState(session, HARD_POD_AFFINITY_WEIGHT);
    registrar.addAllocationListener(state);
    return new AffinityScorer(state, weight);
  }
}
