package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class NodeSearchTest {
  @Test
  void feasibleNodesToFindFollowsKubeSchedulersPercentage() {
    NodeSearch adaptive = new NodeSearch(0);
    assertEquals(50, adaptive.feasibleNodesToFind(50));
    assertEquals(500, adaptive.feasibleNodesToFind(5000)); // 50 - 5000/125 = 10%
    assertEquals(100, adaptive.feasibleNodesToFind(150)); // never fewer than 100
    assertEquals(2500, adaptive.feasibleNodesToFind(50000)); // floor of 5%
    assertEquals(5000, new NodeSearch(100).feasibleNodesToFind(5000));
    assertEquals(1500, new NodeSearch(30).feasibleNodesToFind(5000));
  }

  @Test
  void fitErrorReadsLikeKubeScheduler() {
    Map<String, Integer> reasons = new TreeMap<>(Map.of("node(s) didn't match Pod's node affinity/selector", 5));
    int[] shortOf = new int[4];
    shortOf[3] = 3;
    io.basalt.model.ResourceNames.index("x"); // make sure slot 3 exists
    String msg = NodeSearch.fitError(8, shortOf, reasons);
    assertEquals("0/8 nodes are available: 3 Insufficient " + io.basalt.model.ResourceNames.name(3)
        + ", 5 node(s) didn't match Pod's node affinity/selector.", msg);
  }
}
