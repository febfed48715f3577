package io.basalt.plugins.topologyspread;

import static io.basalt.plugins.topologyspread.Spreads.HOST;
import static io.basalt.plugins.topologyspread.Spreads.ZONE;
import static io.basalt.plugins.topologyspread.Spreads.feasible;
import static io.basalt.plugins.topologyspread.Spreads.fourNodes;
import static io.basalt.plugins.topologyspread.Spreads.hard;
import static io.basalt.plugins.topologyspread.Spreads.node;
import static io.basalt.plugins.topologyspread.Spreads.open;
import static io.basalt.plugins.topologyspread.Spreads.spread;
import static io.basalt.plugins.topologyspread.Spreads.verdicts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.framework.TaskFilter;
import io.basalt.model.LabelSelector;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.Toleration;
import io.basalt.model.TopologySpreadConstraint;
import io.basalt.session.Session;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The DoNotSchedule filter on kube-scheduler's filter-table situations (four nodes over two zones, pods labelled
 * {@code foo}): which nodes fit, and the reasons.
 */
class SpreadFilterTest {
  private static final String NOT_MATCH = "node(s) didn't match pod topology spread constraints";
  private static final String MISSING = NOT_MATCH + " (missing required label)";

  private static Pod existing(String name, String node) {
    return TestPods.pod(name).label("foo", "").onNode(node).phase("Running").cpu("1").build();
  }

  private static Pod incoming(TopologySpreadConstraint... cs) {
    return spread(TestPods.pod("p").label("foo", "").cpu("1").build(), cs);
  }

  @Test
  void noExistingPodsEveryNodeFits() {
    Session s = open(fourNodes().pod(incoming(hard(1, ZONE))));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/p"));
  }

  @Test
  void podsOfAnotherNamespaceDoNotCount() {
    Session s = open(fourNodes().pod(incoming(hard(1, ZONE)))
        .pod(TestPods.pod("ns2/p-a1").label("foo", "").onNode("node-a").phase("Running").build())
        .pod(TestPods.pod("ns2/p-b1").label("foo", "").onNode("node-b").phase("Running").build()));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/p"));
  }

  @Test
  void zonesAtThreeAndThreeAllFit() {
    Session s = open(fourNodes().pod(incoming(hard(1, ZONE)))
        .pod(existing("p-a1", "node-a")).pod(existing("p-a2", "node-a")).pod(existing("p-b1", "node-b"))
        .pod(existing("p-x1", "node-x")).pod(existing("p-y1", "node-y")).pod(existing("p-y2", "node-y")));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/p"));
  }

  @Test
  void zonesAtThreeAndOneOnlyTheEmptierZoneFits() {
    Session s = open(fourNodes().pod(incoming(hard(1, ZONE)))
        .pod(existing("p-a1", "node-a")).pod(existing("p-a2", "node-a")).pod(existing("p-b1", "node-b"))
        .pod(existing("p-y1", "node-y")));
    Map<String, String> v = verdicts(s, "default/p");
    assertEquals(Map.of("node-a", NOT_MATCH, "node-b", NOT_MATCH, "node-x", "ok", "node-y", "ok"), v);
  }

  @Test
  void hostnameSpreadTwoOneZeroThreeOnlyNodeXFits() {
    Session s = open(fourNodes().pod(incoming(hard(1, HOST)))
        .pod(existing("p-a1", "node-a")).pod(existing("p-a2", "node-a")).pod(existing("p-b1", "node-b"))
        .pod(existing("p-y1", "node-y")).pod(existing("p-y2", "node-y")).pod(existing("p-y3", "node-y")));
    assertEquals(List.of("node-x"), feasible(s, "default/p"));
  }

  @Test
  void largerMaxSkewLetsMoreNodesIn() {
    Session s = open(fourNodes().pod(incoming(hard(2, HOST)))
        .pod(existing("p-a1", "node-a")).pod(existing("p-a2", "node-a")).pod(existing("p-b1", "node-b"))
        .pod(existing("p-y1", "node-y")).pod(existing("p-y2", "node-y")).pod(existing("p-y3", "node-y")));
    assertEquals(List.of("node-b", "node-x"), feasible(s, "default/p"));
  }

  @Test
  void nodeWithoutTheKeyIsRefusedForAMissingLabel() {
    Session s = open(fourNodes().node(node("node-z", null).build()).pod(incoming(hard(1, ZONE))));
    assertEquals(MISSING, verdicts(s, "default/p").get("node-z"));
    assertEquals("ok", verdicts(s, "default/p").get("node-a"));
  }

  @Test
  void nodesMissingAnyKeyOfThePodsConstraintsDoNotCount() {
    // node-b carries no hostname label: its pods count for neither constraint, and it is refused itself.
    Session s = open(TestSessions.cluster()
        .node(node("node-a", "zone1").build())
        .node(io.basalt.testing.TestNodes.node("node-b").cpu("32").memory("64Gi").label(ZONE, "zone1").build())
        .node(node("node-x", "zone2").build())
        .pod(incoming(hard(1, ZONE), hard(1, HOST)))
        .pod(existing("p-b1", "node-b")).pod(existing("p-b2", "node-b")));
    Map<String, String> v = verdicts(s, "default/p");
    assertEquals(MISSING, v.get("node-b"));
    assertEquals("ok", v.get("node-a"), "zone1 counts 0: node-b's pods are not counted");
    assertEquals("ok", v.get("node-x"));
  }

  @Test
  void terminatingPodsAreNotCounted() {
    Session s = open(fourNodes().pod(incoming(hard(1, ZONE)))
        .pod(TestPods.pod("p-a1").label("foo", "").onNode("node-a").phase("Running").terminating().build())
        .pod(TestPods.pod("p-a2").label("foo", "").onNode("node-a").phase("Running").terminating().build()));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/p"));
  }

  @Test
  void incomingPodNotMatchingItsSelectorAddsNothing() {
    // zone1 holds 1, zone2 0: a pod that matches adds 1 (2 - 0 > 1 in zone1), one that does not adds nothing.
    Pod other = spread(TestPods.pod("q").label("bar", "").cpu("1").build(), hard(1, ZONE));
    Session s = open(fourNodes().pod(incoming(hard(1, ZONE))).pod(other).pod(existing("p-a1", "node-a")));
    assertEquals(List.of("node-x", "node-y"), feasible(s, "default/p"));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/q"));
  }

  @Test
  void minDomainsAboveTheDomainCountTakesTheMinimumAsZero() {
    TopologySpreadConstraint c = new TopologySpreadConstraint(1, ZONE, TopologySpreadConstraint.DO_NOT_SCHEDULE,
        Spreads.foo(), 3, null, null, null);
    TestSessions cluster = fourNodes().pod(incoming(c))
        .pod(existing("p-a1", "node-a")).pod(existing("p-x1", "node-x"));
    // Two domains, each at 1: with minDomains 3 the minimum is 0, so 1 + 1 - 0 exceeds 1 everywhere.
    assertEquals(List.of(), feasible(open(cluster), "default/p"));
    TopologySpreadConstraint two = new TopologySpreadConstraint(1, ZONE, TopologySpreadConstraint.DO_NOT_SCHEDULE,
        Spreads.foo(), 2, null, null, null);
    Session s = open(fourNodes().pod(incoming(two)).pod(existing("p-a1", "node-a")).pod(existing("p-x1", "node-x")));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/p"));
  }

  /** zone3's node-z holds no pod; the pod may go only to zone1 or zone2 by its affinity. */
  private static TestSessions threeZones(String affinityPolicy) {
    TopologySpreadConstraint c = new TopologySpreadConstraint(1, ZONE, TopologySpreadConstraint.DO_NOT_SCHEDULE,
        Spreads.foo(), null, affinityPolicy, null, null);
    NodeSelectorTerm zones12 = new NodeSelectorTerm(List.of(
        new NodeSelectorRequirement(ZONE, "In", List.of("zone1", "zone2"), false)));
    Pod p = spread(TestPods.pod("p").label("foo", "").cpu("1").affinity(zones12).build(), c);
    return fourNodes().node(node("node-z", "zone3").build()).pod(p)
        .pod(existing("p-a1", "node-a")).pod(existing("p-x1", "node-x"));
  }

  @Test
  void nodeAffinityPolicyHonorCountsOnlyDomainsThePodMayUse() {
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(open(threeZones(null)), "default/p"));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(open(threeZones("Honor")), "default/p"));
  }

  @Test
  void nodeAffinityPolicyIgnoreCountsTheEmptyZoneTheSelectorExcludes() {
    // zone3 counts with 0 pods: 1 + 1 - 0 > 1 in zone1 and zone2, and zone3 is refused by the affinity itself.
    assertEquals(List.of(), feasible(open(threeZones("Ignore")), "default/p"));
  }

  private static TestSessions taintedZone(String taintsPolicy, boolean tolerates) {
    TopologySpreadConstraint c = new TopologySpreadConstraint(1, ZONE, TopologySpreadConstraint.DO_NOT_SCHEDULE,
        Spreads.foo(), null, null, taintsPolicy, null);
    TestPods pod = TestPods.pod("p").label("foo", "").cpu("1");
    if (tolerates) {
      pod.toleration(new Toleration("dedicated", "Equal", "infra", "NoSchedule"));
    }
    return fourNodes().node(node("node-z", "zone3").taint("dedicated", "infra", "NoSchedule").build())
        .pod(spread(pod.build(), c)).pod(existing("p-a1", "node-a")).pod(existing("p-x1", "node-x"));
  }

  @Test
  void nodeTaintsPolicyIgnoreCountsATaintedEmptyZone() {
    assertEquals(List.of(), feasible(open(taintedZone(null, false)), "default/p"));
    assertEquals(List.of(), feasible(open(taintedZone("Ignore", false)), "default/p"));
  }

  @Test
  void nodeTaintsPolicyHonorLeavesOutZonesThePodDoesNotTolerate() {
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"),
        feasible(open(taintedZone("Honor", false)), "default/p"));
    // Tolerated, the tainted zone is a domain again, and the only one at the minimum.
    assertEquals(List.of("node-z"), feasible(open(taintedZone("Honor", true)), "default/p"));
  }

  @Test
  void matchLabelKeysCountOnlyPodsWithTheIncomingPodsValues() {
    TopologySpreadConstraint c = new TopologySpreadConstraint(1, ZONE, TopologySpreadConstraint.DO_NOT_SCHEDULE,
        Spreads.foo(), null, null, null, List.of("rev"));
    Pod p = spread(TestPods.pod("p").label("foo", "").label("rev", "2").cpu("1").build(), c);
    TestSessions cluster = fourNodes().pod(p)
        // An older revision crowds zone1; it does not count against revision 2.
        .pod(TestPods.pod("old1").label("foo", "").label("rev", "1").onNode("node-a").phase("Running").build())
        .pod(TestPods.pod("old2").label("foo", "").label("rev", "1").onNode("node-a").phase("Running").build())
        .pod(TestPods.pod("new1").label("foo", "").label("rev", "2").onNode("node-x").phase("Running").build());
    assertEquals(List.of("node-a", "node-b"), feasible(open(cluster), "default/p"));
  }

  @Test
  void matchLabelKeysAlreadyMergedByTheApiServerChangeNothing() {
    LabelSelector merged = new LabelSelector(Map.of("rev", "2"), Spreads.foo().matchExpressions());
    TopologySpreadConstraint c = new TopologySpreadConstraint(1, ZONE, TopologySpreadConstraint.DO_NOT_SCHEDULE,
        merged, null, null, null, List.of("rev"));
    Pod p = spread(TestPods.pod("p").label("foo", "").label("rev", "2").cpu("1").build(), c);
    TestSessions cluster = fourNodes().pod(p)
        .pod(TestPods.pod("old1").label("foo", "").label("rev", "1").onNode("node-a").phase("Running").build())
        .pod(TestPods.pod("new1").label("foo", "").label("rev", "2").onNode("node-x").phase("Running").build());
    assertEquals(List.of("node-a", "node-b"), feasible(open(cluster), "default/p"));
  }

  @Test
  void emptySelectorCountsNoPodButMatchesItself() {
    // kube-scheduler counts no pod for an empty selector: skew is 1 everywhere, within maxSkew 1.
    TopologySpreadConstraint c = new TopologySpreadConstraint(1, ZONE, TopologySpreadConstraint.DO_NOT_SCHEDULE,
        LabelSelector.EVERYTHING, null, null, null, null);
    Session s = open(fourNodes().pod(incoming(c)).pod(existing("p-a1", "node-a")).pod(existing("p-a2", "node-a")));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/p"));
  }

  @Test
  void twoConstraintsMustBothHold() {
    // zone: zone1 2, zone2 1 -> zone2 only; hostname: a 2, b 0, x 1, y 0 -> b or y; together node-y.
    Session s = open(fourNodes().pod(incoming(hard(1, ZONE), hard(1, HOST)))
        .pod(existing("p-a1", "node-a")).pod(existing("p-a2", "node-a")).pod(existing("p-x1", "node-x")));
    assertEquals(List.of("node-y"), feasible(s, "default/p"));
  }

  @Test
  void podsWithoutHardConstraintsAreSignedAndPassEverywhere() {
    Pod soft = spread(TestPods.pod("soft").label("foo", "").cpu("1").build(), Spreads.soft(1, ZONE));
    Session s = open(fourNodes().pod(incoming(hard(1, ZONE))).pod(soft)
        .pod(TestPods.pod("plain").cpu("1").build()));
    SpreadFilter f = spreadFilter(s);
    assertNull(f.forTask(TestSessions.task(s, "default/plain")));
    assertNull(f.forTask(TestSessions.task(s, "default/soft")));
    assertEquals(f.sign(TestSessions.task(s, "default/plain")), f.sign(TestSessions.task(s, "default/soft")));
    assertNull(f.sign(TestSessions.task(s, "default/p")), "a spread pod's answer reads other pods: unsigned");
  }

  @Test
  void switchedOffNoSpreadFilter() {
    String conf = "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: predicates\n    arguments:\n"
        + "      predicate.PodTopologySpreadEnable: false\n";
    Session s = open(fourNodes().pod(incoming(hard(1, HOST))).pod(existing("p-a1", "node-a")), conf);
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/p"));
  }

  static SpreadFilter spreadFilter(Session s) {
    for (TaskFilter f : s.callbacks().filterChain()) {
      if (f instanceof SpreadFilter sf) {
        return sf;
      }
    }
    throw new AssertionError("no spread filter registered");
  }
}
