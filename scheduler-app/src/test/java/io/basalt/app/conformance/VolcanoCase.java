package io.basalt.app.conformance;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One case of Volcano's own unit-test tables, as a cluster the simulator runs and the outcome Volcano's test expects.
 *
 * @param table the table file ({@code preempt}), which names the action or plugin
 * @param source Volcano's test file and function ({@code actions/preempt/preempt_test.go TestPreempt})
 * @param name Volcano's case name, unchanged, so the row can be found in their source
 * @param conf the scheduler config text the case runs under
 * @param cluster Kubernetes YAML of the cluster
 * @param volcano Volcano's expected result, carried to the simulator's end state
 * @param basalt Basalt's result where it differs on purpose, else null
 * @param deliberate why Basalt differs on purpose (with {@code basalt}), else null
 * @param open why this is a gap Basalt still has to close, else null; the case then must fail Volcano's result
 * @param note how the case was carried over, where that is not obvious
 */
record VolcanoCase(String table, String source, String name, String conf, String cluster, Outcome volcano,
    Outcome basalt, String deliberate, String open, String note) {

  /**
   * What the whole simulation did: every pod it bound (to a node, or {@code any}) and every pod it evicted; and, where
   * Volcano's table asserts them, each listed pod's score on each node its search found feasible (the sum over the
   * tiers' scorers, as Volcano's node order sums them).
   */
  record Outcome(Map<String, String> binds, List<String> evicted, Map<String, Map<String, Double>> scores) {
    static final String ANY = "any";
    /** Scores are compared to this: Volcano's tables hold them to 1e-8, Basalt's arithmetic may differ in the order. */
    static final double SCORE_TOLERANCE = 1e-6;

    Outcome {
      binds = new TreeMap<>(binds);
      evicted = List.copyOf(new TreeSet<>(evicted));
      Map<String, Map<String, Double>> sorted = new TreeMap<>();
      scores.forEach((pod, byNode) -> sorted.put(pod, new TreeMap<>(byNode)));
      scores = sorted;
    }

    Outcome(Map<String, String> binds, List<String> evicted) {
      this(binds, evicted, Map.of());
    }

    /**
     * Whether {@code actual} is this outcome; {@code any} matches every node. Each pod this outcome scores must have
     * been scored on exactly its nodes, each within {@link #SCORE_TOLERANCE}.
     */
    boolean matches(Outcome actual) {
      if (!binds.keySet().equals(actual.binds.keySet()) || !evicted.equals(actual.evicted)) {
        return false;
      }
      for (Map.Entry<String, Map<String, Double>> e : scores.entrySet()) {
        Map<String, Double> got = actual.scores.get(e.getKey());
        if (got == null || !got.keySet().equals(e.getValue().keySet())) {
          return false;
        }
        for (Map.Entry<String, Double> n : e.getValue().entrySet()) {
          if (Math.abs(n.getValue() - got.get(n.getKey())) > SCORE_TOLERANCE) {
            return false;
          }
        }
      }
      return binds.entrySet().stream()
          .allMatch(e -> e.getValue().equals(ANY) || e.getValue().equals(actual.binds.get(e.getKey())));
    }

    /** One line for docs and failure messages: {@code binds a->n1, b->any; evicts c; scores a: n1 700, n2 137.5}. */
    String describe() {
      StringBuilder sb = new StringBuilder();
      if (binds.isEmpty()) {
        sb.append("binds nothing");
      } else {
        sb.append("binds ");
        binds.forEach((pod, node) -> sb.append(pod).append(" → ").append(node).append(", "));
        sb.setLength(sb.length() - 2);
      }
      sb.append("; ").append(evicted.isEmpty() ? "evicts nothing" : "evicts " + String.join(", ", evicted));
      scores.forEach((pod, byNode) -> {
        sb.append("; scores ").append(pod).append(':');
        if (byNode.isEmpty()) {
          sb.append(" none");
        }
        byNode.forEach((node, score) -> sb.append(' ').append(node).append(' ').append(number(score)).append(','));
        if (!byNode.isEmpty()) {
          sb.setLength(sb.length() - 1);
        }
      });
      return sb.toString();
    }

    /** A score as Volcano's table writes it: whole numbers without a fraction, others to at most 6 places. */
    private static String number(double score) {
      if (score == Math.rint(score) && Math.abs(score) < 1e15) {
        return String.valueOf((long) score);
      }
      return new java.math.BigDecimal(score).setScale(6, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros()
          .toPlainString();
    }
  }

  /** What the test asserts: Basalt's own result for a deliberate difference, else Volcano's. */
  Outcome expected() {
    return basalt != null ? basalt : volcano;
  }

  @Override
  public String toString() {
    return table + ": " + name;
  }
}
