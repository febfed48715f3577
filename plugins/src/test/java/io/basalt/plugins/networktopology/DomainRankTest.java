package io.basalt.plugins.networktopology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.PreparedScorer;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestFabrics;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The rank of a domain (the plugin keeps each domain's used totals and moves them as pods are placed) equals the rank
 * worked out afresh from the domain's ready nodes, after every step of random placements, evictions and undos; so does
 * the node nudge, read by the node's place in the session's list.
 */
class DomainRankTest {
  private static final List<String> RESOURCES = List.of("cpu", "memory", "nvidia.com/gpu", "metax-tech.com/gpu");

  /** sb1 {df1 {a1..a3}, df2 {b1..b3}}, sb2 {df3 {c1..c3}}; c3 not Ready; {@code loose} in no domain. */
  private static Session open(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    TestSessions cluster = TestSessions.cluster();
    List<String> names = TestFabrics.NODES;
    for (String n : names) {
      TestNodes node = TestNodes.node(n).cpu(String.valueOf(r.nextInt(1, 33))).memory(r.nextInt(1, 129) + "Gi");
      cluster.node((r.nextBoolean() ? node.gpu(8) : node).build());
      if (r.nextInt(3) > 0) {
        cluster.pod(TestPods.pod("run-" + n).cpu(r.nextInt(0, 20000) + "m").memory(r.nextInt(0, 64) + "Gi")
            .onNode(n).build());
      }
    }
    for (int p = 0; p < 30; p++) {
      TestPods pod = TestPods.pod("p" + p).cpu(r.nextInt(0, 12000) + "m").memory(r.nextInt(0, 40) + "Gi");
      cluster.pod((p % 3 == 0 ? pod.gpu(1 + r.nextInt(8)) : pod).build());
    }
    cluster.cache().setFabric(TestFabrics.twoSwitchboxes());
    return cluster.open(PluginRegistry.of(NetworkTopologyPlugin.metaxDescriptor()),
        TestSessions.singlePlugin(NetworkTopologyPlugin.METAX_NAME, ""));
  }

  /** 100 x the mean, over the weighted resources the domain's ready nodes have, of min(1, used / allocatable). */
  private static double fresh(Session s, String domain) {
    double sum = 0;
    int weights = 0;
    for (String name : RESOURCES) {
      int slot = ResourceNames.indexIfKnown(name);
      if (slot < 0) {
        continue;
      }
      long allocatable = 0;
      long used = 0;
      for (String n : s.fabric().readyNodes(domain)) {
        NodeInfo node = s.node(n);
        allocatable += node.allocatable(slot);
        used += node.used(slot);
      }
      if (allocatable > 0) {
        sum += Math.min(1.0, (double) used / allocatable);
        weights++;
      }
    }
    return weights == 0 ? 0 : 100.0 * sum / weights;
  }

  private static List<TaskInfo> tasks(Session s, TaskStatus status) {
    return s.jobs().stream().flatMap(j -> j.tasks().stream()).filter(t -> t.status() == status).toList();
  }

  @Test
  void aDomainsRankFollowsEveryPlacementEvictionAndUndo() {
    int checked = 0;
    for (long seed = 1; seed <= 20; seed++) {
      Session s = open(seed);
      SplittableRandom r = new SplittableRandom(seed * 17);
      JobInfo anyJob = s.jobs().get(0);
      List<String> domains = new ArrayList<>(List.of("df1", "sb1")); // the others are first ranked later
      Statement stmt = s.newStatement();
      for (int step = 0; step < 120; step++) {
        List<TaskInfo> pending = tasks(s, TaskStatus.PENDING);
        List<TaskInfo> running = tasks(s, TaskStatus.RUNNING);
        int op = r.nextInt(10);
        if (op < 4 && !pending.isEmpty()) {
          stmt.allocate(pending.get(r.nextInt(pending.size())), s.nodes().get(r.nextInt(s.nodes().size())));
        } else if (op < 5 && !pending.isEmpty()) {
          stmt.pipeline(pending.get(r.nextInt(pending.size())), s.nodes().get(r.nextInt(s.nodes().size())));
        } else if (op < 7 && !running.isEmpty()) {
          stmt.evict(running.get(r.nextInt(running.size())), "test");
        } else if (op < 9) {
          stmt.discard();
          stmt = s.newStatement();
        } else {
          stmt.commit();
          stmt = s.newStatement();
        }
        if (step == 50) {
          domains.addAll(List.of("df2", "df3", "sb2"));
        }
        for (String d : domains) {
          assertEquals(fresh(s, d), s.callbacks().scoreDomain(anyJob, d), 1e-9, "seed " + seed + ", step " + step
              + ", " + d);
          checked++;
        }
      }
    }
    assertTrue(checked > 5_000, "compared often: " + checked);
  }

  /**
   * The nudge of a pod that asks for no domain is 10 x its node's dragonfly fraction, worked out afresh, on every node
   * of the session (read by position) and on a copy of it outside the session's list (read by name), after every
   * placement and undo.
   */
  @Test
  void theNodeNudgeIsItsDragonflysFractionOnEveryNode() {
    int checked = 0;
    for (long seed = 1; seed <= 10; seed++) {
      Session s = open(seed);
      SplittableRandom r = new SplittableRandom(seed * 31);
      NodeScorer nudge = s.callbacks().scorers().get(0);
      Statement stmt = s.newStatement();
      for (int step = 0; step < 40; step++) {
        List<TaskInfo> pending = tasks(s, TaskStatus.PENDING);
        if (r.nextInt(4) > 0 && !pending.isEmpty()) {
          stmt.allocate(pending.get(r.nextInt(pending.size())), s.nodes().get(r.nextInt(s.nodes().size())));
        } else {
          stmt.discard();
          stmt = s.newStatement();
        }
        if (tasks(s, TaskStatus.PENDING).isEmpty()) {
          stmt.discard();
          stmt = s.newStatement();
        }
        TaskInfo task = tasks(s, TaskStatus.PENDING).get(0);
        ToDoubleFunction<NodeInfo> prepared = ((PreparedScorer) nudge).forTask(task);
        for (NodeInfo node : s.nodes()) {
          String df = s.fabric().domainOf(node.name(), 1);
          double want = df == null ? 0 : fresh(s, df) / 10;
          String at = "seed " + seed + ", step " + step + ", " + node.name();
          assertEquals(want, prepared.applyAsDouble(node), 1e-9, at);
          assertEquals(want, nudge.score(task, node), 1e-9, at);
          NodeInfo outside = new NodeInfo(node.node(), 0, new long[0], new long[0]);
          assertEquals(want, prepared.applyAsDouble(outside), 1e-9, at + " outside the session's list");
          checked++;
        }
      }
    }
    assertTrue(checked > 2_000, "compared often: " + checked);
  }
}
