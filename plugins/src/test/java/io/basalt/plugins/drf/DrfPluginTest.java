package io.basalt.plugins.drf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.TaskInfo;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DrfPluginTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(DrfPlugin.descriptor());

  /** 10 CPU / 10Gi / 8 GPU in total. */
  private static TestSessions cluster() {
    return TestSessions.cluster().node(TestNodes.node("n1").cpu("10").memory("10Gi").gpu(8).build());
  }

  @Test
  void theJobHoldingTheSmallerDominantShareGoesFirst() {
    Session s = cluster()
        // cpu-heavy: 4/10 cpu = 0.4 dominant; gpu-heavy: 4/8 gpu = 0.5 dominant.
        .pod(TestPods.pod("ns/cpu-heavy").cpu("4").memory("1Gi").onNode("n1").build())
        .pod(TestPods.pod("ns/gpu-heavy").cpu("1").gpu(4).onNode("n1").build())
        .open(REGISTRY, TestSessions.singlePlugin("drf", ""));
    assertTrue(s.callbacks().jobOrder().compare(s.job("ns/cpu-heavy"), s.job("ns/gpu-heavy")) < 0);
  }

  @Test
  void sharesFollowTentativePlacementsAndTheirUndo() {
    Session s = cluster()
        .pod(TestPods.pod("ns/a").cpu("3").build())
        .pod(TestPods.pod("ns/b").cpu("2").onNode("n1").build())
        .open(REGISTRY, TestSessions.singlePlugin("drf", ""));
    assertTrue(s.callbacks().jobOrder().compare(s.job("ns/a"), s.job("ns/b")) < 0, "a holds nothing yet");
    Statement stmt = s.newStatement();
    stmt.allocate(TestSessions.task(s, "ns/a"), s.node("n1"));
    assertTrue(s.callbacks().jobOrder().compare(s.job("ns/a"), s.job("ns/b")) > 0, "a now holds 0.3 > 0.2");
    stmt.discard();
    assertTrue(s.callbacks().jobOrder().compare(s.job("ns/a"), s.job("ns/b")) < 0);
  }

  @Test
  void shareIsTheLargestFractionOfAnyResource() {
    DrfPlugin drf = new DrfPlugin();
    Session s = cluster().pod(TestPods.pod("ns/x").cpu("1").memory("5Gi").onNode("n1").build())
        .open(PluginRegistry.of(PluginDescriptor.of("drf", () -> drf)), TestSessions.singlePlugin("drf", ""));
    assertEquals(0.5, drf.share(s.job("ns/x")), 1e-9);
  }

  @Test
  void preemptsOnlyWhileThePreemptorStaysThePoorerJob() {
    // 10 CPU in total. rich holds 6 x 1 CPU (share 0.6); poor holds 1 CPU (0.1) and asks for 2 more.
    TestSessions c = cluster().pod(TestPods.pod("ns/poor-run").cpu("1").group("poor").onNode("n1").build())
        .pod(TestPods.pod("ns/poor-new").cpu("2").group("poor").build())
        .podGroup(new io.basalt.model.PodGroup("ns", "poor", 1, Map.of(), "default", null, null, "Running", null))
        .podGroup(new io.basalt.model.PodGroup("ns", "rich", 1, Map.of(), "default", null, null, "Running", null));
    for (int i = 0; i < 6; i++) {
      c.pod(TestPods.pod("ns/rich-" + i).cpu("1").group("rich").onNode("n1").build());
    }
    Session s = c.open(REGISTRY, TestSessions.singlePlugin("drf", ""));
    TaskInfo preemptor = TestSessions.task(s, "ns/poor-new");
    java.util.List<TaskInfo> rich = s.job("ns/rich").tasks();
    // After: poor 3/10 = 0.3. As Volcano counts, rich goes down with each pod offered: the first leaves 5/10, the
    // second 4/10, the third 3/10 (equal within the delta): three may go; a fourth would leave 2/10 < 0.3.
    assertEquals(3, s.callbacks().preemptable(preemptor, rich).size());
    // Once rich is down to 3 pods, losing one more leaves it 0.2 < 0.3: no victims.
    Statement stmt = s.newStatement();
    for (int i = 0; i < 3; i++) {
      stmt.evict(rich.get(i), "test");
    }
    assertEquals(0, s.callbacks().preemptable(preemptor, rich.subList(3, 6)).size());
  }

  /**
   * A job's share at open, from what the job keeps summed of its holding tasks, is what a walk over its tasks gives:
   * gangs and lone pods running, releasing and pending, in a session that reuses the previous one's tasks.
   */
  @Test
  void openingSharesMatchAWalkOverTheTasks() {
    for (int seed = 0; seed < 20; seed++) {
      java.util.Random r = new java.util.Random(seed);
      TestSessions c = cluster();
      for (int p = 0; p < 12; p++) {
        TestPods pod = TestPods.pod("ns/p" + p).cpu(String.valueOf(1 + r.nextInt(3))).memory((1 + r.nextInt(4)) + "Gi");
        if (r.nextBoolean()) {
          pod.group("g" + r.nextInt(3));
        }
        if (r.nextInt(3) == 0) {
          pod.gpu(1);
        }
        switch (r.nextInt(3)) {
          case 0 -> pod.onNode("n1");
          case 1 -> pod.onNode("n1").terminating();
          default -> { }
        }
        c.pod(pod.build());
      }
      io.basalt.api.KeptTasks kept = new io.basalt.api.KeptTasks();
      for (int cycle = 0; cycle < 2; cycle++) {
        DrfPlugin drf = new DrfPlugin();
        Session s = Session.open(c.cache().snapshot(), TestSessions.sessionProfile(
            PluginRegistry.of(PluginDescriptor.of("drf", () -> drf)),
            TestSessions.parse(TestSessions.singlePlugin("drf", ""))), io.basalt.session.ExplainRecorder.NONE, kept);
        long[] total = s.clusterAllocatable();
        for (io.basalt.api.JobInfo job : s.jobs()) {
          long[] held = new long[total.length];
          for (TaskInfo t : job.tasks()) {
            for (int i = 0; t.status().holdsResources() && i < held.length; i++) {
              held[i] += t.request().get(i);
            }
          }
          double share = 0;
          for (int i = 0; i < held.length; i++) {
            if (i != io.basalt.model.ResourceNames.PODS && held[i] > 0) {
              share = Math.max(share, (double) held[i] / total[i]);
            }
          }
          assertEquals(share, drf.share(job), job.key() + ", seed " + seed + " cycle " + cycle);
        }
      }
    }
  }
}
