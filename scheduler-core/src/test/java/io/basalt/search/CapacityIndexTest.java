package io.basalt.search;

import static io.basalt.testing.TestNodes.node;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.NodeInfo;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.session.NodeChanges;
import io.basalt.session.TestChanges;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The index answers as a scan of the nodes would, reading only the change log, within and across sessions. */
class CapacityIndexTest {
  private static final int GPU = ResourceNames.index("nvidia.com/gpu");

  private static List<NodeInfo> nodes(int n) {
    List<NodeInfo> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new NodeInfo(node("n" + i).cpu("16").gpu(8).build(), 0, new long[0], new long[0]));
    }
    return out;
  }

  /** The first position at or after {@code from} with at least {@code q} free, by reading every node. */
  private static int scan(List<NodeInfo> nodes, int slot, long q, int from) {
    for (int i = from; i < nodes.size(); i++) {
      if (nodes.get(i).futureIdle(slot) >= q) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void answersAsAScanWhileNodesChange() {
    Random random = new Random(7);
    for (int size : new int[] {1, 2, 3, 7, 64, 100}) {
      List<NodeInfo> nodes = nodes(size);
      NodeChanges changes = TestChanges.over(nodes);
      CapacityIndex index = CapacityIndex.over(nodes, changes, null);
      index.max(GPU); // the tree exists from here on, so every change below must reach it
      for (int step = 0; step < 2000; step++) {
        NodeInfo n = nodes.get(random.nextInt(size));
        ResourceVector r = ResourceVector.builder().add("nvidia.com/gpu", 1 + random.nextInt(3)).build();
        switch (random.nextInt(3)) {
          case 0 -> n.adjustUsed(r, n.idle(GPU) >= r.get(GPU) ? 1 : -1);
          case 1 -> n.adjustPipelined(r, random.nextBoolean() ? 1 : -1);
          default -> n.adjustReleasing(r, random.nextBoolean() ? 1 : -1);
        }
        TestChanges.record(changes, n, random.nextBoolean());
        index.sync();
        long q = random.nextInt(12) - 2;
        int from = random.nextInt(size + 1);
        assertEquals(scan(nodes, GPU, q, from), index.next(GPU, q, from), "size " + size + ", step " + step);
        long max = Long.MIN_VALUE;
        for (NodeInfo x : nodes) {
          max = Math.max(max, x.futureIdle(GPU));
        }
        assertEquals(max, index.max(GPU));
        // What kept answers are checked against: the index's record of each node is the node's own.
        for (int i = 0; i < size; i++) {
          assertEquals(nodes.get(i).serial(), index.serial(i));
          assertEquals(nodes.get(i).version(), index.version(i), "size " + size + ", step " + step + ", node " + i);
        }
      }
    }
  }

  @Test
  void aTreeBuiltLateStartsFromTheNodesAsTheyAre() {
    List<NodeInfo> nodes = nodes(5);
    NodeChanges changes = TestChanges.over(nodes);
    CapacityIndex index = CapacityIndex.over(nodes, changes, null);
    nodes.get(0).adjustUsed(ResourceVector.builder().add("nvidia.com/gpu", 8).build(), 1);
    TestChanges.record(changes, nodes.get(0), false);
    index.sync();
    assertEquals(1, index.next(GPU, 1, 0));
    assertEquals(8, index.max(GPU));
  }

  @Test
  void aChangeNotYetReadIsReadBeforeTheNextAnswer() {
    List<NodeInfo> nodes = nodes(3);
    NodeChanges changes = TestChanges.over(nodes);
    CapacityIndex index = CapacityIndex.over(nodes, changes, null);
    assertEquals(8, index.max(GPU));
    for (NodeInfo n : nodes) {
      n.adjustUsed(ResourceVector.builder().add("nvidia.com/gpu", 8).build(), 1);
      TestChanges.record(changes, n, false);
    }
    assertEquals(3, index.changes(), "three nodes changed");
    assertEquals(0, index.max(GPU));
    assertEquals(-1, index.next(GPU, 1, 0));
  }

  /** A max-tree over {@code nodes}' free {@code slot}, built the plain way. */
  private static long[] expected(List<NodeInfo> nodes, int slot, int length) {
    long[] t = new long[length];
    java.util.Arrays.fill(t, Long.MIN_VALUE);
    int leaves = length / 2;
    for (int i = 0; i < nodes.size(); i++) {
      t[leaves + i] = nodes.get(i).futureIdle(slot);
    }
    for (int i = leaves - 1; i > 0; i--) {
      t[i] = Math.max(t[2 * i], t[2 * i + 1]);
    }
    return t;
  }

  @Test
  void nextSessionStartsFromTheLastOnesTreesAndReadsOnlyNodesThatAreNew() {
    Random random = new Random(11);
    List<NodeInfo> nodes = nodes(100);
    NodeChanges changes = TestChanges.over(nodes);
    CapacityIndex first = CapacityIndex.over(nodes, changes, null);
    first.max(GPU);
    CapacityIndex last = first;
    for (int round = 0; round < 20; round++) {
      for (int k = 0; k < 3; k++) {
        NodeInfo n = nodes.get(random.nextInt(nodes.size()));
        n.adjustUsed(ResourceVector.of(gpus(1 + random.nextInt(2))), 1);
        TestChanges.record(changes, n, false);
      }
      List<NodeInfo> next = new ArrayList<>(nodes);
      for (int i = 0; i < next.size(); i++) {
        // As the cache: a changed node is copied again, or, now and then, kept as it is (a copy the cluster caught up
        // with), which only its version tells apart from an untouched one.
        if (next.get(i).touched() && random.nextInt(4) > 0 || random.nextInt(50) == 0) {
          NodeInfo old = next.get(i);
          long[] used = new long[ResourceNames.count()];
          used[GPU] = random.nextInt(9);
          next.set(i, new NodeInfo(old.node(), round + 1, used, new long[0]));
        }
      }
      changes = TestChanges.over(next);
      CapacityIndex index = CapacityIndex.over(next, changes, last);
      assertEquals(true, index.built(GPU), "carried over from the last session");
      assertEquals(false, index.built(ResourceNames.CPU), "never asked for, so not built");
      long[] tree = index.tree(GPU);
      assertEquals(java.util.Arrays.toString(expected(next, GPU, tree.length)), java.util.Arrays.toString(tree));
      for (int q = 0; q <= 9; q++) {
        assertEquals(scan(next, GPU, q, 0), index.next(GPU, q, 0));
        // The new index took the last one's tree over; asked again, the last one still answers for its own nodes.
        assertEquals(scan(nodes, GPU, q, 0), last.next(GPU, q, 0), "round " + round + ", q " + q);
        assertEquals(scan(next, GPU, q, 0), index.next(GPU, q, 0), "round " + round + ", q " + q);
      }
      nodes = next;
      last = index;
    }
  }

  private static long[] gpus(int n) {
    long[] r = new long[ResourceNames.count()];
    r[GPU] = n;
    return r;
  }
}
