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

  /** What the whole simulation did: every pod it bound (to a node, or {@code any}) and every pod it evicted. */
  record Outcome(Map<String, String> binds, List<String> evicted) {
    static final String ANY = "any";

    Outcome {
      binds = new TreeMap<>(binds);
      evicted = List.copyOf(new TreeSet<>(evicted));
    }

    /** Whether {@code actual} is this outcome; {@code any} matches every node. */
    boolean matches(Outcome actual) {
      if (!binds.keySet().equals(actual.binds.keySet()) || !evicted.equals(actual.evicted)) {
        return false;
      }
      return binds.entrySet().stream()
          .allMatch(e -> e.getValue().equals(ANY) || e.getValue().equals(actual.binds.get(e.getKey())));
    }

    /** One line for docs and failure messages: {@code binds a->n1, b->any; evicts c}. */
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
      return sb.toString();
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
