package io.basalt.plugins.nodeorder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NormalizingScorer;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.PreparedScorer;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.PreferredSchedulingTerm;
import io.basalt.model.Toleration;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** nodeorder's preferred node affinity and PreferNoSchedule scores, normalized as kube-scheduler normalizes them. */
class PreferenceScoresTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(NodeOrderPlugin.descriptor());
  private static final String PREFERENCES_ONLY =
      "leastrequested.weight: 0\nbalancedresource.weight: 0\nnodeaffinity.weight: 2\ntainttoleration.weight: 3\n"
          + "podaffinity.weight: 0\npodtopologyspread.weight: 0";

  @Test
  void defaultNormalizeScoreUsesIntegerArithmetic() {
    double[] s = {0, 30, 70, 100};
    PreferenceScores.normalize(s, false, 1);
    assertArrayEquals(new double[] {0, 30, 70, 100}, s);
    double[] t = {1, 2, 3};
    PreferenceScores.normalize(t, false, 2);
    assertArrayEquals(new double[] {66, 132, 200}, t, "100 * 1 / 3 = 33, times 2");
    double[] r = {0, 1, 3};
    PreferenceScores.normalize(r, true, 3);
    assertArrayEquals(new double[] {300, 201, 0}, r, "reversed: 100 - 33 = 67, times 3");
    double[] zeros = {0, 0};
    PreferenceScores.normalize(zeros, true, 3);
    assertArrayEquals(new double[] {300, 300}, zeros, "all 0 reversed: all 100");
    double[] plain = {0, 0};
    PreferenceScores.normalize(plain, false, 3);
    assertArrayEquals(new double[] {0, 0}, plain);
  }

  private static Pod withPreferences(Pod p, List<PreferredSchedulingTerm> terms) {
    PodConstraints c = new PodConstraints(List.of(), List.of(), terms, List.of(), List.of(), List.of(), List.of(),
        List.of(), List.of());
    return new Pod(p.uid(), p.namespace(), p.name(), p.schedulerName(), p.nodeName(), p.phase(), p.terminating(),
        p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.request(), p.labels(), p.annotations(),
        p.nodeSelector(), p.requiredNodeAffinity(), p.tolerations(), p.creationTimestamp(), p.group(), p.controller(),
        p.containers(), c);
  }

  private static PreferredSchedulingTerm prefer(int weight, String key, String value) {
    return new PreferredSchedulingTerm(weight,
        new NodeSelectorTerm(List.of(new NodeSelectorRequirement(key, "In", List.of(value), false))));
  }

  private static Session session(Pod pod) {
    return TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("4").label("zone", "a").label("disk", "ssd").build())
        .node(TestNodes.node("n2").cpu("4").label("zone", "a").taint("k", "v", "PreferNoSchedule").build())
        .node(TestNodes.node("n3").cpu("4").label("zone", "b").taint("k", "v", "PreferNoSchedule")
            .taint("other", "", "PreferNoSchedule").taint("hard", "", "NoSchedule").build())
        .pod(pod).open(REGISTRY, TestSessions.singlePlugin(NodeOrderPlugin.NAME, PREFERENCES_ONLY));
  }

  /** Each node's normalized score from {@code scorer}, all three nodes the candidates. */
  private static double[] normalized(Session s, NormalizingScorer scorer, String pod) {
    TaskInfo task = TestSessions.task(s, pod);
    List<NodeInfo> nodes = List.of(TestSessions.nodeInfo(s, "n1"), TestSessions.nodeInfo(s, "n2"),
        TestSessions.nodeInfo(s, "n3"));
    double[] scores = new double[3];
    for (int i = 0; i < 3; i++) {
      scores[i] = ((PreparedScorer) scorer).forTask(task).applyAsDouble(nodes.get(i));
      assertEquals(scorer.score(task, nodes.get(i)), scores[i], "prepared and plain agree");
    }
    scorer.normalize(task, nodes, scores);
    return scores;
  }

  private static NormalizingScorer registered(Session s, Class<?> type) {
    return s.callbacks().normalizingScorers().stream().filter(type::isInstance).findFirst().orElseThrow();
  }

  @Test
  void nodeAffinitySumsTheMatchedTermsWeightsNormalizedToTheBest() {
    Pod pod = withPreferences(TestPods.pod("ns/p").cpu("1").build(),
        List.of(prefer(20, "zone", "a"), prefer(60, "disk", "ssd"), prefer(0, "zone", "b")));
    Session s = session(pod);
    // Raw: n1 20 + 60 = 80, n2 20, n3 0 (weight 0 terms count nothing); 100 * 20 / 80 = 25; times 2.
    assertArrayEquals(new double[] {200, 50, 0},
        normalized(s, registered(s, PreferenceScores.NodeAffinity.class), "ns/p"));
  }

  @Test
  void nodeAffinitySkipsAPodWithoutPreferredTerms() {
    Session s = session(TestPods.pod("ns/p").cpu("1").build());
    PreparedScorer scorer = (PreparedScorer) registered(s, PreferenceScores.NodeAffinity.class);
    assertNull(scorer.forTask(TestSessions.task(s, "ns/p")));
  }

  @Test
  void taintTolerationCountsIntolerablePreferNoScheduleTaintsReversed() {
    Session s = session(TestPods.pod("ns/p").cpu("1").build());
    // Counts: n1 0, n2 1, n3 2 (NoSchedule is a filter's, not counted); reversed: 100, 50, 0; times 3.
    assertArrayEquals(new double[] {300, 150, 0},
        normalized(s, registered(s, PreferenceScores.TaintToleration.class), "ns/p"));
  }

  @Test
  void aTolerationOfThatEffectOrOfAnyEffectCounts() {
    Pod pod = TestPods.pod("ns/p").cpu("1").toleration(new Toleration("k", "Equal", "v", "PreferNoSchedule"))
        .toleration(new Toleration("other", "Exists", null, "NoSchedule")).build();
    Session s = session(pod);
    // n3's "other" taint is not tolerated by a NoSchedule toleration: counts n1 0, n2 0, n3 1.
    assertArrayEquals(new double[] {300, 300, 0},
        normalized(s, registered(s, PreferenceScores.TaintToleration.class), "ns/p"));
    Pod all = TestPods.pod("ns/q").cpu("1").toleration(new Toleration("", "Exists", null, "")).build();
    Session t = session(all);
    assertNull(((PreparedScorer) registered(t, PreferenceScores.TaintToleration.class))
        .forTask(TestSessions.task(t, "ns/q")), "tolerates every PreferNoSchedule taint: the same on every node");
  }

  @Test
  void noPreferNoScheduleTaintInTheSessionRegistersNoTaintScore() {
    Session s = TestSessions.cluster().node(TestNodes.node("n1").cpu("4").taint("hard", "", "NoSchedule").build())
        .pod(TestPods.pod("ns/p").cpu("1").build())
        .open(REGISTRY, TestSessions.singlePlugin(NodeOrderPlugin.NAME, PREFERENCES_ONLY));
    assertTrue(s.callbacks().normalizingScorers().stream()
        .noneMatch(PreferenceScores.TaintToleration.class::isInstance));
    assertEquals(1, s.callbacks().normalizingScorers().size(), "node affinity only");
  }
}
