package io.basalt.plugins.topologyspread;

import java.util.Arrays;

/**
 * Matching pods per topology value for one {@link CountKey}, over the eligible domains only (a value is a domain when
 * an eligible node carries it), with the smallest count of any domain kept as counts move by one: kube-scheduler's
 * PreFilter counts and critical path, worked out once and then kept current from placements and evictions.
 */
final class Counts {
  final Domains domains;
  /** Per node position: whether its pods count (it carries every key asked for and passes the inclusion policies). */
  private final boolean[] eligible;
  private final int[] count;
  private final boolean[] isDomain;
  private int domainCount;
  /** How many domains hold each count; {@link #min} is the lowest count with domains. */
  private int[] histogram = new int[8];
  private int min;

  Counts(Domains domains, boolean[] eligible, int[] initial) {
    this.domains = domains;
    this.eligible = eligible;
    this.count = new int[domains.values()];
    this.isDomain = new boolean[domains.values()];
    for (int p = 0; p < eligible.length; p++) {
      int v = domains.valueOf(p);
      if (eligible[p] && v >= 0) {
        isDomain[v] = true;
        count[v] += initial[p];
      }
    }
    min = Integer.MAX_VALUE;
    for (int v = 0; v < count.length; v++) {
      if (isDomain[v]) {
        domainCount++;
        bump(count[v], 1);
        min = Math.min(min, count[v]);
      }
    }
  }

  boolean eligible(int position) {
    return eligible[position];
  }

  /** Matching pods in the domain of value {@code v} (0 for a value no eligible node carries). */
  int count(int v) {
    return count[v];
  }

  int domainCount() {
    return domainCount;
  }

  /**
   * The global minimum a skew is measured from: the smallest count of any domain, or 0 while there are fewer domains
   * than {@code minDomains}; {@link Integer#MAX_VALUE} when there is no domain at all (then nothing is skewed).
   */
  int minMatch(int minDomains) {
    return domainCount < minDomains ? 0 : min;
  }

  /** A matching pod came to ({@code delta} 1) or left (-1) the eligible node at {@code position}. */
  void move(int position, int delta) {
    int v = domains.valueOf(position);
    if (v < 0 || !eligible[position]) {
      return;
    }
    int old = count[v];
    int now = Math.max(0, old + delta);
    count[v] = now;
    bump(old, -1);
    bump(now, 1);
    if (now < min) {
      min = now;
    } else if (old == min && histogram[old] == 0) {
      min = now;
    }
  }

  private void bump(int c, int delta) {
    if (c >= histogram.length) {
      histogram = Arrays.copyOf(histogram, Math.max(c + 1, 2 * histogram.length));
    }
    histogram[c] += delta;
  }
}
