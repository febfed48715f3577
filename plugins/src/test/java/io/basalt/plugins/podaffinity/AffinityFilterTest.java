package io.basalt.plugins.podaffinity;

import static io.basalt.plugins.podaffinity.Affinities.expr;
import static io.basalt.plugins.podaffinity.Affinities.exprs;
import static io.basalt.plugins.podaffinity.Affinities.inNamespaces;
import static io.basalt.plugins.podaffinity.Affinities.labels;
import static io.basalt.plugins.podaffinity.Affinities.req;
import static io.basalt.plugins.podaffinity.Affinities.term;
import static io.basalt.plugins.podaffinity.Affinities.terms;
import static io.basalt.plugins.podaffinity.Affinities.withKeys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.model.LabelSelector;
import io.basalt.model.Namespace;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The filter, after the cases of kube-scheduler's interpodaffinity filter tests: one node labelled region r1, zone
 * z11, an existing pod on it, and an incoming pod with terms.
 */
class AffinityFilterTest {
  static final String OK = null;
  static final String AFFINITY = "node(s) didn't match pod affinity rules";
  static final String ANTI = "node(s) didn't match pod anti-affinity rules";
  static final String EXISTING = "node(s) didn't satisfy existing pods anti-affinity rules";

  private static Node node(String name, String... labels) {
    TestNodes n = TestNodes.node(name).cpu("8").memory("32Gi");
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.build();
  }

  private static final Node NODE1 = node("node1", "region", "r1", "zone", "z11");

  private static Pod existing(String key, String... labels) {
    TestPods p = TestPods.pod(key).cpu("1").onNode("node1");
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

  /** The filter's answer for {@code pod} on each of {@code nodes}, asked plainly and prepared (they must agree). */
  static List<String> verdicts(List<Node> nodes, List<Pod> existing, Pod pod) {
    List<Pod> all = new ArrayList<>(existing);
    all.add(pod);
    Session s = Affinities.open(nodes, all);
    TaskInfo task = TestSessions.task(s, pod.key());
    AffinityFilter filter = (AffinityFilter) s.callbacks().filterChain().stream()
        .filter(f -> f instanceof AffinityFilter).findFirst().orElseThrow();
    Function<NodeInfo, FilterResult> prepared = filter.forTask(task);
    List<String> out = new ArrayList<>();
    for (Node n : nodes) {
      NodeInfo info = TestSessions.nodeInfo(s, n.name());
      FilterResult asked = s.callbacks().filter(task, info);
      FilterResult p = prepared == null ? FilterResult.OK : prepared.apply(info);
      assertEquals(asked, p, "prepared filter on " + n.name());
      out.add(asked.reason());
    }
    return out;
  }

  static String verdict(List<Pod> existing, Pod pod) {
    return verdicts(List.of(NODE1), existing, pod).get(0);
  }

  @Test
  void aPodWithoutTermsFitsAnEmptyNode() {
    assertEquals(OK, verdict(List.of(), incoming()));
  }

  @Test
  void affinityInMatchingTheExistingPodFits() {
    Pod pod = terms().affinity(term("region", expr("security", "In", "securityscan", "value2"))).on(incoming());
    assertEquals(OK, verdict(List.of(existing("default/e", "security", "securityscan")), pod));
  }

  @Test
  void affinityNotInThatTheExistingPodSatisfiesFits() {
    Pod pod = terms().affinity(term("region", expr("security", "NotIn", "securityscan3", "value3"))).on(incoming());
    assertEquals(OK, verdict(List.of(existing("default/e", "security", "securityscan")), pod));
  }

  @Test
  void affinityInAnotherNamespaceDoesNotCountThisOne() {
    Pod pod = terms().affinity(inNamespaces("region", expr("security", "In", "securityscan"), List.of("DiffNameSpace"), null))
        .on(incoming());
    assertEquals(AFFINITY, verdict(List.of(existing("default/e", "security", "securityscan")), pod));
  }

  @Test
  void affinityNotMatchingTheExistingPodFails() {
    Pod pod = terms().affinity(term("region", expr("security", "In", "antivirusscan", "value2"))).on(incoming());
    assertEquals(AFFINITY, verdict(List.of(existing("default/e", "security", "securityscan")), pod));
  }

  @Test
  void allExpressionsOfASelectorMustHold() {
    Pod both = terms().affinity(term("region", exprs(req("security", "Exists"), req("wrongkey", "DoesNotExist"))))
        .on(incoming());
    assertEquals(OK, verdict(List.of(existing("default/e", "security", "securityscan")), both));
    Pod broken = terms().affinity(term("region", exprs(req("security", "In", "securityscan"),
        req("security", "NotIn", "securityscan")))).on(incoming());
    assertEquals(AFFINITY, verdict(List.of(existing("default/e", "security", "securityscan")), broken));
  }

  @Test
  void everyAffinityTermMustMatchTheSamePod() {
    Pod pod = terms().affinity(term("region", labels("security", "securityscan")))
        .affinity(term("zone", labels("app", "db"))).on(incoming());
    // One pod matches the first term and another the second: no pod matches both.
    assertEquals(AFFINITY, verdict(List.of(existing("default/e1", "security", "securityscan"),
        existing("default/e2", "app", "db")), pod));
    assertEquals(OK, verdict(List.of(existing("default/e", "security", "securityscan", "app", "db")), pod));
  }

  @Test
  void affinityAndAnAntiAffinityThatMatchesNothingFit() {
    Pod pod = terms().affinity(term("region", labels("security", "securityscan")))
        .anti(term("zone", expr("security", "In", "antivirusscan", "value2"))).on(incoming());
    assertEquals(OK, verdict(List.of(existing("default/e", "security", "securityscan")), pod));
  }

  @Test
  void antiAffinityMatchingAPodInTheZoneFails() {
    Pod pod = terms().anti(term("zone", labels("security", "securityscan"))).on(incoming());
    assertEquals(ANTI, verdict(List.of(existing("default/e", "security", "securityscan")), pod));
  }

  @Test
  void antiAffinityOverAKeyTheNodeLacksHolds() {
    Pod pod = terms().anti(term("rack", labels("security", "securityscan"))).on(incoming());
    assertEquals(OK, verdict(List.of(existing("default/e", "security", "securityscan")), pod));
  }

  @Test
  void anExistingPodsAntiAffinityRefusesAPodWithoutTerms() {
    Pod e = terms().anti(term("zone", labels("service", "securityscan"))).on(existing("default/e", "app", "x"));
    assertEquals(EXISTING, verdict(List.of(e), incoming("service", "securityscan")));
    assertEquals(OK, verdict(List.of(e), incoming("service", "other")), "its selector does not match");
    Pod overRack = terms().anti(term("rack", labels("service", "securityscan"))).on(existing("default/e", "a", "b"));
    assertEquals(OK, verdict(List.of(overRack), incoming("service", "securityscan")), "the node has no rack");
  }

  @Test
  void anExistingPodsAntiAffinityCountsOnlyItsNamespacesByDefault() {
    Pod e = terms().anti(term("zone", labels("service", "s"))).on(existing("other/e"));
    assertEquals(OK, verdict(List.of(e), incoming("service", "s")), "its term names its own namespace only");
  }

  @Test
  void namespaceSelectorReadsTheNamespacesNameLabel() {
    Pod e = existing("team-a/e", "security", "securityscan");
    LabelSelector sel = labels("security", "securityscan");
    assertEquals(OK, verdict(List.of(e), terms().affinity(inNamespaces("region", sel, List.of(),
        expr("kubernetes.io/metadata.name", "In", "team-a"))).on(incoming())));
    assertEquals(AFFINITY, verdict(List.of(e), terms().affinity(inNamespaces("region", sel, List.of(),
        expr("kubernetes.io/metadata.name", "In", "team-b"))).on(incoming())));
    assertEquals(OK, verdict(List.of(e), terms().affinity(inNamespaces("region", sel, List.of(), LabelSelector.EVERYTHING))
        .on(incoming())), "an empty namespace selector: every namespace");
    assertEquals(OK, verdict(List.of(e), terms().affinity(inNamespaces("region", sel, List.of("team-a"), null))
        .on(incoming())), "listed by name");
  }

  @Test
  void namespaceSelectorReadsTheNamespacesOwnLabels() {
    Pod e = existing("team-a/e", "security", "securityscan");
    Pod pod = terms().affinity(inNamespaces("region", labels("security", "securityscan"), List.of(),
        labels("team", "ml"))).on(incoming());
    TestSessions cluster = TestSessions.cluster().node(NODE1).pod(e).pod(pod);
    Session before = cluster.open(Affinities.REGISTRY, Affinities.CONF);
    assertEquals(AFFINITY, before.callbacks().filter(TestSessions.task(before, pod.key()),
        TestSessions.nodeInfo(before, "node1")).reason(), "no Namespace object: team-a has only its name label");
    cluster.cache().putNamespace(new Namespace("team-a", Map.of("team", "ml")));
    Session s = cluster.open(Affinities.REGISTRY, Affinities.CONF);
    assertEquals(OK, s.callbacks().filter(TestSessions.task(s, pod.key()), TestSessions.nodeInfo(s, "node1"))
        .reason());
  }

  @Test
  void anAbsentSelectorMatchesNoPod() {
    Pod pod = terms().anti(term("zone", null)).on(incoming());
    assertEquals(OK, verdict(List.of(existing("default/e", "security", "securityscan")), pod));
    Pod everything = terms().anti(term("zone", LabelSelector.EVERYTHING)).on(incoming());
    assertEquals(ANTI, verdict(List.of(existing("default/e", "security", "securityscan")), everything));
  }

  @Test
  void matchLabelKeysTakeTheIncomingPodsValue() {
    Pod pod = terms().affinity(withKeys("region", labels("app", "web"), List.of("version"), List.of()))
        .on(incoming("app", "client", "version", "v1"));
    assertEquals(AFFINITY, verdict(List.of(existing("default/e", "app", "web", "version", "v2")), pod));
    assertEquals(OK, verdict(List.of(existing("default/e", "app", "web", "version", "v1")), pod));
  }

  @Test
  void mismatchLabelKeysExcludeTheIncomingPodsValue() {
    Pod pod = terms().anti(withKeys("zone", expr("app", "Exists"), List.of(), List.of("tenant")))
        .on(incoming("tenant", "a"));
    assertEquals(ANTI, verdict(List.of(existing("default/e", "app", "x", "tenant", "b")), pod),
        "another tenant's pod");
    assertEquals(OK, verdict(List.of(existing("default/e", "app", "x", "tenant", "a")), pod), "its own tenant's");
  }

  @Test
  void anExistingPodsMatchLabelKeysTakeItsOwnValue() {
    Pod e = terms().anti(withKeys("zone", expr("app", "Exists"), List.of("app"), List.of()))
        .on(existing("default/e", "app", "web"));
    assertEquals(EXISTING, verdict(List.of(e), incoming("app", "web")));
    assertEquals(OK, verdict(List.of(e), incoming("app", "db")));
  }

  @Test
  void theFirstPodOfASelfAffineGroupGoesWhereItsKeysAre() {
    List<Node> nodes = List.of(NODE1, node("node2", "zone", "z2"), node("node3", "region", "r2", "zone", "z3"));
    Pod first = terms().affinity(term("region", labels("app", "db"))).on(incoming("app", "db"));
    assertEquals(java.util.Arrays.asList(OK, AFFINITY, OK), verdicts(nodes, List.of(), first),
        "no pod matches anywhere, and it matches itself: any node with a region");
    Pod stranger = terms().affinity(term("region", labels("app", "db"))).on(incoming("app", "web"));
    assertEquals(List.of(AFFINITY, AFFINITY, AFFINITY), verdicts(nodes, List.of(), stranger),
        "its own labels do not match its term");
    Pod db = TestPods.pod("default/db").cpu("1").label("app", "db").onNode("node3").build();
    assertEquals(java.util.Arrays.asList(AFFINITY, AFFINITY, OK), verdicts(nodes, List.of(db), first),
        "once a matching pod runs somewhere, only its region");
  }

  @Test
  void aPodWithoutTermsPassesEveryNodeUnprepared() {
    Session s = Affinities.open(List.of(NODE1), List.of(existing("default/e", "a", "b"), incoming()));
    AffinityFilter filter = (AffinityFilter) s.callbacks().filterChain().stream()
        .filter(f -> f instanceof AffinityFilter).findFirst().orElseThrow();
    TaskInfo task = TestSessions.task(s, "default/incoming");
    assertNull(filter.forTask(task), "nothing to ask");
    assertEquals(AffinityFilter.FITS, filter.sign(task), "its answer is kept as any node-local one");
    Pod e = terms().anti(term("zone", labels("service", "s"))).on(existing("default/e", "a", "b"));
    Session refused = Affinities.open(List.of(NODE1), List.of(e, incoming("service", "s")));
    AffinityFilter f2 = (AffinityFilter) refused.callbacks().filterChain().stream()
        .filter(f -> f instanceof AffinityFilter).findFirst().orElseThrow();
    TaskInfo t2 = TestSessions.task(refused, "default/incoming");
    assertNull(f2.sign(t2), "an existing pod's anti-affinity matches it: not signed");
    assertNotNull(f2.forTask(t2));
  }

  @Test
  void predicatePodAffinityEnableFalseTurnsTheFilterOff() {
    String conf = Affinities.CONF.replace("- name: predicates",
        "- name: predicates\n    arguments:\n      predicate.PodAffinityEnable: false");
    Pod pod = terms().anti(term("zone", labels("security", "securityscan"))).on(incoming());
    Session s = Affinities.open(List.of(NODE1), List.of(existing("default/e", "security", "securityscan"), pod), conf);
    assertEquals(true, s.callbacks().filter(TestSessions.task(s, pod.key()), TestSessions.nodeInfo(s, "node1")).ok());
  }
}
