package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basalt.api.NodeInfo;
import io.basalt.testing.TestNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tree finds what a scan from the same start finds: the same window of feasible nodes, the same best node now
 * and later (the first of equal scores in visit order, never a NaN or -infinity score) and the same next start, for
 * random verdicts with many ties, every start and window sizes from 1 to more than the feasible nodes.
 */
class FeasibilityTreeTest {
  private static final double[] SCORES = {0, 1, 2, 2, 3, 50.5, Double.NEGATIVE_INFINITY, Double.NaN};

  /** The scan the tree stands for: NodeSearch's visit order and Visits' rule. */
  private static int scan(byte[] outcomes, double[] scores, int start, int toFind, int[] chosen) {
    int n = outcomes.length;
    int found = 0;
    double nowScore = Double.NEGATIVE_INFINITY;
    double laterScore = Double.NEGATIVE_INFINITY;
    chosen[0] = -1;
    chosen[1] = -1;
    int i = 0;
    for (; i < n && found < toFind; i++) {
      int p = (start + i) % n;
      if (outcomes[p] == EquivalenceCache.NOW) {
        found++;
        if (scores[p] > nowScore) {
          nowScore = scores[p];
          chosen[0] = p;
        }
      } else if (outcomes[p] == EquivalenceCache.LATER) {
        found++;
        if (scores[p] > laterScore) {
          laterScore = scores[p];
          chosen[1] = p;
        }
      }
    }
    return i == n && found < toFind ? start : (start + i) % n;
  }

  @Test
  void findsWhatAScanFinds() {
    Random random = new Random(42);
    for (int round = 0; round < 300; round++) {
      int n = 1 + random.nextInt(round < 50 ? 9 : 70);
      List<NodeInfo> nodes = new ArrayList<>();
      byte[] outcomes = new byte[n];
      double[] scores = new double[n];
      FeasibilityTree tree = new FeasibilityTree(n);
      int feasibleShare = random.nextInt(101);
      for (int p = 0; p < n; p++) {
        nodes.add(new NodeInfo(TestNodes.node("n" + p).cpu("1").build(), 0, new long[0], new long[0]));
        outcomes[p] = random.nextInt(100) < feasibleShare
            ? (random.nextBoolean() ? EquivalenceCache.NOW : EquivalenceCache.LATER)
            : (random.nextBoolean() ? EquivalenceCache.SHORT : EquivalenceCache.FILTERED);
        scores[p] = outcomes[p] >= EquivalenceCache.NOW ? SCORES[random.nextInt(SCORES.length)] : 0;
        tree.put(p, nodes.get(p), outcomes[p], scores[p]);
      }
      for (int start = 0; start < n; start++) {
        for (int toFind = 1; toFind <= n + 1; toFind++) {
          int[] expected = new int[2];
          int next = scan(outcomes, scores, start, toFind, expected);
          Found found = new Found();
          int treeNext = tree.search(nodes, start, toFind, found);
          String where = "round " + round + ", start " + start + ", toFind " + toFind;
          assertEquals(next, treeNext, where);
          assertSame(expected[0] < 0 ? null : nodes.get(expected[0]), found.now, where);
          assertSame(expected[1] < 0 ? null : nodes.get(expected[1]), found.later, where);
        }
      }
    }
  }

  /** Leaves set again and again (a changed node asked anew), each change checked against a scan at once. */
  @Test
  void keepsFindingWhatAScanFindsAsLeavesChange() {
    Random random = new Random(5);
    for (int round = 0; round < 40; round++) {
      int n = 1 + random.nextInt(90);
      List<NodeInfo> nodes = new ArrayList<>();
      byte[] outcomes = new byte[n];
      double[] scores = new double[n];
      FeasibilityTree tree = new FeasibilityTree(n);
      for (int p = 0; p < n; p++) {
        nodes.add(new NodeInfo(TestNodes.node("n" + p).cpu("1").build(), 0, new long[0], new long[0]));
        outcomes[p] = EquivalenceCache.SHORT;
        tree.put(p, nodes.get(p), outcomes[p], 0);
      }
      for (int step = 0; step < 400; step++) {
        int p = random.nextInt(n);
        int kind = random.nextInt(4);
        outcomes[p] = kind == 0 ? EquivalenceCache.SHORT : kind == 1 ? EquivalenceCache.FILTERED
            : kind == 2 ? EquivalenceCache.NOW : EquivalenceCache.LATER;
        // Few distinct scores, so a change often leaves an ancestor's best as it was.
        scores[p] = outcomes[p] >= EquivalenceCache.NOW ? SCORES[random.nextInt(SCORES.length)] : 0;
        tree.put(p, nodes.get(p), outcomes[p], scores[p]);
        int start = random.nextInt(n);
        int toFind = 1 + random.nextInt(n + 1);
        int[] expected = new int[2];
        int next = scan(outcomes, scores, start, toFind, expected);
        Found found = new Found();
        String where = "round " + round + ", step " + step;
        assertEquals(next, tree.search(nodes, start, toFind, found), where);
        assertSame(expected[0] < 0 ? null : nodes.get(expected[0]), found.now, where);
        assertSame(expected[1] < 0 ? null : nodes.get(expected[1]), found.later, where);
      }
    }
  }

  private static final class Found implements FeasibilityTree.NodeSearchResult {
    NodeInfo now;
    NodeInfo later;

    @Override
    public void found(NodeInfo now, NodeInfo later) {
      this.now = now;
      this.later = later;
    }
  }
}
