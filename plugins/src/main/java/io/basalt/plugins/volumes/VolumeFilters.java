package io.basalt.plugins.volumes;

import io.basalt.config.Arguments;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import java.util.List;

/**
 * kube-scheduler's volume filters, as Volcano's {@code predicates} runs them: VolumeRestrictions (a
 * {@code ReadWriteOncePod} claim used by one pod at most), NodeVolumeLimits (CSINode attach limits), VolumeBinding
 * (bound claims' PV node affinity; unbound {@code WaitForFirstConsumer} claims need an available PV or provisioning on
 * the node; unbound Immediate claims make the pod wait) and VolumeZone (a bound PV's zone and region labels), in that
 * order. The {@code predicates} plugin adds them; each is on unless its argument says false.
 *
 * <p>Pods without claims are never asked: the filter returns no per-node function for them and signs them with a
 * constant, so every shortcut of the node search holds for them. A pod with claims reads other pods (their claims,
 * the PVs placements chose this cycle), so it signs nothing.
 */
public final class VolumeFilters {
  public static final String VOLUME_BINDING_ENABLE = "predicate.VolumeBindingEnable";
  public static final String VOLUME_ZONE_ENABLE = "predicate.VolumeZoneEnable";
  public static final String NODE_VOLUME_LIMITS_ENABLE = "predicate.NodeVolumeLimitsEnable";
  public static final String VOLUME_RESTRICTIONS_ENABLE = "predicate.VolumeRestrictionsEnable";
  /** VolumeBinding's score (kube-scheduler's StorageCapacityScoring gate): off by default, as there. */
  public static final String VOLUME_CAPACITY_SCORING_ENABLE = "predicate.VolumeCapacityScoringEnable";
  /** Its shape, {@code utilization:score} pairs (utilization 0..100, score 0..10), kube-scheduler's default. */
  public static final String VOLUME_CAPACITY_SCORING_SHAPE = "predicate.VolumeCapacityScoringShape";
  static final String DEFAULT_SHAPE = "0:0,100:10";

  private VolumeFilters() {}

  /** Which volume filters are on, read once per config. */
  public record Settings(boolean binding, boolean zone, boolean limits, boolean restrictions,
      List<VolumeCapacityScore.Point> scoringShape) {
    /** The filters as switched, without scoring. */
    public Settings(boolean binding, boolean zone, boolean limits, boolean restrictions) {
      this(binding, zone, limits, restrictions, null);
    }

    public static Settings read(Arguments args) {
      boolean binding = args.getBoolean(VOLUME_BINDING_ENABLE, true);
      List<VolumeCapacityScore.Point> shape = null;
      if (args.getBoolean(VOLUME_CAPACITY_SCORING_ENABLE, false)) {
        String text = args.getString(VOLUME_CAPACITY_SCORING_SHAPE, DEFAULT_SHAPE);
        try {
          shape = VolumeCapacityScore.parseShape(text);
        } catch (IllegalArgumentException e) { // NumberFormatException too
          args.problem(VOLUME_CAPACITY_SCORING_SHAPE, e.getMessage());
        }
      }
      return new Settings(binding, args.getBoolean(VOLUME_ZONE_ENABLE, true),
          args.getBoolean(NODE_VOLUME_LIMITS_ENABLE, true), args.getBoolean(VOLUME_RESTRICTIONS_ENABLE, true),
          shape);
    }

    boolean any() {
      return binding || zone || limits || restrictions;
    }
  }

  /** Registers the filter for one session (it keeps what this session's placements chose). */
  public static void add(SessionView session, Registrar registrar, Settings settings) {
    if (!settings.any()) {
      return;
    }
    VolumeFilter filter = new VolumeFilter(session, settings);
    registrar.addFilter(filter);
    registrar.addAllocationListener(filter);
    if (settings.binding() && settings.scoringShape() != null) {
      registrar.addScorer(new VolumeCapacityScore(filter, settings.scoringShape()));
    }
  }
}
