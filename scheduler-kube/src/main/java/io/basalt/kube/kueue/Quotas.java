package io.basalt.kube.kueue;

import io.basalt.model.Quantities;
import io.basalt.model.ResourceNames;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue's quota book: what each ClusterQueue uses per flavor and resource, and whether a workload's request fits a
 * flavor, within the queue's nominal quota or by borrowing from its cohort. A ClusterQueue lends the part of its
 * nominal quota above {@code nominal - lendingLimit} (all of it when no lendingLimit is set) while it does not use it;
 * a cohort's members borrow from what its members lend plus the Cohort object's own quota, each at most its
 * {@code borrowingLimit}. Only a queue's own cohort lends to it: quota of parent cohorts is not borrowed.
 */
final class Quotas {
  private final Map<String, KueueRecord.ClusterQueue> queues;
  private final Map<String, KueueRecord.Cohort> cohorts;
  /** Usage by queue, then {@code flavor/resource}. */
  private final Map<String, Map<String, Long>> usage = new HashMap<>();

  Quotas(Map<String, KueueRecord.ClusterQueue> queues, Map<String, KueueRecord.Cohort> cohorts) {
    this.queues = queues;
    this.cohorts = cohorts;
  }

  /** How a request fits one flavor of a queue. */
  enum Fit { NOMINAL, BORROWING, NO }

  /** The verdict and, when it does not fit, why (naming the resource and the numbers). */
  record Verdict(Fit fit, String reason) {}

  long used(String queue, String flavor, String resource) {
    return usage.getOrDefault(queue, Map.of()).getOrDefault(flavor + "/" + resource, 0L);
  }

  void charge(String queue, String flavor, String resource, long amount) {
    usage.computeIfAbsent(queue, q -> new HashMap<>()).merge(flavor + "/" + resource, amount, Long::sum);
  }

  /** Whether {@code request} (resource to amount, those of the group only) fits {@code flavor} of {@code cq}. */
  Verdict fits(KueueRecord.ClusterQueue cq, KueueRecord.FlavorQuotas flavor, Map<String, Long> request) {
    Fit worst = Fit.NOMINAL;
    for (Map.Entry<String, Long> e : request.entrySet()) {
      String r = e.getKey();
      KueueRecord.Quota q = flavor.quota(r);
      if (q == null) {
        return new Verdict(Fit.NO, "no quota for " + r);
      }
      long used = used(cq.name(), flavor.flavor(), r);
      long after = used + e.getValue();
      if (after <= q.nominal()) {
        continue;
      }
      long limit = q.borrowingLimit() != null ? q.nominal() + q.borrowingLimit()
          : cq.cohort() != null ? Long.MAX_VALUE : q.nominal();
      if (after > limit) {
        return new Verdict(Fit.NO, r + " " + fmt(r, after) + " would exceed " + fmt(r, limit) + " (nominal "
            + fmt(r, q.nominal()) + (q.borrowingLimit() == null ? "" : " + borrowing " + fmt(r, q.borrowingLimit()))
            + ", " + fmt(r, used) + " in use)");
      }
      if (cq.cohort() != null) {
        long guaranteed = guaranteed(q);
        long more = Math.max(0, after - guaranteed) - Math.max(0, used - guaranteed);
        long free = cohortFree(cq.cohort(), flavor.flavor(), r);
        if (more > free) {
          return new Verdict(Fit.NO, r + ": needs " + fmt(r, more) + " from cohort " + cq.cohort() + ", which has "
              + fmt(r, Math.max(free, 0)) + " unused");
        }
      }
      worst = Fit.BORROWING;
    }
    return new Verdict(worst, null);
  }

  /** The part of a nominal quota never lent. */
  private static long guaranteed(KueueRecord.Quota q) {
    return q.lendingLimit() == null ? 0 : Math.max(0, q.nominal() - q.lendingLimit());
  }

  /** What a cohort has left to lend of {@code flavor}'s {@code resource}: lendable quota minus what is borrowed. */
  private long cohortFree(String cohort, String flavor, String resource) {
    long capacity = 0;
    long used = 0;
    for (KueueRecord.ClusterQueue member : queues.values()) {
      if (!cohort.equals(member.cohort())) {
        continue;
      }
      KueueRecord.Quota q = quota(member.resourceGroups(), flavor, resource);
      long g = q == null ? 0 : guaranteed(q);
      capacity += q == null ? 0 : q.nominal() - g;
      used += Math.max(0, used(member.name(), flavor, resource) - g);
    }
    KueueRecord.Cohort c = cohorts.get(cohort);
    if (c != null) {
      KueueRecord.Quota own = quota(c.resourceGroups(), flavor, resource);
      capacity += own == null ? 0 : own.nominal();
    }
    return capacity - used;
  }

  static KueueRecord.Quota quota(List<KueueRecord.ResourceGroup> groups, String flavor, String resource) {
    for (KueueRecord.ResourceGroup g : groups) {
      for (KueueRecord.FlavorQuotas f : g.flavors()) {
        if (f.flavor().equals(flavor) && f.quota(resource) != null) {
          return f.quota(resource);
        }
      }
    }
    return null;
  }

  static String fmt(String resource, long amount) {
    int i = ResourceNames.indexIfKnown(resource);
    return i < 0 ? Long.toString(amount) : Quantities.format(i, amount);
  }
}
