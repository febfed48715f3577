package io.basalt.actions;

import static io.basalt.testing.TestQueues.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunningPodsTest {
  private static final String QUEUE = "scheduling.volcano.sh/queue-name";

  private static PodGroup gang(String name, String queue, int min) {
    return new PodGroup("ns", name, min, Map.of(), queue, null, null, "Running",
        Instant.ofEpochSecond(1_600_000_000L));
  }

  /**
   * n1 (8 cpu) is full: g1 (queue b) holds 4, g2 (queue c) holds 4, one of g2's pods opted out. n2 (2 cpu) is full
   * with g3 (queue b). The asker (queue a) needs 5 cpu and is pending; so is a pod of g1.
   */
  private static Session session() {
    TestSessions c = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build()).node(TestNodes.node("n2").cpu("2").build())
        .queue(queue("a")).queue(queue("b")).queue(queue("c"))
        .podGroup(gang("g1", "b", 2)).podGroup(gang("g2", "c", 2)).podGroup(gang("g3", "b", 1))
        .pod(TestPods.pod("ns/asker").cpu("5").annotation(QUEUE, "a").build());
    for (int i = 0; i < 2; i++) {
      c.pod(TestPods.pod("ns/g1-" + i).cpu("2").group("g1").onNode("n1").build());
      c.pod(TestPods.pod("ns/g2-" + i).cpu("2").group("g2").onNode("n1")
          .annotation(VictimPlanner.PREEMPTABLE, i == 0 ? "false" : "true").build());
    }
    c.pod(TestPods.pod("ns/g1-pending").cpu("2").group("g1").build());
    c.pod(TestPods.pod("ns/g3-0").cpu("2").group("g3").onNode("n2").build());
    return c.open(PluginRegistry.of(), "actions: \"reclaim\"\ntiers: []\n");
  }

  private static List<String> keys(List<TaskInfo> tasks) {
    List<String> out = new ArrayList<>();
    for (TaskInfo t : tasks) {
      out.add(t.key());
    }
    return out;
  }

  @Test
  void holdsTheRunningPodsThatMayBeVictimsByJobOncePerSession() {
    Session s = session();
    RunningPods index = RunningPods.of(s);
    assertSame(index, RunningPods.of(s), "built once per session, shared by preempt and reclaim");
    List<String> seen = new ArrayList<>();
    for (RunningPods.JobPods j : index.jobs()) {
      assertEquals(j.job().queue(), index.queues().get(j.queue()));
      seen.add(j.job().podGroup().name() + "=" + keys(j.pods()));
    }
    // No pending pod, no opted-out pod, no job without a running pod (the asker's).
    assertEquals(List.of("g1=[ns/g1-0, ns/g1-1]", "g2=[ns/g2-1]", "g3=[ns/g3-0]"), seen);
  }

  @Test
  void aBoundOnlyCountsTheQueuesThatMayBeTakenFrom() {
    Session s = session();
    RunningPods index = RunningPods.of(s);
    TaskInfo asker = TestSessions.task(s, "ns/asker");
    BitSet b = new BitSet();
    b.set(index.queues().indexOf("b"));
    BitSet c = new BitSet();
    c.set(index.queues().indexOf("c"));
    BitSet both = (BitSet) b.clone();
    both.or(c);
    assertFalse(index.couldHold(s, asker.request(), new BitSet()), "no node has 5 cpu free");
    assertFalse(index.couldHold(s, asker.request(), b), "g1 frees 4 on n1, g3 2 on n2: not enough on one node");
    assertFalse(index.couldHold(s, asker.request(), c), "g2's opted-out pod stays: 2");
    assertTrue(index.couldHold(s, asker.request(), both), "4 + 2 more on n1");
  }

  @Test
  void anEvictedPodStaysListedButCountsAsFreeOnceAndGivesNoUnit() {
    Session s = session();
    RunningPods index = RunningPods.of(s);
    Statement stmt = s.newStatement();
    stmt.evict(TestSessions.task(s, "ns/g1-0"), "test");
    stmt.commit();
    assertSame(index, RunningPods.of(s));
    TaskInfo asker = TestSessions.task(s, "ns/asker");
    TestScope scope = TestScope.onlyQueue("b");
    List<VictimPlanner.Unit> units = VictimPlanner.units(s, asker, scope, index);
    assertEquals(2, scope.asked, "the scope is asked once per queue with victims (b, c), not per job");
    List<String> pods = new ArrayList<>();
    for (VictimPlanner.Unit u : units) {
      pods.addAll(keys(u.tasks()));
    }
    assertEquals(List.of("ns/g1-1", "ns/g3-0"), pods, "the evicted pod is no candidate any more");
    assertEquals(List.of("ns/g1-0", "ns/g1-1"), keys(index.jobs().get(0).pods()),
        "listed though evicted before the list was made: a discard could make it run again");
  }

  @Test
  void unitsFromTheIndexAreTheUnitsFromTheRunningList() {
    Session s = session();
    TaskInfo asker = TestSessions.task(s, "ns/asker");
    List<TaskInfo> running = new ArrayList<>();
    for (JobInfo job : s.jobs()) {
      for (TaskInfo t : job.tasks()) {
        if (VictimPlanner.isRunning(t) && !VictimPlanner.optedOut(t)) {
          running.add(t);
        }
      }
    }
    VictimPlanner.Scope all = TestScope.otherQueues();
    assertEquals(VictimPlanner.units(s, asker, all, running), VictimPlanner.units(s, asker, all, RunningPods.of(s)));
  }
}
