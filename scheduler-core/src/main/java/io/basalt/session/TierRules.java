package io.basalt.session;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.VictimSelector;
import io.basalt.framework.Vote;
import io.basalt.session.Callbacks.Entry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How {@link Callbacks} combines the answers of the plugins registered for one hook, tier by tier, as Volcano does:
 * orders take the first non-zero answer, predicates must all pass, victims are intersected within a tier, votes are
 * reject-wins and first-permitting-tier-decides.
 */
final class TierRules {
  private TierRules() {}

  static int compareTimes(Instant a, Instant b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : 1) : -1;
    }
    return a.compareTo(b);
  }

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

  static <T> boolean all(List<Entry<Predicate<T>>> entries, T t) {
    for (Entry<Predicate<T>> e : entries) {
      if (!e.fn().test(t)) {
        return false;
      }
    }
    return true;
  }

  static <T, U> boolean all(List<Entry<BiPredicate<T, U>>> entries, T t, U u) {
    for (Entry<BiPredicate<T, U>> e : entries) {
      if (!e.fn().test(t, u)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Volcano's rule: within a tier the answering plugins' victims are intersected (an empty answer ends the tier with
   * none); the first tier left with victims decides; a tier with none, or where every plugin abstained, falls through
   * to the next.
   */
  static List<TaskInfo> victims(List<Entry<VictimSelector>> entries, TaskInfo preemptor,
      List<TaskInfo> candidates) {
    int i = 0;
    while (i < entries.size()) {
      int tier = entries.get(i).tier();
      List<TaskInfo> agreed = null;
      boolean none = false;
      for (; i < entries.size() && entries.get(i).tier() == tier; i++) {
        if (none) {
          continue;
        }
        List<TaskInfo> answer = entries.get(i).fn().victims(preemptor, agreed == null ? candidates : agreed);
        if (answer == null) {
          continue;
        }
        agreed = new ArrayList<>(answer);
        none = agreed.isEmpty();
      }
      if (agreed != null && !agreed.isEmpty()) {
        return agreed;
      }
    }
    return List.of();
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
