package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.PodSigner;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.TaskFilter;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.CountingSelector;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A remembered "no node fits" survives room freed on nodes that still refuse the shape, is dropped when a freed node
 * takes it, and its message stays the one a full pass over the nodes would give.
 */
class NoFitMemoTest {
  private final Map<String, Integer> filterCalls = new HashMap<>();

  /**
   * A nodeSelector filter counting its calls per pod; signed with the selector (it reads the node alone) unless
   * {@code unsigned}, as a filter that reads other pods must be.
   */
  private final class Selector implements Plugin {
    private final boolean unsigned;

    Selector(boolean unsigned) {
      this.unsigned = unsigned;
    }

    @Override
    public String name() {
      return "test";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      TaskFilter counting = CountingSelector.counting(filterCalls);
      registrar.addFilter(unsigned ? counting : PodSigner.signedFilter(counting, t -> t.pod().nodeSelector()));
    }
  }

  private Session open(TestSessions cluster) {
    return open(cluster, false);
  }

  private Session open(TestSessions cluster, boolean unsigned) {
    return cluster.open(PluginRegistry.of(PluginDescriptor.of("test", () -> new Selector(unsigned))),
        "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: test\n");
  }

  /**
   * A filter that signs nothing may read other nodes' pods (topology spread does): a placement elsewhere, though it
   * gives no room back, may make a node take the shape, so the next search asks every node again.
   */
  @Test
  void anUnsignedShapeIsForgottenAtAnyNodeChange() {
    Session s = open(cluster(), true);
    NodeSearch search = new NodeSearch(100);
    s.newStatement().allocate(TestSessions.task(s, "ns/filler"), TestSessions.nodeInfo(s, "b1"));
    assertNull(search.probe(s, TestSessions.task(s, "ns/wants-b")));
    int quiet = filterCalls.getOrDefault("ns/wants-b-too", 0);
    assertNull(search.probe(s, TestSessions.task(s, "ns/wants-b-too")));
    assertEquals(quiet, filterCalls.getOrDefault("ns/wants-b-too", 0), "nothing changed: the memo answers");
    s.newStatement().allocate(TestSessions.task(s, "ns/small"), TestSessions.nodeInfo(s, "a1"));
    int before = filterCalls.getOrDefault("ns/wants-b-too", 0);
    assertNull(search.probe(s, TestSessions.task(s, "ns/wants-b-too")));
    assertTrue(filterCalls.getOrDefault("ns/wants-b-too", 0) - before >= 1, "asked again after a placement");
  }

  private static TestSessions cluster() {
    return TestSessions.cluster()
        .node(TestNodes.node("a1").cpu("8").label("zone", "a").build())
        .node(TestNodes.node("a2").cpu("8").label("zone", "a").build())
        .node(TestNodes.node("b1").cpu("8").label("zone", "b").build())
        .pod(TestPods.pod("ns/filler").cpu("8").build())
        .pod(TestPods.pod("ns/small").cpu("2").build())
        .pod(TestPods.pod("ns/wants-b").cpu("4").nodeSelector("zone", "b").build())
        .pod(TestPods.pod("ns/wants-b-too").cpu("4").nodeSelector("zone", "b").build());
  }

  @Test
  void roomFreedWhereTheShapeIsRefusedKeepsTheAnswer() {
    Session s = open(cluster());
    NodeSearch search = new NodeSearch(100);
    Statement fill = s.newStatement();
    fill.allocate(TestSessions.task(s, "ns/filler"), TestSessions.nodeInfo(s, "b1"));
    TaskInfo wantsB = TestSessions.task(s, "ns/wants-b");
    assertNull(search.probe(s, wantsB));
    Statement trial = s.newStatement();
    trial.allocate(TestSessions.task(s, "ns/small"), TestSessions.nodeInfo(s, "a1"));
    trial.discard(); // gives room back on a1, which refuses zone b
    int before = filterCalls.getOrDefault("ns/wants-b", 0) + filterCalls.getOrDefault("ns/wants-b-too", 0);
    assertNull(search.probe(s, TestSessions.task(s, "ns/wants-b-too")));
    int after = filterCalls.getOrDefault("ns/wants-b", 0) + filterCalls.getOrDefault("ns/wants-b-too", 0);
    assertEquals(1, after - before, "only the freed node a1 is asked again, not every node");
  }

  @Test
  void roomFreedWhereTheShapeFitsDropsTheAnswer() {
    Session s = open(cluster());
    NodeSearch search = new NodeSearch(100);
    Statement fill = s.newStatement();
    fill.allocate(TestSessions.task(s, "ns/filler"), TestSessions.nodeInfo(s, "b1"));
    assertNull(search.probe(s, TestSessions.task(s, "ns/wants-b")));
    fill.discard();
    NodeInfo found = search.probe(s, TestSessions.task(s, "ns/wants-b-too"));
    assertEquals("b1", found == null ? null : found.name());
  }

  @Test
  void theMessageIsAFullPassesOnceRoomWasGivenBack() {
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("a1").cpu("8").memory("8Gi").label("zone", "a").build())
        .node(TestNodes.node("a2").cpu("8").memory("8Gi").label("zone", "a").build())
        .node(TestNodes.node("b1").cpu("8").memory("8Gi").label("zone", "b").build())
        .pod(TestPods.pod("ns/memory-hog").cpu("1").memory("8Gi").build())
        .pod(TestPods.pod("ns/cpu-hog").cpu("7").build())
        .pod(TestPods.pod("ns/small").cpu("2").build())
        .pod(TestPods.pod("ns/wants-b").cpu("4").memory("1Gi").nodeSelector("zone", "b").build())
        .pod(TestPods.pod("ns/wants-b-too").cpu("4").memory("1Gi").nodeSelector("zone", "b").build()));
    NodeSearch search = new NodeSearch(100);
    Statement hogs = s.newStatement();
    hogs.allocate(TestSessions.task(s, "ns/memory-hog"), TestSessions.nodeInfo(s, "b1"));
    assertEquals("0/3 nodes are available: 1 Insufficient memory, 2 node(s) didn't match Pod's node affinity/selector.",
        search.find(s, TestSessions.task(s, "ns/wants-b")).fitError());
    hogs.allocate(TestSessions.task(s, "ns/cpu-hog"), TestSessions.nodeInfo(s, "b1")); // b1 now short of cpu first
    Statement trial = s.newStatement();
    trial.allocate(TestSessions.task(s, "ns/small"), TestSessions.nodeInfo(s, "a1"));
    trial.discard();
    TaskInfo other = TestSessions.task(s, "ns/wants-b-too");
    String message = search.find(s, other).fitError();
    assertEquals("0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.",
        message);
    assertEquals(NodeSearch.diagnose(s, other, s.nodes()), message);
  }
}
