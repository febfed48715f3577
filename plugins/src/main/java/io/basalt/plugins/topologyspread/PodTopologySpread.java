package io.basalt.plugins.topologyspread;

import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;

/**
 * kube-scheduler's PodTopologySpread, as Volcano's {@code predicates} (filter) and {@code nodeorder} (score) wrap it:
 * the one entry of this package. Each call keeps its own counts for the session, fed by the placements and evictions
 * the session reports.
 */
public final class PodTopologySpread {
  private PodTopologySpread() {}

  /** Registers the DoNotSchedule filter for the session ({@code predicate.PodTopologySpreadEnable}). */
  public static void addFilter(SessionView session, Registrar registrar) {
    PodCounts counts = new PodCounts(session);
    registrar.addAllocationListener(counts);
    registrar.addFilter(new SpreadFilter(counts));
  }

  /**
   * Registers the ScheduleAnyway score for the session, times {@code weight} ({@code podtopologyspread.weight}).
   * With {@code defaultConstraints}, pods without constraints of their own that a ReplicaSet, StatefulSet or
   * ReplicationController controls are spread by kube-scheduler's system defaults (hostname maxSkew 3, zone maxSkew
   * 5) over their controller's pods.
   */
  public static void addScorer(SessionView session, Registrar registrar, int weight, boolean defaultConstraints) {
    if (weight == 0) {
      return;
    }
    PodCounts counts = new PodCounts(session);
    registrar.addAllocationListener(counts);
    registrar.addScorer(new SpreadScorer(counts, weight, defaultConstraints));
  }
}
