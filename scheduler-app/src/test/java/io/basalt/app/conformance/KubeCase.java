package io.basalt.app.conformance;

import java.util.Map;
import java.util.TreeMap;

/**
 * One case of kube-scheduler's plugin unit-test tables, as a cluster the simulator runs with one incoming pod, and
 * what kube-scheduler's test expects of every node for that pod.
 *
 * <p>A node's verdict is one string: {@code ok} (feasible), a filter reason ({@code Insufficient cpu}), or for a
 * score table the plugin's normalised score on kube-scheduler's 0..100 scale ({@code 72}). The key {@value #POD}
 * stands for the pod as a whole ({@code bound}, {@code gated}, {@code pending}), for tables whose plugin decides
 * before any node is looked at (scheduling gates).
 *
 * @param table the table file ({@code nodeaffinity}), named after kube-scheduler's plugin
 * @param source kube-scheduler's test file and function
 * @param name kube-scheduler's case name, unchanged, so the row can be found in their source
 * @param conf the scheduler config text the case runs under
 * @param cluster Kubernetes YAML of the nodes, the pods already there and the incoming pod
 * @param kube kube-scheduler's expected verdicts, by node
 * @param basalt Basalt's verdicts where it differs on purpose, else null
 * @param deliberate why Basalt differs on purpose (with {@code basalt}), else null
 * @param open why this is a gap Basalt still has to close, else null; the case then must differ from {@code kube}
 * @param note how the case was carried over, where that is not obvious
 * @param wording kube-scheduler's reason to Basalt's wording of the same reason, for this table; a wording ending
 *     in {@code *} is a prefix (Basalt names the taint where kube-scheduler now says "taint(s)")
 */
record KubeCase(String table, String source, String name, String conf, String cluster, Map<String, String> kube,
    Map<String, String> basalt, String deliberate, String open, String note, Map<String, String> wording) {
  static final String POD = "(pod)";
  /** The verdict of a node the pod's search never looked at (a pod that was never searched for). */
  static final String NOT_ASKED = "-";

  KubeCase {
    kube = new TreeMap<>(kube);
    basalt = basalt == null ? null : new TreeMap<>(basalt);
    wording = Map.copyOf(wording);
  }

  /** Whether {@code actual} gives every node named in {@code want} its verdict, kube's reasons in Basalt's words. */
  boolean matches(Map<String, String> want, Map<String, String> actual) {
    for (Map.Entry<String, String> e : want.entrySet()) {
      String expected = wording.getOrDefault(e.getValue(), e.getValue());
      String got = actual.get(e.getKey());
      boolean same = expected.endsWith("*")
          ? got != null && got.startsWith(expected.substring(0, expected.length() - 1))
          : expected.equals(got);
      if (!same) {
        return false;
      }
    }
    return true;
  }

  /** One line for docs and failure messages: {@code n1: ok, n2: Insufficient cpu}. */
  static String describe(Map<String, String> verdicts) {
    StringBuilder sb = new StringBuilder();
    verdicts.forEach((node, v) -> sb.append(node).append(": ").append(v).append(", "));
    if (sb.length() > 0) {
      sb.setLength(sb.length() - 2);
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return table + ": " + name;
  }
}
