package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedScorer;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.TaskFilter;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A search keeps each node's verdict for tasks of one key: the next task of that key asks the filters and scorers
 * again only on nodes that changed, and chooses what asking every node would choose; one plugin that names no key
 * turns the keeping off.
 */
class EquivalenceCacheTest {
  private int filterCalls;
  private int scoreCalls;
  /** Calls of the scorer's {@link PreparedScorer#forTask}: how often a search prepared its functions. */
  private int scorerPrepared;

  /** A filter and a most-free-cpu scorer, both counting their calls; {@code keyed} says whether they name a key. */
  private final class Counting implements Plugin {
    private final boolean keyed;
    private final boolean scoresKeyed;

    Counting(boolean keyed, boolean scoresKeyed) {
      this.keyed = keyed;
      this.scoresKeyed = scoresKeyed;
    }

    @Override
    public String name() {
      return "test";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addFilter(new CountingFilter());
      registrar.addScorer(new CountingScorer());
    }

    private final class CountingFilter implements TaskFilter, PodSigner {
      @Override
      public FilterResult filter(TaskInfo task, NodeInfo node) {
        filterCalls++;
        return FilterResult.OK;
      }

      @Override
      public Object sign(TaskInfo task) {
        return keyed ? task.request() : null;
      }
    }

    private final class CountingScorer implements PreparedScorer, PodSigner {
      @Override
      public double score(TaskInfo task, NodeInfo node) {
        scoreCalls++;
        return node.idle(ResourceNames.CPU);
      }

      @Override
      public java.util.function.ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
        scorerPrepared++;
        return node -> score(task, node);
      }

      @Override
      public Object sign(TaskInfo task) {
        return scoresKeyed ? task.request() : null;
      }
    }
  }

  private Session open(boolean keyed) {
    return open(keyed, keyed);
  }

  private Session open(boolean keyed, boolean scoresKeyed) {
    return open(cluster(), keyed, scoresKeyed);
  }

  private static TestSessions cluster() {
    TestSessions cluster = TestSessions.cluster();
    for (int i = 0; i < 6; i++) {
      cluster.node(TestNodes.node("n" + i).cpu(String.valueOf(8 + i)).build());
    }
    for (int i = 0; i < 4; i++) {
      cluster.pod(TestPods.pod("ns/p" + i).cpu("4").build());
    }
    return cluster;
  }

  private Session open(TestSessions cluster, boolean keyed, boolean scoresKeyed) {
    return cluster.open(PluginRegistry.of(PluginDescriptor.of("test", () -> new Counting(keyed, scoresKeyed))),
        "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: test\n");
  }

  /** Places p0..p3 one after another, each on the node the search picks; returns the nodes' names. */
  private static String place(Session s) {
    NodeSearch search = new NodeSearch(100);
    Statement stmt = s.newStatement();
    StringBuilder chosen = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      TaskInfo task = TestSessions.task(s, "ns/p" + i);
      NodeInfo node = search.find(s, task).node();
      stmt.allocate(task, node);
      chosen.append(node.name()).append(' ');
    }
    return chosen.toString().trim();
  }

  @Test
  void theNextTaskOfAKeyAsksOnlyTheNodeThatChanged() {
    String chosen = place(open(true));
    // 6 nodes for the first task, then only the node the previous task went to.
    assertEquals(6 + 3, filterCalls);
    assertEquals(6 + 3, scoreCalls);
    assertEquals("n5 n4 n3 n2", chosen, "most free cpu first, as a full pass chooses");
  }

  @Test
  void tasksOfOneKeyShareTheSearchFunctionsPreparedForTheFirstWithinASession() {
    TestSessions cluster = cluster();
    place(open(cluster, true, true));
    assertEquals(1, scorerPrepared, "four tasks of one key, one preparation");
    place(open(cluster, true, true));
    assertEquals(2, scorerPrepared, "a new session prepares anew");
    place(open(cluster, true, false));
    assertEquals(2 + 4, scorerPrepared, "scores not keyed: prepared per task");
  }

  @Test
  void aPluginWithoutAKeyIsAskedOnEveryNode() {
    String chosen = place(open(false));
    assertEquals(4 * 6, filterCalls);
    assertEquals(4 * 6, scoreCalls);
    assertEquals("n5 n4 n3 n2", chosen);
  }

  @Test
  void verdictsOutliveTheSessionOnNodesTheCacheHandsOnUnchanged() {
    TestSessions cluster = cluster();
    NodeSearch search = new NodeSearch(100);
    Session first = open(cluster, true, true);
    NodeInfo chosen = search.find(first, TestSessions.task(first, "ns/p0")).node();
    assertEquals(6, filterCalls);
    first.newStatement().allocate(TestSessions.task(first, "ns/p0"), chosen); // the session changes that copy

    Session second = open(cluster, true, true);
    assertEquals("n5", search.find(second, TestSessions.task(second, "ns/p1")).node().name());
    assertEquals(6 + 1, filterCalls, "only the copy the first session changed is asked again");
    assertEquals(6 + 1, scoreCalls);

    Session third = open(cluster, true, true);
    search.find(third, TestSessions.task(third, "ns/p2"));
    assertEquals(6 + 1, filterCalls, "nothing changed since the second session");
  }

  @Test
  void verdictsOutliveTheBindOfWhatTheSessionPlaced() {
    TestSessions cluster = cluster();
    NodeSearch search = new NodeSearch(100);
    Session first = open(cluster, true, true);
    TaskInfo p0 = TestSessions.task(first, "ns/p0");
    NodeInfo chosen = search.find(first, p0).node();
    first.newStatement().allocate(p0, chosen);
    search.find(first, TestSessions.task(first, "ns/p1")); // asks the changed node again
    assertEquals(6 + 1, filterCalls);
    // The binder's work, as the informer reports it: the cluster now holds what the session placed.
    cluster.cache().putPod(p0.pod().withNodeName(chosen.name()));

    Session second = open(cluster, true, true);
    assertSame(chosen, TestSessions.nodeInfo(second, chosen.name()), "the copy is kept");
    search.find(second, TestSessions.task(second, "ns/p1"));
    assertEquals(6 + 1, filterCalls, "and what was found on it holds");
  }

  @Test
  void scoresAreKeptWhenOnlyAFilterNamesNoKey() {
    String chosen = place(open(false, true));
    assertEquals(4 * 6, filterCalls);
    assertEquals(6 + 3, scoreCalls);
    assertEquals("n5 n4 n3 n2", chosen);
  }

  /** Many pods of one key: after {@link EquivalenceCache#TREE_AFTER} searches the search goes through a tree. */
  private static TestSessions busyCluster() {
    TestSessions cluster = TestSessions.cluster();
    for (int i = 0; i < 130; i++) { // more than 100: a search stops after 100 feasible nodes
      cluster.node(TestNodes.node("n" + i).cpu(String.valueOf(1 + i % 4)).build());
    }
    for (int i = 0; i < 400; i++) {
      cluster.pod(TestPods.pod("ns/q" + i).cpu("500m").build());
    }
    return cluster;
  }

  private static List<String> placeAll(Session s, NodeSearch search, int from, int to) {
    Statement stmt = s.newStatement();
    List<String> chosen = new ArrayList<>();
    for (int i = from; i < to; i++) {
      TaskInfo task = TestSessions.task(s, "ns/q" + i);
      NodeInfo node = search.find(s, task).node();
      chosen.add(node == null ? "-" : node.name());
      if (node != null) {
        stmt.allocate(task, node);
      }
    }
    stmt.commit();
    return chosen;
  }

  @Test
  void aTreeChoosesWhatScansChooseWithinAndAcrossSessions() {
    TestSessions keyedCluster = busyCluster();
    TestSessions askedCluster = busyCluster();
    NodeSearch keyed = new NodeSearch(20);
    NodeSearch asked = new NodeSearch(20);
    // Within a session: the first 64 searches scan, the rest read the tree kept current from the change log.
    Session k1 = open(keyedCluster, true, true);
    Session a1 = open(askedCluster, false, false);
    assertEquals(placeAll(a1, asked, 0, 200), placeAll(k1, keyed, 0, 200));
    // A new session (the placements were not bound, so the cache hands on fresh copies of the nodes that took them).
    Session k2 = open(keyedCluster, true, true);
    Session a2 = open(askedCluster, false, false);
    assertEquals(placeAll(a2, asked, 0, 400), placeAll(k2, keyed, 0, 400));
  }

  @Test
  void keysAndTreesStayWithinTheMemoryBound() {
    Session s = open(true);
    EquivalenceCache verdicts = new EquivalenceCache(8 * 6, 8, EquivalenceCache.MAX_ENTRIES); // 6 nodes: 8 keys; 8 leaves: one tree of 6 nodes
    for (int k = 0; k < 8; k++) {
      assertNotNull(verdicts.of(s, "key" + k));
    }
    assertNull(verdicts.of(s, "key8"), "a ninth key gets no table: its searches ask every node");
    assertNotNull(verdicts.of(s, "key0"), "a kept key still has its table");
    assertNotNull(verdicts.tree(verdicts.of(s, "key0"), 6));
    assertNull(verdicts.tree(verdicts.of(s, "key1"), 6), "a second tree would pass the leaves bound");
    assertEquals(8, verdicts.size());
    verdicts.of(open(true), "key1");
    assertEquals(8, verdicts.size(), "every key was searched in the last session");
    verdicts.of(open(true), "key1");
    assertEquals(1, verdicts.size(), "keys the last session did not search are dropped with the next one");
  }

  @Test
  void verdictsAreKeptWithoutScoresWhenOnlyAScorerNamesNoKey() {
    String chosen = place(open(true, false));
    assertEquals(6 + 3, filterCalls);
    assertEquals(4 * 6, scoreCalls, "every feasible node is scored every time");
    assertEquals("n5 n4 n3 n2", chosen);
  }

  @Test
  void aKeptVerdictIsTheFullPassVerdict() {
    Session kept = open(true);
    Session asked = open(false);
    NodeSearch search = new NodeSearch(100);
    for (int i = 0; i < 4; i++) {
      NodeInfo a = search.find(kept, TestSessions.task(kept, "ns/p" + i)).node();
      NodeInfo b = search.find(asked, TestSessions.task(asked, "ns/p" + i)).node();
      assertEquals(b.name(), a.name());
      kept.newStatement().allocate(TestSessions.task(kept, "ns/p" + i), a);
      asked.newStatement().allocate(TestSessions.task(asked, "ns/p" + i), b);
    }
  }

  /**
   * A filter that lets only one node through, which one changing between searches while no node changes; it
   * implements {@link PodSigner} or not.
   */
  private static final class Moving implements Plugin {
    private final boolean signs;
    String open = "n1";
    int calls;

    Moving(boolean signs) {
      this.signs = signs;
    }

    @Override
    public String name() {
      return "moving";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      TaskFilter filter = (task, node) -> {
        calls++;
        return node.name().equals(open) ? FilterResult.OK : FilterResult.unfit("closed");
      };
      registrar.addFilter(signs ? PodSigner.signedFilter(filter, TaskInfo::request) : filter);
    }
  }

  private static Moving moving;

  private static NodeInfo findWith(boolean signs) {
    Session s = cluster().open(PluginRegistry.of(PluginDescriptor.of("moving", () -> moving = new Moving(signs))),
        "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: moving\n");
    NodeSearch search = new NodeSearch(100);
    assertEquals("n1", search.find(s, TestSessions.task(s, "ns/p0")).node().name());
    moving.open = "n2";
    // p1 has p0's request and no node changed: only a cache could answer from what p0 was told.
    return search.find(s, TestSessions.task(s, "ns/p1")).node();
  }

  @Test
  void aFilterThatSignsNothingIsAskedAgainOnEverySearch() {
    assertEquals("n2", findWith(false).name(), "the filter's new answer counts");
    assertEquals(12, moving.calls, "each search asked every node");
  }

  @Test
  void aSigningFilterIsAnsweredFromTheCacheOnUnchangedNodes() {
    // The contrast that shows the cache is there to skip: a filter breaking its signature's promise is not asked.
    assertEquals("n1", findWith(true).name());
    assertEquals(6, moving.calls, "the second search asked no node");
  }
}
