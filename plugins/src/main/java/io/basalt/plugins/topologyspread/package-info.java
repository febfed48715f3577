/**
 * kube-scheduler's PodTopologySpread for Volcano's {@code predicates} (DoNotSchedule, a filter) and {@code nodeorder}
 * (ScheduleAnyway, a normalised score), entered through {@link io.basalt.plugins.topologyspread.PodTopologySpread}.
 *
 * <p>As kube-scheduler's PreFilter, the matching pods per topology value of a constraint ({@code Counts}) are counted
 * once per session, the first time a pod with that constraint is searched for, over the session's pods at open
 * ({@code SessionView.podsOn}) and what the session has placed and evicted since; then each placement, eviction and
 * undo moves a count by one ({@code PodCounts}, an {@code AllocationListener}), keeping the smallest domain's count
 * as it goes. A node visit reads its value's count and that minimum: O(constraints), no pod is scanned. Counts are
 * shared by the pods whose constraints count alike: same namespace, selector (after {@code matchLabelKeys}), key and
 * eligible nodes ({@code Eligibility}: the inclusion policies).
 *
 * <p>Answers read other pods, so a pod with constraints signs nothing (the node search neither keeps its verdicts nor
 * remembers its "no node fits" past the next change of any node); a pod without any gets a constant answer, signed.
 */
package io.basalt.plugins.topologyspread;
