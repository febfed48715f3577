package io.basalt.plugins.podaffinity;

import java.util.HashMap;
import java.util.Map;

/**
 * A number per topology pair (a node label key and one of its values), as kube-scheduler's PreFilter and PreScore
 * keep them: matching pods counted, or weights summed, per domain. A node reads the pair of its own label, so asking
 * costs a map lookup per key, never a walk over pods. Pairs back at zero are dropped, so {@link #isEmpty} means "no
 * pair counts anything".
 */
final class TopologyCounts {
  private final Map<String, Map<String, long[]>> byKey = new HashMap<>();
  private int pairs;

  void add(String key, String value, long delta) {
    if (delta == 0 || value == null) {
      return;
    }
    Map<String, long[]> values = byKey.computeIfAbsent(key, k -> new HashMap<>());
    long[] count = values.get(value);
    if (count == null) {
      values.put(value, new long[] {delta});
      pairs++;
    } else if ((count[0] += delta) == 0) {
      values.remove(value);
      pairs--;
      if (values.isEmpty()) {
        byKey.remove(key);
      }
    }
  }

  /** The pair counted for each value of {@code key}; null when no value of it counts anything. */
  Map<String, long[]> values(String key) {
    return byKey.get(key);
  }

  /** The keys with some value counted, and their values. */
  Map<String, Map<String, long[]>> byKey() {
    return byKey;
  }

  boolean isEmpty() {
    return pairs == 0;
  }

  /** What {@code values} holds for {@code value}; 0 when nothing. */
  static long get(Map<String, long[]> values, String value) {
    if (values == null || value == null) {
      return 0;
    }
    long[] c = values.get(value);
    return c == null ? 0 : c[0];
  }

  /** The sum over this map's keys of the pair {@code labels} names: a node's score or count. */
  long sumFor(Map<String, String> labels) {
    long sum = 0;
    for (Map.Entry<String, Map<String, long[]>> e : byKey.entrySet()) {
      sum += get(e.getValue(), labels.get(e.getKey()));
    }
    return sum;
  }
}
