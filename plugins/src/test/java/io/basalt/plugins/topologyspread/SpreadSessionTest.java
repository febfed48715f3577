package io.basalt.plugins.topologyspread;

import static io.basalt.plugins.topologyspread.Spreads.HOST;
import static io.basalt.plugins.topologyspread.Spreads.ZONE;
import static io.basalt.plugins.topologyspread.Spreads.feasible;
import static io.basalt.plugins.topologyspread.Spreads.fourNodes;
import static io.basalt.plugins.topologyspread.Spreads.hard;
import static io.basalt.plugins.topologyspread.Spreads.node;
import static io.basalt.plugins.topologyspread.Spreads.open;
import static io.basalt.plugins.topologyspread.Spreads.spread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.model.Pod;
import io.basalt.search.NodeSearch;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Counts follow the session: what a statement places counts for the next pod (a gang spreads within one cycle), a
 * discarded statement leaves nothing, an eviction takes its pod out, and the node search retries a spread pod that
 * found no node once a placement elsewhere changes the counts.
 */
class SpreadSessionTest {
  private static Pod member(String name, String cpu) {
    return spread(TestPods.pod(name).label("foo", "").cpu(cpu).build(), hard(1, ZONE));
  }

  @Test
  void placementsOfTheStatementCountForTheNextMember() {
    Session s = open(fourNodes().pod(member("m1", "1")).pod(member("m2", "1")).pod(member("m3", "1")));
    Statement st = s.newStatement();
    st.allocate(TestSessions.task(s, "default/m1"), TestSessions.nodeInfo(s, "node-a"));
    assertEquals(List.of("node-x", "node-y"), feasible(s, "default/m2"));
    st.allocate(TestSessions.task(s, "default/m2"), TestSessions.nodeInfo(s, "node-y"));
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/m3"));
    st.discard();
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/m2"));
    Statement again = s.newStatement();
    again.allocate(TestSessions.task(s, "default/m2"), TestSessions.nodeInfo(s, "node-x"));
    assertEquals(List.of("node-a", "node-b"), feasible(s, "default/m3"), "the discarded placements left nothing");
  }

  @Test
  void countsFirstAskedMidSessionIncludeEarlierPlacements() {
    // m1 carries no constraint of its own, so nothing was counted when it was placed; m2 then asks.
    Pod plain = TestPods.pod("m1").label("foo", "").cpu("1").build();
    Session s = open(fourNodes().pod(plain).pod(member("m2", "1")));
    s.newStatement().allocate(TestSessions.task(s, "default/m1"), TestSessions.nodeInfo(s, "node-b"));
    assertEquals(List.of("node-x", "node-y"), feasible(s, "default/m2"));
  }

  @Test
  void anEvictedPodNoLongerCountsAndItsUndoCountsAgain() {
    Pod running = TestPods.pod("r1").label("foo", "").onNode("node-a").phase("Running").cpu("1").build();
    Session s = open(fourNodes().pod(running).pod(member("m1", "1")));
    assertEquals(List.of("node-x", "node-y"), feasible(s, "default/m1"));
    Statement st = s.newStatement();
    st.evict(TestSessions.task(s, "default/r1"), "test");
    assertEquals(List.of("node-a", "node-b", "node-x", "node-y"), feasible(s, "default/m1"));
    st.discard();
    assertEquals(List.of("node-x", "node-y"), feasible(s, "default/m1"));
  }

  @Test
  void pipelinedPlacementsCountToo() {
    Session s = open(fourNodes().pod(member("m1", "1")).pod(member("m2", "1")));
    s.newStatement().pipeline(TestSessions.task(s, "default/m1"), TestSessions.nodeInfo(s, "node-x"));
    assertEquals(List.of("node-a", "node-b"), feasible(s, "default/m2"));
  }

  /**
   * zone1 (node-a, 16 cpu) holds one matching pod; zone2's node-x has 2 cpu free. A big member fits nowhere: node-a
   * would make the skew 2, node-x is too small. A small matching pod then lands on node-x: nothing gave room back,
   * but zone2 now counts 1, so node-a takes the big one. The search must not answer from its "no node fits" memo.
   */
  @Test
  void aSpreadPodThatFoundNoNodeIsRetriedAfterAPlacementElsewhere() {
    TestSessions cluster = TestSessions.cluster()
        .node(node("node-a", "zone1").cpu("16").build())
        .node(node("node-x", "zone2").cpu("2").build())
        .pod(TestPods.pod("r1").label("foo", "").onNode("node-a").phase("Running").cpu("1").build())
        .pod(member("big", "8"))
        .pod(member("big2", "8"))
        .pod(TestPods.pod("small").label("foo", "").cpu("1").build());
    Session s = open(cluster);
    NodeSearch search = new NodeSearch(0);
    TaskInfo big = TestSessions.task(s, "default/big");
    NodeSearch.Result first = search.find(s, big);
    assertNull(first.node());
    assertEquals("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints.",
        first.fitError());
    // Same shape again: the memo answers, with the same message.
    assertEquals(first.fitError(), search.find(s, TestSessions.task(s, "default/big2")).fitError());
    NodeInfo x = TestSessions.nodeInfo(s, "node-x");
    s.newStatement().allocate(TestSessions.task(s, "default/small"), x);
    NodeSearch.Result retried = search.find(s, big);
    assertNotNull(retried.node(), "a placement in zone2 made node-a fit");
    assertEquals("node-a", retried.node().name());
  }

  @Test
  void theFitErrorFollowsCountsThatMovedOnOtherNodes() {
    // node-a (zone1, one matching pod, 3 cpu free) is refused by the spread, node-x (zone2) is too small. A small pod
    // lands on node-x: node-a did not change, yet it is now refused only for its room.
    TestSessions cluster = TestSessions.cluster()
        .node(node("node-a", "zone1").cpu("4").build())
        .node(node("node-x", "zone2").cpu("2").build())
        .pod(TestPods.pod("r1").label("foo", "").onNode("node-a").phase("Running").cpu("1").build())
        .pod(member("big", "8"))
        .pod(TestPods.pod("small").label("foo", "").cpu("1").build());
    Session s = open(cluster);
    NodeSearch search = new NodeSearch(0);
    TaskInfo big = TestSessions.task(s, "default/big");
    assertEquals("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints.",
        search.find(s, big).fitError());
    s.newStatement().allocate(TestSessions.task(s, "default/small"), TestSessions.nodeInfo(s, "node-x"));
    assertEquals("0/2 nodes are available: 2 Insufficient cpu.", search.find(s, big).fitError());
  }
}
