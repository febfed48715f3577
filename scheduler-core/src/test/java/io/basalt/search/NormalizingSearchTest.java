package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.NormalizingScorer;
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
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * A normalizing scorer is asked over the feasible nodes a search found and its normalized scores are added before the
 * best is picked: the search then chooses what asking every node, normalizing over the feasible ones and summing
 * chooses, with every shortcut of the other scorers still on (kept verdicts, kept scores) and the feasibility tree
 * stepping aside.
 */
class NormalizingSearchTest {
  /** The node sets each normalize call got, by name. */
  private final List<List<String>> normalized = new ArrayList<>();
  private int normalizingPrepared;

  /**
   * A keyed filter refusing n0, a keyed most-free-cpu scorer, and a normalizing scorer preferring low node numbers by
   * far (raw: the number; normalized: {@code 10 * (100 - 100 * raw / max)}), which skips pods labelled skip=yes.
   */
  private final class Normalizing implements Plugin {
    @Override
    public String name() {
      return "test";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addFilter(PodSigner.signedFilter((TaskInfo task, NodeInfo node) -> node.name().equals("n0")
          ? FilterResult.unfit("not n0") : FilterResult.OK, TaskInfo::request));
      registrar.addScorer(PodSigner.signedScorer(
          (TaskInfo task, NodeInfo node) -> node.idle(ResourceNames.CPU) / 1000.0, TaskInfo::request));
      registrar.addScorer(new LowNumbers());
    }
  }

  private final class LowNumbers implements NormalizingScorer, PreparedScorer {
    @Override
    public double score(TaskInfo task, NodeInfo node) {
      return number(node);
    }

    @Override
    public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
      normalizingPrepared++;
      return "yes".equals(task.pod().labels().get("skip")) ? null : NormalizingSearchTest::number;
    }

    @Override
    public void normalize(TaskInfo task, List<NodeInfo> nodes, double[] scores) {
      normalized.add(nodes.stream().map(NodeInfo::name).toList());
      reverse(scores);
    }
  }

  private static double number(NodeInfo node) {
    return Integer.parseInt(node.name().substring(1));
  }

  private static void reverse(double[] scores) {
    double max = 0;
    for (double s : scores) {
      max = Math.max(max, s);
    }
    for (int i = 0; i < scores.length; i++) {
      scores[i] = max == 0 ? 1000 : 10 * (100 - 100 * scores[i] / max);
    }
  }

  private static Session open(TestSessions cluster, Plugin plugin) {
    return cluster.open(PluginRegistry.of(PluginDescriptor.of("test", () -> plugin)),
        "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: test\n");
  }

  private static TestSessions cluster(int nodes, int pods) {
    TestSessions cluster = TestSessions.cluster();
    for (int i = 0; i < nodes; i++) {
      cluster.node(TestNodes.node("n" + i).cpu(String.valueOf(8 + i % 5)).build());
    }
    for (int i = 0; i < pods; i++) {
      cluster.pod(TestPods.pod("ns/p" + i).cpu("4").build());
    }
    return cluster;
  }

  /**
   * The best node by asking every node: the feasible ones (room for the request, not n0), the per-node score plus
   * the normalized one over exactly those, the first of the highest in node order.
   */
  private static String everyNode(Session s, TaskInfo task) {
    List<NodeInfo> feasible = new ArrayList<>();
    for (NodeInfo node : s.nodes()) {
      if (node.firstShortOfFuture(task.request(), s.callbacks().deviceManagedResources()) < 0
          && !node.name().equals("n0")) {
        feasible.add(node);
      }
    }
    double[] scores = new double[feasible.size()];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = number(feasible.get(i));
    }
    reverse(scores);
    String best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < scores.length; i++) {
      double total = feasible.get(i).idle(ResourceNames.CPU) / 1000.0 + scores[i];
      if (total > bestScore) {
        bestScore = total;
        best = feasible.get(i).name();
      }
    }
    return best;
  }

  @Test
  void theNormalizedScoreDecidesOverTheFeasibleNodesFound() {
    Session s = open(cluster(6, 1), new Normalizing());
    NodeInfo chosen = new NodeSearch(100).find(s, TestSessions.task(s, "ns/p0")).node();
    assertEquals("n1", chosen.name(), "free cpu alone picks n4; the normalized score n1");
    assertEquals(1, normalized.size());
    assertEquals(List.of("n1", "n2", "n3", "n4", "n5"), normalized.get(0).stream().sorted().toList(),
        "normalize sees the feasible nodes, not n0");
  }

  @Test
  void aTaskTheScorerSkipsIsSearchedAsWithoutIt() {
    TestSessions cluster = TestSessions.cluster();
    for (int i = 0; i < 6; i++) {
      cluster.node(TestNodes.node("n" + i).cpu(String.valueOf(8 + i)).build());
    }
    cluster.pod(TestPods.pod("ns/p0").cpu("4").label("skip", "yes").build());
    Session s = open(cluster, new Normalizing());
    assertEquals("n5", new NodeSearch(100).find(s, TestSessions.task(s, "ns/p0")).node().name(), "most free cpu");
    assertTrue(normalized.isEmpty(), "never normalized");
  }

  @Test
  void normalizeGetsTheNodesPercentageOfNodesToScoreFinds() {
    Session s = open(cluster(400, 1), new Normalizing());
    NodeSearch search = new NodeSearch(0);
    search.find(s, TestSessions.task(s, "ns/p0"));
    assertEquals(search.feasibleNodesToFind(400), normalized.get(0).size());
    assertFalse(normalized.get(0).contains("n0"));
  }

  @Test
  void everySearchOfAKeyChoosesWhatAskingEveryNodeChooses() {
    // More searches of one key than a feasibility tree waits for: the tree must step aside for the normalized score.
    int pods = EquivalenceCache.TREE_AFTER + 16;
    Session s = open(cluster(40, pods), new Normalizing());
    NodeSearch search = new NodeSearch(100);
    Statement stmt = s.newStatement();
    for (int i = 0; i < pods; i++) {
      TaskInfo task = TestSessions.task(s, "ns/p" + i);
      String expected = everyNode(s, task);
      NodeInfo node = search.find(s, task).node();
      assertEquals(expected, node == null ? null : node.name(), "pod " + i);
      if (node == null) {
        break;
      }
      stmt.allocate(task, node);
    }
    assertEquals(pods, normalizingPrepared, "prepared per task: a normalizing scorer's answer is never shared");
  }
}
