package io.basalt.plugins.podaffinity;

import static io.basalt.plugins.podaffinity.Affinities.labels;
import static io.basalt.plugins.podaffinity.Affinities.term;
import static io.basalt.plugins.podaffinity.Affinities.terms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.actions.ActionRegistry;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.plugins.gang.GangPlugin;
import io.basalt.plugins.nodeorder.NodeOrderPlugin;
import io.basalt.plugins.predicates.PredicatesPlugin;
import io.basalt.search.NodeSearch;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Inter-pod affinity through whole sessions: gangs whose members' placements count for the next member, a discarded
 * gang leaving nothing, and the node search retrying pods whose answer a placement or eviction elsewhere changed.
 */
class PodAffinitySessionTest {
  private static final PluginRegistry REGISTRY =
      PluginRegistry.of(PredicatesPlugin.descriptor(), NodeOrderPlugin.descriptor(), GangPlugin.descriptor());
  private static final String CONF = """
      actions: "enqueue, allocate"
      tiers:
      - plugins:
        - name: gang
      - plugins:
        - name: predicates
        - name: nodeorder
      """;
  private static final String HOST = "kubernetes.io/hostname";

  private static Node node(String name, String cpu, String zone) {
    return TestNodes.node(name).cpu(cpu).memory("64Gi").label(HOST, name).label("zone", zone).build();
  }

  /** A big node least-requested prefers for every pod, and two small ones. */
  private static final List<Node> NODES =
      List.of(node("big", "64", "a"), node("small1", "4", "b"), node("small2", "4", "c"));

  private static Session schedule(List<Pod> pods, int minMember, String conf) {
    TestSessions cluster = TestSessions.cluster();
    NODES.forEach(cluster::node);
    pods.forEach(cluster::pod);
    cluster.podGroup(new PodGroup("ml", "workers", minMember, Map.of(), "default", null, null, "Inqueue", null));
    Session s = cluster.open(REGISTRY, conf);
    ActionRegistry actions = ActionRegistry.builtin();
    actions.create("enqueue", Arguments.empty()).execute(s);
    actions.create("allocate", Arguments.empty()).execute(s);
    return s;
  }

  private static List<Pod> workers(int n) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pods.add(terms().anti(term(HOST, labels("app", "worker")))
          .on(TestPods.pod("ml/worker-" + i).cpu("1").group("workers").label("app", "worker").build()));
    }
    return pods;
  }

  private static Set<String> nodesOf(Session s, List<Pod> pods) {
    Set<String> nodes = new HashSet<>();
    for (Pod p : pods) {
      nodes.add(TestSessions.task(s, p.key()).nodeName());
    }
    return nodes;
  }

  @Test
  void aGangOfThreeWithHostnameAntiAffinityTakesThreeNodes() {
    List<Pod> gang = workers(3);
    assertEquals(Set.of("big", "small1", "small2"), nodesOf(schedule(gang, 3, CONF), gang));
    String off = CONF.replace("- name: predicates",
        "- name: predicates\n    arguments:\n      predicate.PodAffinityEnable: false");
    assertEquals(Set.of("big"), nodesOf(schedule(gang, 3, off), gang), "without the filter: all on the big node");
  }

  @Test
  void aGangOfFourOnThreeNodesWaitsWholeAndLeavesNothing() {
    List<Pod> pods = new ArrayList<>(workers(4));
    // A later pod that refuses workers on its host: the discarded gang must not count.
    Pod loner = terms().anti(term(HOST, labels("app", "worker"))).on(TestPods.pod("ml/loner").cpu("1").build());
    pods.add(loner);
    Session s = schedule(pods, 4, CONF);
    for (Pod p : pods.subList(0, 4)) {
      assertNull(TestSessions.task(s, p.key()).nodeName(), p.key() + " placed");
    }
    assertEquals("big", TestSessions.task(s, "ml/loner").nodeName());
  }

  @Test
  void aPodWhoseAffinityIsMetByAPlacementElsewhereIsRetried() {
    Pod client = terms().affinity(term("zone", labels("app", "db"))).on(TestPods.pod("ml/client").cpu("1").build());
    Pod db = TestPods.pod("ml/db").cpu("1").label("app", "db").build();
    TestSessions cluster = TestSessions.cluster();
    NODES.forEach(cluster::node);
    Session s = cluster.pod(client).pod(db).open(REGISTRY, CONF);
    NodeSearch search = new NodeSearch(0);
    TaskInfo c = TestSessions.task(s, "ml/client");
    NodeSearch.Result none = search.find(s, c);
    assertNull(none.node());
    assertEquals("0/3 nodes are available: 3 node(s) didn't match pod affinity rules.", none.fitError());
    Statement st = s.newStatement();
    st.allocate(TestSessions.task(s, "ml/db"), TestSessions.nodeInfo(s, "small2"));
    NodeSearch.Result found = search.find(s, c);
    assertNotNull(found.node(), "small2 did not give room back, yet its zone now holds a db: " + found.fitError());
    assertEquals("small2", found.node().name());
    st.discard();
    assertEquals("0/3 nodes are available: 3 node(s) didn't match pod affinity rules.", search.find(s, c).fitError(),
        "the discarded placement leaves nothing");
  }

  @Test
  void anEvictionOnAFullNodeFreesTheOtherNodesOfItsZone() {
    // full and spare share zone a; a db pod fills full; the pod avoiding dbs in its zone fits nowhere.
    List<Node> nodes = List.of(node("full", "1", "a"), node("spare", "4", "a"));
    Pod db = TestPods.pod("ml/db").cpu("1").label("app", "db").onNode("full").build();
    Pod avoid = terms().anti(term("zone", labels("app", "db"))).on(TestPods.pod("ml/avoid").cpu("2").build());
    TestSessions cluster = TestSessions.cluster();
    nodes.forEach(cluster::node);
    Session s = cluster.pod(db).pod(avoid).open(REGISTRY, CONF);
    NodeSearch search = new NodeSearch(0);
    TaskInfo t = TestSessions.task(s, "ml/avoid");
    assertEquals("0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules.",
        search.find(s, t).fitError());
    s.newStatement().evict(TestSessions.task(s, "ml/db"), "test");
    // Only full gave room back, and it is too small for the pod: spare, unchanged, must be asked again.
    NodeSearch.Result r = search.find(s, t);
    assertNotNull(r.node(), r.fitError());
    assertEquals("spare", r.node().name());
  }
}
