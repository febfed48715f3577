package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.FilterResult;
import io.basalt.framework.GroupedScorer;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.PodSigner;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A scorer that answers one value per group of nodes, moving as pods are placed (the network-topology nudge), keeps
 * its task's other answers and verdicts: the search re-adds the group's value to the other scorers' kept answers. The
 * nodes chosen must be those a search that asks the scorer on every node chooses, pod after pod, across sessions and
 * with the feasibility tree in use, while the grouped scorer itself is asked far less.
 */
class GroupedScoresTest {
  private static final int NODES = 240;
  private static final int GROUPS = 8;
  private static final int PODS = 300;

  private int groupedCalls;

  /** A grouped first scorer (or the same answers unsigned), a signed scorer reading the node, a signed filter. */
  private final class Plugins implements Plugin {
    private final boolean grouped;

    Plugins(boolean grouped) {
      this.grouped = grouped;
    }

    @Override
    public String name() {
      return "grouped";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      List<NodeInfo> nodes = session.nodes();
      int[] groupAt = new int[nodes.size()];
      int[][] members = new int[GROUPS][];
      int[] sizes = new int[GROUPS];
      for (int p = 0; p < groupAt.length; p++) {
        groupAt[p] = groupOf(nodes.get(p).name());
        if (groupAt[p] >= 0) {
          sizes[groupAt[p]]++;
        }
      }
      for (int g = 0; g < GROUPS; g++) {
        members[g] = new int[sizes[g]];
        sizes[g] = 0;
      }
      for (int p = 0; p < groupAt.length; p++) {
        if (groupAt[p] >= 0) {
          members[groupAt[p]][sizes[groupAt[p]]++] = p;
        }
      }
      long[] placed = new long[GROUPS];
      int[] stamps = new int[GROUPS];
      registrar.addAllocationListener(AllocationListener.of((task, sign) -> {
        int g = groupOf(task.nodeName());
        if (g >= 0) {
          placed[g] += sign * task.request().get(ResourceNames.CPU);
          stamps[g]++;
        }
      }));
      GroupedScorer.Groups groups = new GroupedScorer.Groups() {
        @Override
        public int groupOf(int position) {
          return groupAt[position];
        }

        @Override
        public int count() {
          return GROUPS;
        }

        @Override
        public double value(int g) {
          return 3.7 * placed[g] / 13_000.0;
        }

        @Override
        public int stamp(int g) {
          return stamps[g];
        }

        @Override
        public int[] members(int g) {
          return members[g];
        }
      };
      NodeScorer byGroup = (task, node) -> {
        groupedCalls++;
        int g = groupOf(node.name());
        return g < 0 ? 0 : groups.value(g);
      };
      registrar.addScorer(grouped ? new GroupedScorer() {
        @Override
        public double score(TaskInfo task, NodeInfo node) {
          return byGroup.score(task, node);
        }

        @Override
        public Groups groups(TaskInfo task) {
          return groups;
        }
      } : byGroup);
      registrar.addScorer(PodSigner.signedScorer((task, node) -> {
        long cpu = node.allocatable(ResourceNames.CPU);
        return cpu == 0 ? 0 : 10.0 * (cpu - node.used(ResourceNames.CPU)) / cpu / 3.0;
      }, TaskInfo::request));
      registrar.addFilter(PodSigner.signedFilter((task, node) -> node.name().endsWith("7")
          && task.request().get(ResourceNames.CPU) > 1000 ? FilterResult.unfit("no big pods on 7") : FilterResult.OK,
          TaskInfo::request));
    }
  }

  /** Node {@code n<i>} is in group i % 8, except every 13th, in none. */
  private static int groupOf(String node) {
    int i = Integer.parseInt(node.substring(1));
    return i % 13 == 0 ? -1 : i % GROUPS;
  }

  private static TestSessions cluster() {
    SplittableRandom r = new SplittableRandom(7);
    TestSessions cluster = TestSessions.cluster();
    for (int i = 0; i < NODES; i++) {
      cluster.node(TestNodes.node("n" + i).cpu(String.valueOf(r.nextInt(8, 65))).build());
    }
    for (int i = 0; i < PODS; i++) {
      cluster.pod(TestPods.pod("ns/p" + i).cpu(new String[] {"500m", "1", "2"}[i % 3]).build());
    }
    return cluster;
  }

  /** Places the pods in two sessions with one search; the chosen nodes in order. */
  private List<String> place(boolean grouped) {
    TestSessions cluster = cluster();
    PluginRegistry registry = PluginRegistry.of(PluginDescriptor.of("grouped", () -> new Plugins(grouped)));
    String conf = "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: grouped\n";
    NodeSearch search = new NodeSearch(0);
    List<String> chosen = new ArrayList<>();
    for (int[] range : new int[][] {{0, 200}, {200, PODS}}) {
      Session s = cluster.open(registry, conf);
      Statement stmt = s.newStatement();
      // The second session starts from the same cluster: the first one's placements were never bound.
      for (int i = range[0]; i < range[1]; i++) {
        TaskInfo task = TestSessions.task(s, "ns/p" + i);
        NodeInfo node = search.find(s, task).node();
        chosen.add(node == null ? "-" : node.name());
        if (node != null) {
          stmt.allocate(task, node);
        }
      }
    }
    return chosen;
  }

  @Test
  void theNodesChosenAreThoseOfAskingTheGroupedScorerEverywhere() {
    List<String> asked = place(false);
    int askedCalls = groupedCalls;
    groupedCalls = 0;
    List<String> kept = place(true);
    assertEquals(asked, kept);
    assertTrue(asked.stream().distinct().count() > 50, "the pods spread over many nodes: " + asked);
    // Asked only where a node's other answers are asked afresh; its group's value is re-added everywhere else.
    assertTrue(groupedCalls * 3 < askedCalls,
        "the grouped scorer is asked " + groupedCalls + " times against " + askedCalls);
  }

  @Test
  void aKeptScoreAddsTheGroupsValueInItsPlaceNotAtTheEnd() {
    TestSessions cluster = TestSessions.cluster();
    cluster.node(TestNodes.node("n0").cpu("8").build());
    Session s = cluster.open(PluginRegistry.of(), "actions: \"allocate\"\ntiers:\n- plugins: []\n");
    NodeInfo node = TestSessions.nodeInfo(s, "n0");
    double group = 0.1;
    @SuppressWarnings("unchecked")
    GroupedScores.Sum fresh = new GroupedScores.Sum(new java.util.function.ToDoubleFunction[] {
        n -> group, n -> 0.2, n -> 0.3});
    double asked = fresh.applyAsDouble(node);
    GroupedScores kept = new GroupedScores(0, 3);
    kept.put(node, fresh.last);
    GroupedScorer.Groups one = new GroupedScorer.Groups() {
      @Override
      public int groupOf(int position) {
        return 0;
      }

      @Override
      public int count() {
        return 1;
      }

      @Override
      public double value(int g) {
        return group;
      }

      @Override
      public int stamp(int g) {
        return 0;
      }

      @Override
      public int[] members(int g) {
        return new int[] {0};
      }
    };
    // (0.1 + 0.2) + 0.3 and (0.2 + 0.3) + 0.1 differ in the last bit: the kept score must be the first.
    assertEquals(0.1 + 0.2 + 0.3, asked);
    assertTrue(kept.holds(node.position(), node.serial(), node.version()));
    assertEquals(asked, kept.total(node.position(), one));
  }
}
