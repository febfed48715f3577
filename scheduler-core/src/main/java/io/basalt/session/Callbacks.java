package io.basalt.session;

import io.basalt.api.JobInfo;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.DeviceChooser;
import io.basalt.framework.JobValidator;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.TaskFilter;
import io.basalt.framework.VictimSelector;
import io.basalt.framework.Vote;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The registered callbacks of a session, in tier order, and the rules that combine them, exactly as Volcano does:
 * orders take the first non-zero answer; filters, job readiness, job validity and allocatable must all pass; scores
 * are summed; overused is true when any plugin says so; votes are reject-wins, first-permitting-tier-decides,
 * all-abstain-falls-through. Victims are the one deliberate difference (see {@link #victims}).
 */
final class Callbacks {
  /** One registration: which plugin, in which tier. */
  record Entry<F>(String plugin, int tier, F fn) {}

  final List<Entry<Comparator<JobInfo>>> jobOrder = new ArrayList<>();
  final List<Entry<Comparator<TaskInfo>>> taskOrder = new ArrayList<>();
  final List<Entry<Comparator<QueueInfo>>> queueOrder = new ArrayList<>();
  final List<Entry<TaskFilter>> filters = new ArrayList<>();
  final List<Entry<NodeScorer>> scorers = new ArrayList<>();
  final List<Entry<Predicate<JobInfo>>> jobReady = new ArrayList<>();
  final List<Entry<Function<JobInfo, Vote>>> jobPipelined = new ArrayList<>();
  final List<Entry<Function<JobInfo, Vote>>> jobEnqueueable = new ArrayList<>();
  final List<Entry<Consumer<JobInfo>>> jobEnqueued = new ArrayList<>();
  final List<Entry<JobValidator>> jobValid = new ArrayList<>();
  final List<Entry<BiPredicate<QueueInfo, TaskInfo>>> allocatable = new ArrayList<>();
  final List<Entry<Predicate<QueueInfo>>> overused = new ArrayList<>();
  final List<Entry<AllocationListener>> listeners = new ArrayList<>();
  final List<Entry<VictimSelector>> preemptable = new ArrayList<>();
  final List<Entry<VictimSelector>> reclaimable = new ArrayList<>();
  final List<Entry<BiPredicate<QueueInfo, TaskInfo>>> preemptive = new ArrayList<>();
  final List<Entry<DeviceChooser>> deviceChoosers = new ArrayList<>();
  final List<Entry<java.util.Collection<String>>> deviceResources = new ArrayList<>();

  /** Lexicographic over the registered comparators; 0 when all are indifferent. */
  static <T> int compare(List<Entry<Comparator<T>>> entries, T a, T b) {
    for (Entry<Comparator<T>> e : entries) {
      int c = e.fn().compare(a, b);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /**
   * Victims every answering plugin agrees on, across all tiers; null when no plugin answered. Unlike Volcano, where
   * the first answering tier decides, any plugin can veto an eviction: with Volcano's tiers conformance (tier 1)
   * would otherwise hide proportion's and capacity's rule (tier 2) and reclaim could take from a queue below its
   * share. A plugin that should not vote is switched off with enablePreemptable / enableReclaimable: false.
   */
  static List<TaskInfo> victims(List<Entry<VictimSelector>> entries, TaskInfo preemptor, List<TaskInfo> candidates) {
    List<TaskInfo> agreed = null;
    for (Entry<VictimSelector> e : entries) {
      List<TaskInfo> answer = e.fn().victims(preemptor, agreed == null ? candidates : agreed);
      if (answer == null) {
        continue;
      }
      agreed = new ArrayList<>(answer);
      if (agreed.isEmpty()) {
        return agreed;
      }
    }
    return agreed;
  }

  /** Reject wins at once; otherwise the first tier with a permit decides; all abstaining yields ABSTAIN. */
  static Vote vote(List<Entry<Function<JobInfo, Vote>>> entries, JobInfo job) {
    int tier = -1;
    boolean permitted = false;
    for (Entry<Function<JobInfo, Vote>> e : entries) {
      if (e.tier() != tier) {
        if (permitted) {
          return Vote.PERMIT;
        }
        tier = e.tier();
      }
      Vote v = e.fn().apply(job);
      if (v.isReject()) {
        return v;
      }
      if (v.kind() == Vote.Kind.PERMIT) {
        permitted = true;
      }
    }
    return permitted ? Vote.PERMIT : Vote.ABSTAIN;
  }
}
