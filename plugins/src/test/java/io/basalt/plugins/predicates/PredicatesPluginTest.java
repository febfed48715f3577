package io.basalt.plugins.predicates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.Arguments;
import io.basalt.api.NodeInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.PreparedFilter;
import io.basalt.model.Node;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.Toleration;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class PredicatesPluginTest {
  private static final PluginRegistry REGISTRY =
      PluginRegistry.of(PredicatesPlugin.descriptor());

  private static final String AFFINITY = "node(s) didn't match Pod's node affinity/selector";

  /** Opens a real session with predicates configured by {@code args} and filters {@code pod} on {@code node}. */
  private static FilterResult filter(String args, TestNodes node, TestPods pod) {
    Node n = node.cpu("8").memory("32Gi").build();
    Pod p = pod.cpu("1").build();
    Session s = TestSessions.cluster().node(n).pod(p)
        .open(REGISTRY, TestSessions.singlePlugin(PredicatesPlugin.NAME, args));
    FilterResult asked = s.callbacks().filter(TestSessions.task(s, p.key()), TestSessions.nodeInfo(s, n.name()));
    // A search asks the filter prepared for the task once: it must answer the same, reason and all.
    PreparedFilter predicates = (PreparedFilter) s.callbacks().filterChain().get(0);
    Function<NodeInfo, FilterResult> check = predicates.forTask(TestSessions.task(s, p.key()));
    FilterResult prepared = check == null ? FilterResult.OK : check.apply(TestSessions.nodeInfo(s, n.name()));
    assertEquals(asked, prepared, "prepared filter");
    return asked;
  }

  private static FilterResult filter(TestNodes node, TestPods pod) {
    return filter("", node, pod);
  }

  private static NodeSelectorTerm term(NodeSelectorRequirement... requirements) {
    return new NodeSelectorTerm(List.of(requirements));
  }

  private static NodeSelectorRequirement req(String key, String op, String... values) {
    return new NodeSelectorRequirement(key, op, List.of(values), false);
  }

  private static void assertOk(FilterResult r) {
    assertTrue(r.ok(), () -> "expected to fit, got: " + r.reason());
  }

  @Test
  void plainPodFitsPlainNode() {
    assertOk(filter(TestNodes.node("n1"), TestPods.pod("p1")));
  }

  // ---- nodeSelector ----

  @Test
  void nodeSelectorMatchingAllLabelsPasses() {
    assertOk(filter(TestNodes.node("n1").label("gpu", "a100").label("zone", "z1").label("extra", "x"),
        TestPods.pod("p1").nodeSelector("gpu", "a100").nodeSelector("zone", "z1")));
  }

  @Test
  void nodeSelectorWithOneLabelDifferentFails() {
    FilterResult r = filter(TestNodes.node("n1").label("gpu", "a100").label("zone", "z2"),
        TestPods.pod("p1").nodeSelector("gpu", "a100").nodeSelector("zone", "z1"));
    assertEquals(AFFINITY, r.reason());
  }

  @Test
  void nodeSelectorWithLabelMissingFails() {
    assertEquals(AFFINITY, filter(TestNodes.node("n1"), TestPods.pod("p1").nodeSelector("gpu", "a100")).reason());
  }

  // ---- required node affinity ----

  @Test
  void affinityInMatchesListedValue() {
    TestPods pod = TestPods.pod("p1").affinity(term(req("gpu", "In", "a100", "h100")));
    assertOk(filter(TestNodes.node("n1").label("gpu", "h100"), pod));
  }

  @Test
  void affinityInRejectsOtherValueAndMissingLabel() {
    assertEquals(AFFINITY, filter(TestNodes.node("n1").label("gpu", "t4"),
        TestPods.pod("p1").affinity(term(req("gpu", "In", "a100", "h100")))).reason());
    assertEquals(AFFINITY, filter(TestNodes.node("n1"),
        TestPods.pod("p1").affinity(term(req("gpu", "In", "a100")))).reason());
  }

  @Test
  void affinityNotInRejectsListedValueAndAcceptsOthers() {
    assertEquals(AFFINITY, filter(TestNodes.node("n1").label("pool", "spot"),
        TestPods.pod("p1").affinity(term(req("pool", "NotIn", "spot")))).reason());
    assertOk(filter(TestNodes.node("n1").label("pool", "reserved"),
        TestPods.pod("p1").affinity(term(req("pool", "NotIn", "spot")))));
    assertOk(filter(TestNodes.node("n1"), TestPods.pod("p1").affinity(term(req("pool", "NotIn", "spot")))));
  }

  @Test
  void affinityExistsNeedsTheLabel() {
    assertOk(filter(TestNodes.node("n1").label("infiniband", ""),
        TestPods.pod("p1").affinity(term(req("infiniband", "Exists")))));
    assertEquals(AFFINITY, filter(TestNodes.node("n1"),
        TestPods.pod("p1").affinity(term(req("infiniband", "Exists")))).reason());
  }

  @Test
  void affinityTermsAreOredAndRequirementsAnded() {
    NodeSelectorTerm bothNeeded = term(req("gpu", "In", "a100"), req("zone", "In", "z1"));
    NodeSelectorTerm other = term(req("gpu", "In", "h100"));
    TestNodes a100InZ2 = TestNodes.node("n1").label("gpu", "a100").label("zone", "z2");
    assertEquals(AFFINITY, filter(a100InZ2, TestPods.pod("p1").affinity(bothNeeded)).reason());
    assertEquals(AFFINITY, filter(a100InZ2, TestPods.pod("p1").affinity(bothNeeded).affinity(other)).reason());
    TestNodes h100 = TestNodes.node("n1").label("gpu", "h100");
    assertOk(filter(h100, TestPods.pod("p1").affinity(bothNeeded).affinity(other)));
  }

  @Test
  void selectorAndAffinityMustBothMatch() {
    TestNodes node = TestNodes.node("n1").label("gpu", "a100").label("zone", "z1");
    assertEquals(AFFINITY, filter(node,
        TestPods.pod("p1").nodeSelector("gpu", "a100").affinity(term(req("zone", "In", "z2")))).reason());
    assertEquals(AFFINITY, filter(node,
        TestPods.pod("p1").nodeSelector("gpu", "h100").affinity(term(req("zone", "In", "z1")))).reason());
    assertOk(filter(node, TestPods.pod("p1").nodeSelector("gpu", "a100").affinity(term(req("zone", "In", "z1")))));
  }

  // ---- taints ----

  @Test
  void noScheduleTaintWithoutTolerationFailsInKubeWording() {
    FilterResult r = filter(TestNodes.node("n1").taint("nvidia.com/gpu", "present", "NoSchedule"),
        TestPods.pod("p1"));
    assertEquals("node(s) had untolerated taint {nvidia.com/gpu: present}", r.reason());
  }

  @Test
  void taintWithoutValueShowsEmptyValue() {
    FilterResult r = filter(TestNodes.node("n1").taint("dedicated", null, "NoSchedule"), TestPods.pod("p1"));
    assertEquals("node(s) had untolerated taint {dedicated: }", r.reason());
  }

  @Test
  void noExecuteTaintAlsoBlocks() {
    FilterResult r = filter(TestNodes.node("n1").taint("maintenance", "true", "NoExecute"), TestPods.pod("p1"));
    assertEquals("node(s) had untolerated taint {maintenance: true}", r.reason());
  }

  @Test
  void toleratedNoScheduleTaintPasses() {
    TestNodes node = TestNodes.node("n1").taint("nvidia.com/gpu", "present", "NoSchedule");
    assertOk(filter(node,
        TestPods.pod("p1").toleration(new Toleration("nvidia.com/gpu", "Equal", "present", "NoSchedule"))));
    assertOk(filter(node, TestPods.pod("p1").toleration(new Toleration("nvidia.com/gpu", "Exists", null, null))));
    assertOk(filter(node, TestPods.pod("p1").toleration(new Toleration(null, "Exists", null, null))));
  }

  @Test
  void tolerationForAnotherValueOrEffectDoesNotHelp() {
    TestNodes node = TestNodes.node("n1").taint("nvidia.com/gpu", "present", "NoSchedule");
    assertFalse(filter(node,
        TestPods.pod("p1").toleration(new Toleration("nvidia.com/gpu", "Equal", "absent", "NoSchedule"))).ok());
    assertFalse(filter(node,
        TestPods.pod("p1").toleration(new Toleration("nvidia.com/gpu", "Exists", null, "NoExecute"))).ok());
  }

  @Test
  void reportsTheFirstUntoleratedOfSeveralTaints() {
    TestNodes node = TestNodes.node("n1").taint("a", "1", "NoSchedule").taint("b", "2", "NoSchedule");
    FilterResult r = filter(node, TestPods.pod("p1").toleration(new Toleration("a", "Exists", null, null)));
    assertEquals("node(s) had untolerated taint {b: 2}", r.reason());
  }

  @Test
  void preferNoScheduleTaintIsIgnored() {
    assertOk(filter(TestNodes.node("n1").taint("spot", "true", "PreferNoSchedule"), TestPods.pod("p1")));
  }

  // ---- node state ----

  @Test
  void unschedulableNodeFails() {
    assertEquals("node(s) were unschedulable",
        filter(TestNodes.node("n1").unschedulable(), TestPods.pod("p1")).reason());
  }

  @Test
  void unschedulableNodeAdmitsPodToleratingTheUnschedulableTaint() {
    assertOk(filter(TestNodes.node("n1").unschedulable(), TestPods.pod("p1")
        .toleration(new Toleration("node.kubernetes.io/unschedulable", "Exists", null, "NoSchedule"))));
    assertFalse(filter(TestNodes.node("n1").unschedulable(), TestPods.pod("p1")
        .toleration(new Toleration("node.kubernetes.io/unschedulable", "Exists", null, "NoExecute"))).ok());
  }

  @Test
  void notReadyNodeFails() {
    assertEquals("node(s) were not ready", filter(TestNodes.node("n1").notReady(), TestPods.pod("p1")).reason());
  }

  // ---- arguments ----

  @Test
  void nodeAffinityEnableFalseSkipsSelectorAndAffinity() {
    String off = "predicate.NodeAffinityEnable: false";
    assertOk(filter(off, TestNodes.node("n1"), TestPods.pod("p1").nodeSelector("gpu", "a100")));
    assertOk(filter(off, TestNodes.node("n1"), TestPods.pod("p1").affinity(term(req("gpu", "In", "a100")))));
    assertFalse(filter(off, TestNodes.node("n1").taint("k", "v", "NoSchedule"), TestPods.pod("p1")).ok());
  }

  @Test
  void taintTolerationEnableFalseSkipsTaints() {
    String off = "predicate.TaintTolerationEnable: false";
    assertOk(filter(off, TestNodes.node("n1").taint("k", "v", "NoSchedule"), TestPods.pod("p1")));
    assertEquals(AFFINITY, filter(off, TestNodes.node("n1"), TestPods.pod("p1").nodeSelector("gpu", "a")).reason());
  }

  @Test
  void disablingBothStillRejectsCordonedAndNotReadyNodes() {
    String off = "predicate.NodeAffinityEnable: false\npredicate.TaintTolerationEnable: false";
    assertFalse(filter(off, TestNodes.node("n1").unschedulable(), TestPods.pod("p1")).ok());
    assertFalse(filter(off, TestNodes.node("n1").notReady(), TestPods.pod("p1")).ok());
  }

  @Test
  void enableFlagsAreReadAndStringBooleansAccepted() {
    Arguments args = new Arguments(Map.of("predicate.NodeAffinityEnable", "false",
        "predicate.TaintTolerationEnable", true), "tiers[1].plugins[0]");
    PredicatesPlugin.descriptor().read().apply(args);
    assertEquals(List.of(), args.problems());
    assertTrue(args.unread().isEmpty());
  }

  @Test
  void nonBooleanFlagIsAProblemAndKeepsTheCheckOn() {
    Arguments args = new Arguments(Map.of("predicate.TaintTolerationEnable", "sometimes"), "tiers[1].plugins[0]");
    PredicatesPlugin.descriptor().read().apply(args);
    assertEquals(1, args.problems().size());
    assertTrue(args.problems().get(0).contains("predicate.TaintTolerationEnable"), args.problems().get(0));
    // The default (on) stays in force.
    assertFalse(filter("predicate.TaintTolerationEnable: sometimes",
        TestNodes.node("n1").taint("k", "v", "NoSchedule"), TestPods.pod("p1")).ok());
  }
}
