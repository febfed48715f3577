package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.api.NodeInfo;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.PodSigner;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import org.junit.jupiter.api.Test;

/**
 * Scores kept for tasks whose verdicts cannot be (some scorer names no key) are the scorer's, asked once per node
 * state, and a session of many shapes keeps a bounded number.
 */
class EquivalenceCacheScoresTest {
  private int asked;

  private final NodeScorer freeCpu = PodSigner.signedScorer((task, node) -> {
    asked++;
    return node.idle(ResourceNames.CPU) - task.request().get(ResourceNames.CPU);
  }, t -> t.request());

  private static Session session() {
    TestSessions cluster = TestSessions.cluster();
    for (int i = 0; i < 4; i++) {
      cluster.node(TestNodes.node("n" + i).cpu(String.valueOf(8 + i)).build());
    }
    for (int i = 0; i < 6; i++) {
      cluster.pod(TestPods.pod("ns/p" + i).cpu((1 + i) + "").build());
    }
    return cluster.open(PluginRegistry.of(), "actions: \"allocate\"\ntiers:\n- plugins: []\n");
  }

  @Test
  void scoresAreAskedOncePerNodeStateAndKeyAndStayBounded() {
    Session s = session();
    // 4 nodes, one kept score each: a table of 4 positions costs 8 entries; the bound lets two keys in.
    EquivalenceCache cache = new EquivalenceCache(EquivalenceCache.MAX_ENTRIES, EquivalenceCache.MAX_TREE_LEAVES, 16);
    SessionPlugins plugins = new SessionPlugins(freeCpu);
    for (int round = 0; round < 2; round++) {
      for (NodeInfo node : s.nodes()) {
        assertEquals(node.idle(ResourceNames.CPU) - 1000,
            cache.scoring(s, plugins, TestSessions.task(s, "ns/p0")).applyAsDouble(node), 1e-9);
      }
    }
    assertEquals(4, asked, "the second round reads the kept scores");
    for (NodeInfo node : s.nodes()) {
      cache.scoring(s, plugins, TestSessions.task(s, "ns/p1")).applyAsDouble(node);
    }
    assertEquals(2, cache.scoreKeys());
    assertNull(cache.scoring(s, plugins, TestSessions.task(s, "ns/p2")), "a third key passes the bound: not kept");
    assertNotNull(cache.scoring(s, plugins, TestSessions.task(s, "ns/p0")), "kept keys keep their scores");
    cache.of(session(), "another session");
    assertEquals(0, cache.scoreKeys(), "kept scores last one session");
  }
}
