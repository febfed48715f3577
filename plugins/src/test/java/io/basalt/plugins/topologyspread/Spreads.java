package io.basalt.plugins.topologyspread;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.LabelSelector;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.TopologySpreadConstraint;
import io.basalt.plugins.nodeorder.NodeOrderPlugin;
import io.basalt.plugins.predicates.PredicatesPlugin;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Test helpers: constraints, the usual two-zone cluster, and what a session's filters answer. */
final class Spreads {
  static final PluginRegistry REGISTRY =
      PluginRegistry.of(PredicatesPlugin.descriptor(), NodeOrderPlugin.descriptor());
  static final String CONF = "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: predicates\n  - name: nodeorder\n";
  static final String ZONE = "zone";
  static final String HOST = Constraints.HOSTNAME;

  private Spreads() {}

  /** A constraint over pods labelled {@code foo} (kube-scheduler's tables select by that label). */
  static TopologySpreadConstraint hard(int maxSkew, String key) {
    return new TopologySpreadConstraint(maxSkew, key, TopologySpreadConstraint.DO_NOT_SCHEDULE, foo(), null, null,
        null, null);
  }

  static TopologySpreadConstraint soft(int maxSkew, String key) {
    return new TopologySpreadConstraint(maxSkew, key, TopologySpreadConstraint.SCHEDULE_ANYWAY, foo(), null, null,
        null, null);
  }

  static LabelSelector foo() {
    return new LabelSelector(Map.of(), List.of(new LabelSelector.Requirement("foo", "Exists", List.of())));
  }

  static Pod spread(Pod p, TopologySpreadConstraint... constraints) {
    return p.withConstraints(new PodConstraints(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
        List.of(), List.of(constraints), List.of()));
  }

  /** A node with a zone label and its hostname label. */
  static TestNodes node(String name, String zone) {
    TestNodes n = TestNodes.node(name).cpu("32").memory("64Gi").label(HOST, name);
    return zone == null ? n : n.label(ZONE, zone);
  }

  /** kube-scheduler's usual four nodes: node-a, node-b in zone1, node-x, node-y in zone2. */
  static TestSessions fourNodes() {
    return TestSessions.cluster()
        .node(node("node-a", "zone1").build())
        .node(node("node-b", "zone1").build())
        .node(node("node-x", "zone2").build())
        .node(node("node-y", "zone2").build());
  }

  static Session open(TestSessions cluster) {
    return cluster.open(REGISTRY, CONF);
  }

  static Session open(TestSessions cluster, String conf) {
    return cluster.open(REGISTRY, conf);
  }

  /** Every node's verdict for {@code key}'s task: "ok" or the reason, by node name. */
  static Map<String, String> verdicts(Session s, String key) {
    TaskInfo task = TestSessions.task(s, key);
    Map<String, String> out = new TreeMap<>();
    for (NodeInfo n : s.nodes()) {
      FilterResult r = s.callbacks().filter(task, n);
      out.put(n.name(), r.ok() ? "ok" : r.reason());
    }
    return out;
  }

  /** The nodes that pass every filter for {@code key}'s task, in name order. */
  static List<String> feasible(Session s, String key) {
    List<String> out = new ArrayList<>();
    verdicts(s, key).forEach((n, v) -> {
      if (v.equals("ok")) {
        out.add(n);
      }
    });
    return out;
  }
}
