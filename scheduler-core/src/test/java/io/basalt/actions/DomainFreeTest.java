package io.basalt.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.fabric.Fabric;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestFabrics;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The per-domain free counters equal a sum over each domain's ready nodes, worked out afresh, after every step of
 * random placements, pipelines, evictions, commits, holds, undos and dropped reservations.
 */
class DomainFreeTest {
  private static final int CPU = ResourceNames.index(ResourceNames.CPU_NAME);
  private static final int MEMORY = ResourceNames.index(ResourceNames.MEMORY_NAME);
  private static final int GPU = ResourceNames.index("nvidia.com/gpu");

  /** Registers nothing: the session's rules are the engine's own. */
  private static final class Nothing implements Plugin {
    @Override
    public String name() {
      return "nothing";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {}
  }

  /**
   * sb1 {df1 {a1..a3}, df2 {b1..b3}}, sb2 {df3 {c1..c3}}, with c3 not Ready and a node {@code loose} outside every
   * domain; random sizes, running pods (some terminating), pending pods (some nominated).
   */
  private static Session open(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    TestSessions cluster = TestSessions.cluster();
    List<String> names = TestFabrics.NODES;
    for (String n : names) {
      TestNodes node = TestNodes.node(n).cpu(String.valueOf(r.nextInt(0, 33))).memory(r.nextInt(0, 129) + "Gi");
      cluster.node((r.nextBoolean() ? node.gpu(8) : node).build());
      if (r.nextInt(3) > 0) {
        TestPods running = TestPods.pod("run-" + n).cpu(r.nextInt(0, 20000) + "m").memory(r.nextInt(0, 64) + "Gi")
            .onNode(n);
        cluster.pod((r.nextBoolean() ? running.terminating() : running).build());
      }
    }
    List<Pod> pending = new ArrayList<>();
    for (int p = 0; p < 30; p++) {
      TestPods pod = TestPods.pod("p" + p).cpu(r.nextInt(0, 12000) + "m").memory(r.nextInt(0, 40) + "Gi");
      Pod built = (p % 3 == 0 ? pod.gpu(1 + r.nextInt(8)) : pod).build();
      pending.add(built);
      cluster.pod(built);
    }
    for (int p = 0; p < 5; p++) {
      cluster.cache().nominate(pending.get(p).uid(), names.get(r.nextInt(names.size())));
    }
    cluster.cache().setFabric(TestFabrics.twoSwitchboxes());
    return cluster.open(PluginRegistry.of(PluginDescriptor.of("nothing", Nothing::new)),
        "actions: allocate\ntiers:\n- plugins:\n  - name: nothing\n");
  }

  /** What {@code domain} will have free of {@code r}, read from every ready node. */
  private static long fresh(Session s, String domain, int r) {
    long sum = 0;
    for (String n : s.fabric().readyNodes(domain)) {
      NodeInfo node = s.node(n);
      sum += node == null ? 0 : Math.max(0, node.futureIdle(r));
    }
    return sum;
  }

  private static List<String> domains(Fabric f) {
    List<String> out = new ArrayList<>();
    for (int tier : f.tiers()) {
      out.addAll(f.domains(tier));
    }
    return out;
  }

  private static <T> T any(SplittableRandom r, List<T> from) {
    return from.get(r.nextInt(from.size()));
  }

  private static List<TaskInfo> tasks(Session s, TaskStatus status) {
    return s.jobs().stream().flatMap(j -> j.tasks().stream()).filter(t -> t.status() == status).toList();
  }

  @Test
  void countersEqualAFreshSumAfterEveryChange() {
    int checked = 0;
    for (long seed = 1; seed <= 25; seed++) {
      Session s = open(seed);
      SplittableRandom r = new SplittableRandom(seed * 31);
      DomainFree free = DomainFree.of(s);
      List<String> domains = domains(s.fabric());
      List<Integer> asked = new ArrayList<>(List.of(CPU)); // memory and GPUs are first asked about later
      Statement stmt = s.newStatement();
      for (int step = 0; step < 150; step++) {
        List<TaskInfo> pending = tasks(s, TaskStatus.PENDING);
        List<TaskInfo> running = tasks(s, TaskStatus.RUNNING);
        int op = r.nextInt(10);
        if (op < 4 && !pending.isEmpty()) {
          stmt.allocate(any(r, pending), any(r, s.nodes()));
        } else if (op < 5 && !pending.isEmpty()) {
          stmt.pipeline(any(r, pending), any(r, s.nodes()));
        } else if (op < 6 && !running.isEmpty()) {
          stmt.evict(any(r, running), "test");
        } else if (op < 7) {
          List<TaskInfo> held = pending.stream().filter(t -> t.reservation() != null).toList();
          if (!held.isEmpty()) {
            s.dropReservation(any(r, held));
          }
        } else if (op < 9) {
          stmt.discard();
          stmt = s.newStatement();
        } else {
          if (r.nextBoolean()) {
            stmt.commit();
          } else {
            stmt.hold();
          }
          stmt = s.newStatement();
        }
        if (step == 40) {
          asked.add(MEMORY);
        } else if (step == 80) {
          asked.add(GPU);
        }
        for (String d : domains) {
          for (int res : asked) {
            assertEquals(fresh(s, d, res), free.free(d, res), "seed " + seed + ", step " + step + ", " + d + ", "
                + ResourceNames.name(res));
            checked++;
          }
        }
      }
    }
    assertTrue(checked > 10_000, "the walk compared the counters often: " + checked);
  }

  @Test
  void shortOfNamesTheFirstResourceADomainLacks() {
    for (long seed = 1; seed <= 25; seed++) {
      Session s = open(seed);
      SplittableRandom r = new SplittableRandom(seed);
      DomainFree free = DomainFree.of(s);
      for (String d : domains(s.fabric())) {
        ResourceVector need = ResourceVector.builder().add(ResourceNames.CPU_NAME, r.nextLong(0, 100_000))
            .add(ResourceNames.MEMORY_NAME, r.nextLong(0, 300L << 30)).add("nvidia.com/gpu", r.nextLong(0, 20))
            .build();
        boolean[] skip = new boolean[GPU + 1];
        skip[GPU] = r.nextBoolean();
        int expected = -1;
        for (int res : need.positiveSlots()) {
          if (!skip[res] && need.get(res) > fresh(s, d, res)) {
            expected = res;
            break;
          }
        }
        assertEquals(expected, free.shortOf(d, need, skip), "seed " + seed + ", " + d);
      }
    }
  }
}
