package io.basalt.plugins.topologyspread;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.NodeInfo;
import io.basalt.model.Node;
import io.basalt.testing.TestNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The kept minimum and domain counts agree with counting afresh, through random placements and removals. */
class CountsTest {
  @Test
  void keptMinimumMatchesAFreshCountThroughRandomMoves() {
    SplittableRandom r = new SplittableRandom(7);
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      TestNodes n = TestNodes.node("n" + i).cpu("8");
      if (i % 7 != 3) {
        n.label("zone", "z" + (i % 5)); // some nodes lack the key
      }
      Node node = n.build();
      nodes.add(new NodeInfo(node, 1, new long[0], new long[0]));
    }
    Domains domains = Domains.of("zone", nodes);
    boolean[] eligible = new boolean[nodes.size()];
    int[] initial = new int[nodes.size()];
    for (int p = 0; p < eligible.length; p++) {
      eligible[p] = p % 6 != 1; // z1's node 1 and others left out, as an inclusion policy would
      initial[p] = eligible[p] ? r.nextInt(3) : 0;
    }
    Counts counts = new Counts(domains, eligible, initial);
    int[] perNode = initial.clone();
    for (int step = 0; step < 2000; step++) {
      int p = r.nextInt(nodes.size());
      int delta = perNode[p] > 0 && r.nextBoolean() ? -1 : 1;
      if (eligible[p] && domains.valueOf(p) >= 0) {
        perNode[p] += delta;
      }
      counts.move(p, delta);
      int[] fresh = new int[domains.values()];
      boolean[] isDomain = new boolean[domains.values()];
      for (int q = 0; q < perNode.length; q++) {
        int v = domains.valueOf(q);
        if (v >= 0 && eligible[q]) {
          fresh[v] += perNode[q];
          isDomain[v] = true;
        }
      }
      int min = Integer.MAX_VALUE;
      int domainCount = 0;
      for (int v = 0; v < fresh.length; v++) {
        if (isDomain[v]) {
          domainCount++;
          min = Math.min(min, fresh[v]);
          assertEquals(fresh[v], counts.count(v), "count of value " + v + " at step " + step);
        }
      }
      assertEquals(domainCount, counts.domainCount());
      assertEquals(min, counts.minMatch(1), "minimum at step " + step);
      assertEquals(0, counts.minMatch(domainCount + 1), "fewer domains than minDomains");
    }
  }
}
