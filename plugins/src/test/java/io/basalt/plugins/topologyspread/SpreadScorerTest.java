package io.basalt.plugins.topologyspread;

import static io.basalt.plugins.topologyspread.Spreads.HOST;
import static io.basalt.plugins.topologyspread.Spreads.spread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NodeScorer;
import io.basalt.model.LabelSelector;
import io.basalt.model.OwnerReference;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.model.TopologySpreadConstraint;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ScheduleAnyway score, normalised over the candidates, on cases of kube-scheduler's PodTopologySpread scoring
 * table (nodes, existing pods, candidates and expected scores carry over). Nodes of a case that are not candidates
 * stand for kube-scheduler's "failed nodes": their pods count, they are not scored.
 */
class SpreadScorerTest {
  private static final String ZONE = "zone";

  private static String conf(String args) {
    return "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: nodeorder\n    arguments:\n" + args.indent(6);
  }

  private static final String WEIGHT_ONE = conf("podtopologyspread.weight: 1");

  private static TopologySpreadConstraint soft(int maxSkew, String key, String label) {
    return new TopologySpreadConstraint(maxSkew, key, TopologySpreadConstraint.SCHEDULE_ANYWAY,
        new LabelSelector(Map.of(), List.of(new LabelSelector.Requirement(label, "Exists", List.of()))), null, null,
        null, null);
  }

  /** One case: nodes (name, labels), existing pods per node (labels), the candidates. */
  private static final class Case {
    final TestSessions cluster = TestSessions.cluster();
    final List<String> candidates = new ArrayList<>();
    int seq;

    Case node(String name, boolean candidate, String... labels) {
      TestNodes n = TestNodes.node(name).cpu("32").memory("64Gi");
      for (int i = 0; i < labels.length; i += 2) {
        n.label(labels[i], labels[i + 1]);
      }
      cluster.node(n.build());
      if (candidate) {
        candidates.add(name);
      }
      return this;
    }

    Case pods(String node, int count, String... labels) {
      for (int i = 0; i < count; i++) {
        TestPods p = TestPods.pod("e" + seq++).onNode(node).phase("Running").cpu("1");
        for (String l : labels) {
          p.label(l, "");
        }
        cluster.pod(p.build());
      }
      return this;
    }

    /** Normalised scores of {@code incoming} over the candidates, by node. */
    Map<String, Long> scores(Pod incoming, String conf) {
      cluster.pod(incoming);
      Session s = cluster.open(Spreads.REGISTRY, conf);
      SpreadScorer scorer = scorer(s);
      TaskInfo task = TestSessions.task(s, incoming.key());
      List<NodeInfo> nodes = new ArrayList<>();
      for (String c : candidates) {
        nodes.add(TestSessions.nodeInfo(s, c));
      }
      double[] scores = new double[nodes.size()];
      for (int i = 0; i < scores.length; i++) {
        scores[i] = scorer.score(task, nodes.get(i));
      }
      scorer.normalize(task, nodes, scores);
      Map<String, Long> out = new LinkedHashMap<>();
      for (int i = 0; i < scores.length; i++) {
        out.put(candidates.get(i), Math.round(scores[i]));
      }
      return out;
    }
  }

  static SpreadScorer scorer(Session s) {
    for (NodeScorer f : s.callbacks().normalizingScorers()) {
      if (f instanceof SpreadScorer sc) {
        return sc;
      }
    }
    throw new AssertionError("no spread scorer registered");
  }

  private static Pod incoming(TopologySpreadConstraint... cs) {
    return spread(TestPods.pod("p").label("foo", "").label("bar", "").cpu("1").build(), cs);
  }

  /** Hostname spread over node-a..node-d holding {@code a, b, c, d} matching pods, every node a candidate. */
  private static Case fourHosts(int a, int b, int c, int d) {
    Case k = new Case();
    for (String n : List.of("node-a", "node-b", "node-c", "node-d")) {
      k.node(n, true, HOST, n);
    }
    return k.pods("node-a", a, "foo").pods("node-b", b, "foo").pods("node-c", c, "foo").pods("node-d", d, "foo");
  }

  @Test
  void noExistingPodsEveryCandidateScoresTheMost() {
    assertEquals(Map.of("node-a", 100L, "node-b", 100L, "node-c", 100L, "node-d", 100L),
        fourHosts(0, 0, 0, 0).scores(incoming(soft(1, HOST, "foo")), WEIGHT_ONE));
  }

  @Test
  void oneCandidateScoresTheMost() {
    Case k = new Case().node("node-a", true, HOST, "node-a").node("node-b", false, HOST, "node-b")
        .pods("node-a", 2, "foo").pods("node-b", 1, "foo");
    assertEquals(Map.of("node-a", 100L), k.scores(incoming(soft(1, HOST, "foo")), WEIGHT_ONE));
  }

  @Test
  void hostnameTwoOneZeroThreeMaxSkewOne() {
    assertEquals(Map.of("node-a", 20L, "node-b", 60L, "node-c", 100L, "node-d", 0L),
        fourHosts(2, 1, 0, 3).scores(incoming(soft(1, HOST, "foo")), WEIGHT_ONE));
  }

  @Test
  void hostnameTwoOneZeroThreeMaxSkewTwo() {
    assertEquals(Map.of("node-a", 33L, "node-b", 66L, "node-c", 100L, "node-d", 16L),
        fourHosts(2, 1, 0, 3).scores(incoming(soft(2, HOST, "foo")), WEIGHT_ONE));
  }

  @Test
  void hostnameFourThreeTwoOneMaxSkewThree() {
    assertEquals(Map.of("node-a", 44L, "node-b", 66L, "node-c", 77L, "node-d", 100L),
        fourHosts(4, 3, 2, 1).scores(incoming(soft(3, HOST, "foo")), WEIGHT_ONE));
  }

  @Test
  void threeOfFourCandidates() {
    Case k = new Case().node("node-a", true, HOST, "node-a").node("node-b", true, HOST, "node-b")
        .node("node-x", true, HOST, "node-x").node("node-y", false, HOST, "node-y")
        .pods("node-a", 4, "foo").pods("node-b", 2, "foo").pods("node-x", 1, "foo").pods("node-y", 3, "foo");
    assertEquals(Map.of("node-a", 33L, "node-b", 83L, "node-x", 100L),
        k.scores(incoming(soft(1, HOST, "foo")), WEIGHT_ONE));
  }

  @Test
  void aCandidateWithoutTheKeyIsIgnoredAndScoresZero() {
    Case k = new Case().node("node-a", true, HOST, "node-a").node("node-b", true, "n", "node-b")
        .node("node-x", true, HOST, "node-x").node("node-y", false, HOST, "node-y")
        .pods("node-a", 4, "foo").pods("node-b", 2, "foo").pods("node-x", 1, "foo").pods("node-y", 3, "foo");
    assertEquals(Map.of("node-a", 16L, "node-b", 0L, "node-x", 100L),
        k.scores(incoming(soft(1, HOST, "foo")), WEIGHT_ONE));
  }

  @Test
  void zoneConstraintCountsPodsOfNodesThatAreNotCandidates() {
    Case k = new Case().node("node-a", true, ZONE, "zone1", HOST, "node-a")
        .node("node-b", true, ZONE, "zone1", HOST, "node-b")
        .node("node-x", true, ZONE, "zone2", HOST, "node-x").node("node-y", false, ZONE, "zone2", HOST, "node-y")
        .pods("node-a", 4, "foo").pods("node-b", 2, "foo").pods("node-x", 1, "foo").pods("node-y", 3, "foo");
    assertEquals(Map.of("node-a", 75L, "node-b", 75L, "node-x", 100L),
        k.scores(incoming(soft(1, ZONE, "foo")), WEIGHT_ONE));
  }

  @Test
  void zoneAndHostnameTwoOfFourCandidates() {
    Case k = new Case().node("node-a", true, ZONE, "zone1", HOST, "node-a")
        .node("node-b", false, ZONE, "zone1", HOST, "node-b")
        .node("node-x", true, ZONE, "zone2", HOST, "node-x").node("node-y", false, ZONE, "zone2", HOST, "node-y")
        .pods("node-a", 2, "foo").pods("node-b", 1, "foo").pods("node-x", 2, "foo").pods("node-y", 4, "foo");
    assertEquals(Map.of("node-a", 100L, "node-x", 63L),
        k.scores(incoming(soft(1, ZONE, "foo"), soft(1, HOST, "foo")), WEIGHT_ONE));
  }

  @Test
  void zoneAndHostnameWithDifferentSelectors() {
    Case k = new Case().node("node-a", true, ZONE, "zone1", HOST, "node-a")
        .node("node-b", true, ZONE, "zone1", HOST, "node-b")
        .node("node-x", true, ZONE, "zone2", HOST, "node-x").node("node-y", true, ZONE, "zone2", HOST, "node-y")
        .pods("node-a", 1, "foo").pods("node-b", 1, "foo", "bar").pods("node-y", 1, "foo").pods("node-y", 1, "bar");
    assertEquals(Map.of("node-a", 60L, "node-b", 20L, "node-x", 100L, "node-y", 60L),
        k.scores(incoming(soft(1, ZONE, "foo"), soft(1, HOST, "bar")), WEIGHT_ONE));
  }

  @Test
  void zoneAndHostnameWithDifferentSelectorsSomeNodesEmpty() {
    Case k = new Case().node("node-a", true, ZONE, "zone1", HOST, "node-a")
        .node("node-b", true, ZONE, "zone1", HOST, "node-b")
        .node("node-x", true, ZONE, "zone2", HOST, "node-x").node("node-y", true, ZONE, "zone2", HOST, "node-y")
        .pods("node-b", 1, "bar").pods("node-x", 1, "foo").pods("node-y", 1, "foo", "bar");
    assertEquals(Map.of("node-a", 100L, "node-b", 60L, "node-x", 40L, "node-y", 0L),
        k.scores(incoming(soft(1, ZONE, "foo"), soft(1, HOST, "bar")), WEIGHT_ONE));
  }

  @Test
  void theWeightMultipliesTheNormalisedScore() {
    // Volcano's default podtopologyspread.weight is 2.
    assertEquals(Map.of("node-a", 40L, "node-b", 120L, "node-c", 200L, "node-d", 0L),
        fourHosts(2, 1, 0, 3).scores(incoming(soft(1, HOST, "foo")), conf("leastrequested.weight: 1")));
  }

  private static Pod owned(String name, String node, String rs) {
    return new Pod("uid-" + name, "default", name, "basalt-scheduler", node, node == null ? "Pending" : "Running",
        false, null, null, null, ResourceVector.builder().add(ResourceNames.PODS, 1).build(), Map.of("foo", ""),
        Map.of(), Map.of(), List.of(), List.of(), Instant.ofEpochSecond(1_700_000_000L), null,
        new OwnerReference("apps/v1", "ReplicaSet", rs, "uid-" + rs), List.of(), PodConstraints.NONE);
  }

  /** kube-scheduler's system defaults over nodes without zones: the hostname default alone scores. */
  private static Case ownedFourThreeTwoOne() {
    Case k = new Case();
    int[] counts = {4, 3, 2, 1};
    String[] names = {"node-a", "node-b", "node-c", "node-d"};
    for (int n = 0; n < 4; n++) {
      k.node(names[n], true, HOST, names[n]);
      for (int i = 0; i < counts[n]; i++) {
        k.cluster.pod(owned("r" + n + i, names[n], "rs1"));
      }
    }
    // Another ReplicaSet's pods with the same labels are not its pods.
    k.cluster.pod(owned("other", "node-d", "rs2")).pod(owned("other2", "node-d", "rs2"));
    return k;
  }

  @Test
  void defaultConstraintsWhenAskedForSpreadAControllersPods() {
    String on = conf("podtopologyspread.weight: 1\npodtopologyspread.defaultConstraints: true");
    assertEquals(Map.of("node-a", 44L, "node-b", 66L, "node-c", 77L, "node-d", 100L),
        ownedFourThreeTwoOne().scores(owned("p", null, "rs1"), on));
  }

  @Test
  void noDefaultConstraintsUnlessAskedFor() {
    assertEquals(Map.of("node-a", 0L, "node-b", 0L, "node-c", 0L, "node-d", 0L),
        ownedFourThreeTwoOne().scores(owned("p", null, "rs1"), WEIGHT_ONE));
  }

  @Test
  void signedOnlyForPodsWithoutSoftConstraints() {
    Case k = fourHosts(1, 0, 0, 0);
    k.cluster.pod(TestPods.pod("plain").cpu("1").build());
    k.cluster.pod(spread(TestPods.pod("hard").label("foo", "").cpu("1").build(), Spreads.hard(1, HOST)));
    k.cluster.pod(incoming(soft(1, HOST, "foo")));
    Session s = k.cluster.open(Spreads.REGISTRY, WEIGHT_ONE);
    SpreadScorer scorer = scorer(s);
    assertNotNull(scorer.sign(TestSessions.task(s, "default/plain")));
    assertEquals(scorer.sign(TestSessions.task(s, "default/plain")), scorer.sign(TestSessions.task(s, "default/hard")));
    assertNull(scorer.sign(TestSessions.task(s, "default/p")));
    // Without normalisation the score still prefers the emptier node.
    TaskInfo p = TestSessions.task(s, "default/p");
    assertTrue(scorer.score(p, TestSessions.nodeInfo(s, "node-b")) > scorer.score(p, TestSessions.nodeInfo(s, "node-a")));
  }
}
