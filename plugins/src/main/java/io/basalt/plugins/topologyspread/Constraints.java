package io.basalt.plugins.topologyspread;

import io.basalt.model.OwnerReference;
import io.basalt.model.Pod;
import io.basalt.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's spread constraints of one kind (DoNotSchedule for the filter, ScheduleAnyway for the score), each joined to
 * the counts it reads: worked out once per pod and session.
 *
 * @param defaulted whether these are the cluster's default constraints (then nodes lacking a key are not ignored)
 */
record Constraints(List<One> list, boolean defaulted) {
  static final Constraints NONE = new Constraints(List.of(), false);

  /** kube-scheduler's well-known keys. */
  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";

  /**
   * kube-scheduler's system default constraints, for pods without their own: hostname maxSkew 3 and zone maxSkew 5,
   * both ScheduleAnyway.
   */
  static final List<TopologySpreadConstraint> SYSTEM_DEFAULTS = List.of(
      new TopologySpreadConstraint(3, HOSTNAME, TopologySpreadConstraint.SCHEDULE_ANYWAY, null, null, null, null,
          null),
      new TopologySpreadConstraint(5, ZONE, TopologySpreadConstraint.SCHEDULE_ANYWAY, null, null, null, null, null));

  /** Owner kinds whose selector kube-scheduler's default constraints spread by. */
  private static final List<String> DEFAULTED_OWNERS = List.of("ReplicaSet", "StatefulSet", "ReplicationController");

  /**
   * One constraint: its counts, and what a node's answer reads besides them.
   *
   * @param self 1 when the incoming pod matches the selector itself, else 0
   */
  record One(TopologySpreadConstraint spec, Counts counts, int self, int minDomains) {
    int maxSkew() {
      return spec.maxSkew();
    }

    String key() {
      return spec.topologyKey();
    }
  }

  boolean isEmpty() {
    return list.isEmpty();
  }

  /** Whether {@code pod} has constraints of this kind (hard or soft) at all; defaults counted when asked for. */
  static boolean any(Pod pod, boolean hard, boolean defaults) {
    List<TopologySpreadConstraint> own = pod.constraints().topologySpread();
    if (own.isEmpty()) {
      return !hard && defaults && defaultOwner(pod) != null;
    }
    for (TopologySpreadConstraint c : own) {
      if (c.isHard() == hard) {
        return true;
      }
    }
    return false;
  }

  /** {@code pod}'s constraints of one kind, joined to {@code counts}. */
  static Constraints of(Pod pod, boolean hard, boolean defaults, PodCounts counts) {
    List<TopologySpreadConstraint> own = pod.constraints().topologySpread();
    List<TopologySpreadConstraint> chosen = new ArrayList<>();
    PodMatcher defaultMatcher = null;
    boolean defaulted = false;
    if (own.isEmpty()) {
      OwnerReference owner = hard || !defaults ? null : defaultOwner(pod);
      if (owner == null) {
        return NONE;
      }
      chosen.addAll(SYSTEM_DEFAULTS);
      defaultMatcher = new PodMatcher.SameController(owner.kind(), owner.name());
      defaulted = true;
    } else {
      for (TopologySpreadConstraint c : own) {
        if (c.isHard() == hard) {
          chosen.add(c);
        }
      }
      if (chosen.isEmpty()) {
        return NONE;
      }
    }
    // kube-scheduler counts only nodes that carry every key of the pod's constraints; default ones excepted.
    List<String> keys = new ArrayList<>();
    if (!defaulted) {
      for (TopologySpreadConstraint c : chosen) {
        if (!keys.contains(c.topologyKey())) {
          keys.add(c.topologyKey());
        }
      }
    }
    List<One> list = new ArrayList<>(chosen.size());
    for (TopologySpreadConstraint c : chosen) {
      PodMatcher matcher = defaultMatcher != null ? defaultMatcher
          : PodMatcher.Selector.merged(c.labelSelector(), c.matchLabelKeys(), pod.labels());
      boolean honorAffinity = !"Ignore".equals(c.nodeAffinityPolicy())
          && (!pod.nodeSelector().isEmpty() || !pod.requiredNodeAffinity().isEmpty());
      Eligibility eligibility = new Eligibility(List.copyOf(keys), honorAffinity ? pod.nodeSelector() : null,
          honorAffinity ? pod.requiredNodeAffinity() : List.of(),
          "Honor".equals(c.nodeTaintsPolicy()) ? pod.tolerations() : null);
      Counts n = counts.counts(new PodCounts.CountKey(pod.namespace(), matcher, c.topologyKey(), eligibility));
      int minDomains = c.minDomains() == null ? 1 : c.minDomains();
      list.add(new One(c, n, matcher.matchesSelf(pod) ? 1 : 0, minDomains));
    }
    return new Constraints(List.copyOf(list), defaulted);
  }

  /** The controller whose pods a pod's default constraints spread, or null when it has none of those kinds. */
  private static OwnerReference defaultOwner(Pod pod) {
    OwnerReference c = pod.controller();
    return c != null && DEFAULTED_OWNERS.contains(c.kind()) ? c : null;
  }
}
