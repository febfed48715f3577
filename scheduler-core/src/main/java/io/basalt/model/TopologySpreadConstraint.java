package io.basalt.model;

import java.util.List;

/**
 * One entry of {@code spec.topologySpreadConstraints}.
 *
 * @param whenUnsatisfiable DoNotSchedule (a filter) or ScheduleAnyway (a score)
 * @param labelSelector null when absent: then no pod matches
 * @param minDomains null when unset
 * @param nodeAffinityPolicy Honor (the default) or Ignore
 * @param nodeTaintsPolicy Ignore (the default) or Honor
 */
public record TopologySpreadConstraint(
    int maxSkew,
    String topologyKey,
    String whenUnsatisfiable,
    LabelSelector labelSelector,
    Integer minDomains,
    String nodeAffinityPolicy,
    String nodeTaintsPolicy,
    List<String> matchLabelKeys) {
  public static final String DO_NOT_SCHEDULE = "DoNotSchedule";
  public static final String SCHEDULE_ANYWAY = "ScheduleAnyway";

  public TopologySpreadConstraint {
    nodeAffinityPolicy = nodeAffinityPolicy == null || nodeAffinityPolicy.isEmpty() ? "Honor" : nodeAffinityPolicy;
    nodeTaintsPolicy = nodeTaintsPolicy == null || nodeTaintsPolicy.isEmpty() ? "Ignore" : nodeTaintsPolicy;
    matchLabelKeys = matchLabelKeys == null ? List.of() : List.copyOf(matchLabelKeys);
  }

  public boolean isHard() {
    return DO_NOT_SCHEDULE.equals(whenUnsatisfiable);
  }
}
