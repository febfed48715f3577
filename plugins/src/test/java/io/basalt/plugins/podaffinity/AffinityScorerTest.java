package io.basalt.plugins.podaffinity;

import static io.basalt.plugins.podaffinity.Affinities.expr;
import static io.basalt.plugins.podaffinity.Affinities.labels;
import static io.basalt.plugins.podaffinity.Affinities.term;
import static io.basalt.plugins.podaffinity.Affinities.terms;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The score, raw and normalised, after the cases of kube-scheduler's interpodaffinity scoring tests. */
class AffinityScorerTest {
  private static Node node(String name, String key, String value) {
    return TestNodes.node(name).cpu("8").memory("32Gi").label(key, value).label("kubernetes.io/hostname", name)
        .build();
  }

  private static Pod on(String key, String node, String... labels) {
    TestPods p = TestPods.pod(key).cpu("1").onNode(node);
    for (int i = 0; i < labels.length; i += 2) {
      p.label(labels[i], labels[i + 1]);
    }
    return p.build();
  }

  private static Pod incoming(String... labels) {
    TestPods p = TestPods.pod("default/incoming").cpu("1");
    for (int i = 0; i < labels.length; i += 2) {
      p.label(labels[i], labels[i + 1]);
    }
    return p.build();
  }

  private static final List<Node> CHINA_INDIA_AZ = List.of(node("machine1", "region", "China"),
      node("machine2", "region", "India"), node("machine3", "az", "az1"));

  /** Raw scores of {@code pod} on {@code nodes} (asked and prepared alike), then normalised with weight 1. */
  private static double[] scores(List<Node> nodes, List<Pod> existing, Pod pod, boolean normalize) {
    List<Pod> all = new ArrayList<>(existing);
    all.add(pod);
    Session s = Affinities.open(nodes, all);
    TaskInfo task = TestSessions.task(s, pod.key());
    AffinityScorer scorer = scorer(s);
    ToDoubleFunction<NodeInfo> prepared = scorer.forTask(task);
    double[] out = new double[nodes.size()];
    List<NodeInfo> infos = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      NodeInfo info = TestSessions.nodeInfo(s, nodes.get(i).name());
      infos.add(info);
      out[i] = scorer.score(task, info);
      // null: nothing to say for this task, which scores 0 everywhere
      assertEquals(out[i], prepared == null ? 0 : prepared.applyAsDouble(info), "prepared on " + info.name());
    }
    if (normalize) {
      new AffinityScorer(null, 1).normalize(task, infos, out);
    }
    return out;
  }

  private static AffinityScorer scorer(Session s) {
    return (AffinityScorer) s.callbacks().normalizingScorers().stream().filter(f -> f instanceof AffinityScorer)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void normalizeIsMinToMaxOnHundredTruncatedThenWeighted() {
    double[] s = {0, 5, 10};
    AffinityScorer.normalize(s, 2);
    assertArrayEquals(new double[] {0, 100, 200}, s);
    double[] negative = {-10, 0, 10};
    AffinityScorer.normalize(negative, 1);
    assertArrayEquals(new double[] {0, 50, 100}, negative);
    double[] truncated = {0, 1, 3};
    AffinityScorer.normalize(truncated, 1);
    assertArrayEquals(new double[] {0, 33, 100}, truncated);
    double[] equal = {7, 7};
    AffinityScorer.normalize(equal, 2);
    assertArrayEquals(new double[] {0, 0}, equal, "nothing to tell apart");
  }

  @Test
  void aPodWithoutTermsOnAClusterWithoutTermsScoresZeroAndIsSigned() {
    Session s = Affinities.open(CHINA_INDIA_AZ, List.of(on("default/p", "machine1", "security", "S1"), incoming()));
    TaskInfo task = TestSessions.task(s, "default/incoming");
    assertEquals(AffinityScorer.ZERO, scorer(s).sign(task));
    assertEquals(0, scorer(s).score(task, TestSessions.nodeInfo(s, "machine1")));
  }

  @Test
  void preferredAffinityFavoursTheDomainOfMatchingPodsWithTheTopologyKey() {
    Pod pod = terms().preferAffinity(5, term("region", expr("security", "In", "S1"))).on(incoming());
    List<Pod> existing = List.of(on("default/p1", "machine1", "security", "S1"),
        on("default/p2", "machine2", "security", "S2"), on("default/p3", "machine3", "security", "S1"));
    assertArrayEquals(new double[] {5, 0, 0}, scores(CHINA_INDIA_AZ, existing, pod, false),
        "machine3's pod matches but its node has no region");
    assertArrayEquals(new double[] {100, 0, 0}, scores(CHINA_INDIA_AZ, existing, pod, true));
  }

  @Test
  void nodesOfOneDomainScoreAlike() {
    List<Node> nodes = List.of(node("machine1", "region", "China"), node("machine2", "region", "China"),
        node("machine3", "region", "India"));
    Pod pod = terms().preferAffinity(5, term("region", expr("security", "In", "S1"))).on(incoming());
    assertArrayEquals(new double[] {100, 100, 0},
        scores(nodes, List.of(on("default/p1", "machine1", "security", "S1")), pod, true));
  }

  @Test
  void preferredAntiAffinityTakesOffPerMatchingPod() {
    List<Node> nodes = List.of(node("machine1", "region", "China"), node("machine2", "region", "China"),
        node("machine3", "region", "India"));
    Pod pod = terms().preferAnti(3, term("kubernetes.io/hostname", labels("app", "db")))
        .preferAffinity(1, term("region", labels("app", "db"))).on(incoming());
    List<Pod> existing = List.of(on("default/d1", "machine1", "app", "db"), on("default/d2", "machine1", "app", "db"));
    // machine1: -3 x 2 + 1 x 2 = -4; machine2: the region's 2; machine3: 0.
    assertArrayEquals(new double[] {-4, 2, 0}, scores(nodes, existing, pod, false));
    assertArrayEquals(new double[] {0, 100, 66}, scores(nodes, existing, pod, true));
  }

  @Test
  void existingPodsTermsScoreTheIncomingPod() {
    List<Node> nodes = List.of(node("machine1", "region", "China"), node("machine2", "region", "China"),
        node("machine3", "region", "India"));
    Pod hard = terms().affinity(term("kubernetes.io/hostname", labels("app", "web")))
        .on(on("default/e1", "machine1", "x", "y"));
    Pod soft = terms().preferAffinity(4, term("region", labels("app", "web"))).on(on("default/e2", "machine3"));
    Pod avoid = terms().preferAnti(2, term("region", labels("app", "web"))).on(on("default/e3", "machine2"));
    // machine1: hard weight 1 (its host) - 2 (China avoided); machine2: -2; machine3: +4.
    assertArrayEquals(new double[] {-1, -2, 4},
        scores(nodes, List.of(hard, soft, avoid), incoming("app", "web"), false));
    assertArrayEquals(new double[] {0, 0, 0}, scores(nodes, List.of(hard, soft, avoid), incoming("app", "db"), false),
        "no term matches another app");
    Session s = Affinities.open(nodes, List.of(hard, soft, avoid, incoming("app", "web")));
    assertNull(scorer(s).sign(TestSessions.task(s, "default/incoming")), "existing terms match it: not signed");
  }

  @Test
  void podaffinityWeightZeroRegistersNoScorer() {
    String conf = Affinities.CONF.replace("- name: nodeorder",
        "- name: nodeorder\n    arguments:\n      podaffinity.weight: 0");
    Session s = Affinities.open(CHINA_INDIA_AZ, List.of(incoming()), conf);
    assertEquals(0, s.callbacks().scorers().stream().filter(f -> f instanceof AffinityScorer).count());
  }
}
