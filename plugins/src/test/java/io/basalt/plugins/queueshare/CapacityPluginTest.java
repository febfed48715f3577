package io.basalt.plugins.queueshare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.TaskInfo;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The capacity plugin: deserved comes from each queue's {@code spec.deserved} (weights play no part), a queue may
 * borrow up to its capability, reclaim takes only what is above deserved, guarantees are reserved, and
 * {@code spec.parent} bounds children by their parent. All CPU figures are milli-CPU. Every session also has the
 * implicit "default" queue (no guarantee, no deserved: deserved 0), which changes none of the numbers below.
 */
class CapacityPluginTest {
  private final CapacityPlugin plugin = new CapacityPlugin();

  private static ResourceVector cpu(String q) {
    return q == null ? null : ResourceVector.parse(Map.of("cpu", q));
  }

  /** A queue with CPU-only capability / guarantee / deserved (null = unset) under {@code parent} (null = top). */
  private static Queue queue(String name, int weight, String capability, String guarantee, String deserved,
      String parent) {
    return new Queue(name, weight, cpu(capability), cpu(guarantee), cpu(deserved), true, 0, parent, "Open",
        Map.of());
  }

  private static TestPods pod(String key, String queue, String cpu) {
    return TestPods.pod(key).cpu(cpu).annotation("scheduling.volcano.sh/queue-name", queue);
  }

  private Session open(TestSessions cluster) {
    return cluster.open(PluginRegistry.of(PluginDescriptor.of("capacity", () -> plugin)), TestSessions.singlePlugin("capacity", ""));
  }

  private QueueShare share(String queue) {
    QueueShare qs = plugin.share(queue);
    if (qs == null) {
      throw new AssertionError("no share for " + queue);
    }
    return qs;
  }

  private double deservedCpu(String queue) {
    return share(queue).deserved[ResourceNames.CPU];
  }

  private double realCpu(String queue) {
    return share(queue).realCapability[ResourceNames.CPU];
  }

  private double allocatedCpu(String queue) {
    return share(queue).allocated[ResourceNames.CPU];
  }

  private static List<String> keys(List<TaskInfo> tasks) {
    return tasks.stream().map(TaskInfo::key).toList();
  }

  private static List<TaskInfo> tasks(Session s, String... keys) {
    List<TaskInfo> r = new ArrayList<>();
    for (String k : keys) {
      r.add(TestSessions.task(s, k));
    }
    return r;
  }

  // ---- deserved and realCapability ----

  @Test
  void deservedIsTheDeclaredAmountNotAWeightedShare() {
    // 8 CPUs. a: weight 10, deserved 2; b: weight 1, deserved 6; c: guarantee 1, no deserved; d: nothing declared.
    // Both a and b ask for all 8 CPUs; proportion would give a 8*10/12. Capacity takes spec.deserved as is.
    // Guarantees: 1 (c), so realCapability = 8-1 = 7 for a, b, d and (8-1)+1 = 8 for c.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 10, null, null, "2", null)).queue(queue("b", 1, null, null, "6", null))
        .queue(queue("c", 1, null, "1", null, null)).queue(queue("d", 1, null, null, null, null))
        .pod(pod("ns/a1", "a", "8").build()).pod(pod("ns/b1", "b", "8").build()));
    assertEquals(2_000, deservedCpu("a"), 1e-6);
    assertEquals(6_000, deservedCpu("b"), 1e-6);
    assertEquals(1_000, deservedCpu("c"), 1e-6, "without deserved, the guarantee is what it deserves");
    assertEquals(0, deservedCpu("d"), 1e-6);
    assertEquals(7_000, realCpu("a"), 1e-6);
    assertEquals(8_000, realCpu("c"), 1e-6);
  }

  @Test
  void aGuaranteeAboveTheDeclaredDeservedRaisesIt() {
    // 8 CPUs; e declares deserved 1 but is guaranteed 2: realCapability (8-2)+2 = 8, deserved max(1, 2) = 2.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("e", 1, null, "2", "1", null)));
    assertEquals(2_000, deservedCpu("e"), 1e-6);
  }

  @Test
  void aGuaranteeIsReservedFromEveryOtherQueue() {
    // 8 CPUs; g is guaranteed 3 (idle); b declares deserved 6 with no capability and six pending 1-CPU pods.
    // realCapability: g = (8-3)+3 = 8; b = 8-3 = 5; deserved b = min(6, 5) = 5.
    TestSessions c = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("g", 1, null, "3", null, null)).queue(queue("b", 1, null, null, "6", null));
    for (int i = 1; i <= 6; i++) {
      c.pod(pod("ns/b" + i, "b", "1").build());
    }
    Session s = open(c);
    assertEquals(8_000, realCpu("g"), 1e-6);
    assertEquals(3_000, deservedCpu("g"), 1e-6);
    assertEquals(5_000, realCpu("b"), 1e-6);
    assertEquals(5_000, deservedCpu("b"), 1e-6, "deserved never exceeds realCapability");
    assertEquals(5_000, realCpu("default"), 1e-6);
    Statement st = s.newStatement();
    for (int i = 1; i <= 5; i++) {
      TaskInfo t = TestSessions.task(s, "ns/b" + i);
      assertTrue(s.callbacks().allocatable(s.queue("b"), t), "b" + i);
      st.allocate(t, s.node("n1"));
    }
    // 5000 + 1000 > 5000: the 3 guaranteed CPUs stay free for g although g is idle.
    assertFalse(s.callbacks().allocatable(s.queue("b"), TestSessions.task(s, "ns/b6")));
  }

  // ---- borrowing, preemptive, reclaim ----

  /** 8 CPUs; a deserves 2 and may borrow up to 4; five pending 1-CPU pods. b deserves the other 6, idle. */
  private Session borrower() {
    TestSessions c = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 1, "4", null, "2", null)).queue(queue("b", 1, null, null, "6", null));
    for (int i = 1; i <= 5; i++) {
      c.pod(pod("ns/a" + i, "a", "1").build());
    }
    return open(c);
  }

  @Test
  void aQueueBorrowsBeyondDeservedUpToItsCapability() {
    Session s = borrower();
    assertEquals(2_000, deservedCpu("a"), 1e-6);
    assertEquals(4_000, realCpu("a"), 1e-6);
    Statement st = s.newStatement();
    st.allocate(TestSessions.task(s, "ns/a1"), s.node("n1"));
    st.allocate(TestSessions.task(s, "ns/a2"), s.node("n1"));
    assertEquals(2_000, allocatedCpu("a"), 1e-6);
    // At deserved (2000): 2000 + 1000 = 3000 <= capability 4000, so it may still borrow.
    assertTrue(s.callbacks().allocatable(s.queue("a"), TestSessions.task(s, "ns/a3")));
    st.allocate(TestSessions.task(s, "ns/a3"), s.node("n1"));
    assertTrue(s.callbacks().allocatable(s.queue("a"), TestSessions.task(s, "ns/a4")), "3000 + 1000 = 4000 is at capability");
    st.allocate(TestSessions.task(s, "ns/a4"), s.node("n1"));
    assertFalse(s.callbacks().allocatable(s.queue("a"), TestSessions.task(s, "ns/a5")), "4000 + 1000 > capability 4000");
    // Undoing the placements frees the queue again.
    st.discard();
    assertEquals(0, allocatedCpu("a"), 1e-6);
    assertTrue(s.callbacks().allocatable(s.queue("a"), TestSessions.task(s, "ns/a5")));
  }

  @Test
  void aQueueMayReclaimOnlyWhileItStaysWithinItsDeservedShare() {
    Session s = borrower();
    TaskInfo a1 = TestSessions.task(s, "ns/a1");
    TaskInfo a2 = TestSessions.task(s, "ns/a2");
    TaskInfo a3 = TestSessions.task(s, "ns/a3");
    assertTrue(s.callbacks().preemptive(s.queue("a"), a1), "0 + 1000 <= 2000");
    s.newStatement().allocate(a1, s.node("n1"));
    assertTrue(s.callbacks().preemptive(s.queue("a"), a2), "1000 + 1000 = 2000 <= 2000");
    s.newStatement().allocate(a2, s.node("n1"));
    // 2000 + 1000 > 2000: it may still borrow idle CPUs (allocatable) but not take them from others.
    assertFalse(s.callbacks().preemptive(s.queue("a"), a3));
    assertTrue(s.callbacks().allocatable(s.queue("a"), a3));
  }

  @Test
  void aTaskLargerThanTheDeservedShareIsNeverPreemptive() {
    // deserved 2, nothing held: a 3-CPU task alone would exceed it.
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 1, null, null, "2", null))
        .pod(pod("ns/big", "a", "3").build()).pod(pod("ns/fits", "a", "2").build()));
    assertFalse(s.callbacks().preemptive(s.queue("a"), TestSessions.task(s, "ns/big")));
    assertTrue(s.callbacks().preemptive(s.queue("a"), TestSessions.task(s, "ns/fits")));
  }

  @Test
  void reclaimTakesOnlyFromQueuesAboveTheirDeserved() {
    // 8 CPUs. a deserves 2 and runs four 1-CPU pods (2000 over); b deserves 2 and runs two (at its share);
    // c deserves 4 and has a pending reclaimer.
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 1, null, null, "2", null)).queue(queue("b", 1, null, null, "2", null))
        .queue(queue("c", 1, null, null, "4", null))
        .pod(pod("ns/a1", "a", "1").onNode("n1").build()).pod(pod("ns/a2", "a", "1").onNode("n1").build())
        .pod(pod("ns/a3", "a", "1").onNode("n1").build()).pod(pod("ns/a4", "a", "1").onNode("n1").build())
        .pod(pod("ns/b1", "b", "1").onNode("n1").build()).pod(pod("ns/b2", "b", "1").onNode("n1").build())
        .pod(pod("ns/c1", "c", "2").build()));
    assertEquals(4_000, allocatedCpu("a"), 1e-6);
    assertEquals(2_000, allocatedCpu("b"), 1e-6);
    TaskInfo reclaimer = TestSessions.task(s, "ns/c1");
    assertTrue(s.callbacks().preemptive(s.queue("c"), reclaimer));
    // a (4000 > 2000) offers its pods; b (2000, never above 2000) none. How many of a's go is counted by the
    // reclaim action through mayReclaimFrom, which holds while a stays above its deserved.
    List<TaskInfo> candidates = tasks(s, "ns/b1", "ns/a1", "ns/b2", "ns/a2", "ns/a3", "ns/a4");
    assertEquals(List.of("ns/a1", "ns/a2", "ns/a3", "ns/a4"), keys(s.callbacks().reclaimable(reclaimer, candidates)));
    assertEquals(List.of(), keys(s.callbacks().reclaimable(reclaimer, tasks(s, "ns/b1", "ns/b2"))));
    assertTrue(s.callbacks().mayReclaimFrom(s.queue("a")));
    assertFalse(s.callbacks().mayReclaimFrom(s.queue("b")));
  }

  @Test
  void theQueueFurthestBelowItsDeservedGoesFirst() {
    // a holds 1 of 2 (share 0.5); b holds 3 of 4 (0.75): a first, although b's weight is higher.
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 1, null, null, "2", null)).queue(queue("b", 5, null, null, "4", null))
        .pod(pod("ns/a1", "a", "1").onNode("n1").build())
        .pod(pod("ns/b1", "b", "3").onNode("n1").build()));
    assertEquals(0.5, share("a").share(), 1e-9);
    assertEquals(0.75, share("b").share(), 1e-9);
    assertTrue(s.callbacks().queueOrder().compare(s.queue("a"), s.queue("b")) < 0);
    assertTrue(s.callbacks().queueOrder().compare(s.queue("b"), s.queue("a")) > 0);
  }

  // ---- hierarchy ----

  @Test
  void aChildIsBoundedByItsParentsRealCapabilityAndDeserved() {
    // 8 CPUs; p: capability 4, deserved 2. Under p: c (no capability, deserved 3) and c2 (capability 6, deserved 1).
    // c: realCapability min(8, p's 4) = 4; deserved min(3, p's 2) = 2.
    // c2: realCapability min(6, 8, p's 4) = 4; deserved min(1, 2) = 1.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("p", 1, "4", null, "2", null))
        .queue(queue("c", 1, null, null, "3", "p")).queue(queue("c2", 1, "6", null, "1", "p")));
    assertEquals("p", plugin.parentOf("c"));
    assertNull(plugin.parentOf("p"));
    assertEquals(4_000, realCpu("p"), 1e-6);
    assertEquals(4_000, realCpu("c"), 1e-6);
    assertEquals(2_000, deservedCpu("c"), 1e-6);
    assertEquals(4_000, realCpu("c2"), 1e-6);
    assertEquals(1_000, deservedCpu("c2"), 1e-6);
  }

  @Test
  void aChildCannotBeAllocatedPastItsParentsCapability() {
    // 8 CPUs; p: capability 4. Under it c1 and c2, each capability 3. c1 runs 1 CPU and has c1-b pending;
    // c2 runs 2 CPUs and has c2-c pending. Parent p holds 1000 + 2000 = 3000.
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("p", 1, "4", null, "4", null))
        .queue(queue("c1", 1, "3", null, "2", "p")).queue(queue("c2", 1, "3", null, "2", "p"))
        .pod(pod("ns/c1-a", "c1", "1").onNode("n1").build()).pod(pod("ns/c1-b", "c1", "1").build())
        .pod(pod("ns/c2-a", "c2", "1").onNode("n1").build()).pod(pod("ns/c2-b", "c2", "1").onNode("n1").build())
        .pod(pod("ns/c2-c", "c2", "1").build()));
    TaskInfo c1b = TestSessions.task(s, "ns/c1-b");
    TaskInfo c2c = TestSessions.task(s, "ns/c2-c");
    // c1: 1000+1000 <= 3000; p: 3000+1000 <= 4000.
    assertTrue(s.callbacks().allocatable(s.queue("c1"), c1b));
    // c2: 2000+1000 <= 3000; p: 3000+1000 <= 4000.
    assertTrue(s.callbacks().allocatable(s.queue("c2"), c2c));
    Statement st = s.newStatement();
    st.allocate(c2c, s.node("n1"));
    // c1 alone would be fine (2000 <= 3000), but p would hold 4000+1000 > 4000.
    assertFalse(s.callbacks().allocatable(s.queue("c1"), c1b));
    assertEquals(1_000, allocatedCpu("c1"), 1e-6, "the child itself is far from its own capability");
    st.discard();
    assertTrue(s.callbacks().allocatable(s.queue("c1"), c1b), "p is back at 3000");
  }

  @Test
  void enqueueChecksTheChildsCapabilityAsBoundedByItsParent() {
    // 16 CPUs; p: capability 4; c under p declares no capability of its own: realCapability min(16, 4) = 4.
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("16").build())
        .queue(queue("p", 1, "4", null, "4", null)).queue(queue("c", 1, null, null, "4", "p"))
        .podGroup(new PodGroup("ns", "big", 1, Map.of(), "c", null, cpu("5"), "Pending", null))
        .podGroup(new PodGroup("ns", "fits", 1, Map.of(), "c", null, cpu("4"), "Pending", null))
        .pod(TestPods.pod("ns/big-0").cpu("5").group("big").build())
        .pod(TestPods.pod("ns/fits-0").cpu("4").group("fits").build()));
    assertEquals(4_000, realCpu("c"), 1e-6);
    assertTrue(s.callbacks().jobEnqueueable(s.job("ns/big")).isReject());
    assertFalse(s.callbacks().jobEnqueueable(s.job("ns/fits")).isReject());
  }

  @Test
  void aParentCycleIsBrokenInsteadOfLoopingForever() {
    // x names y as parent and y names x. One of them becomes top-level; opening the session and asking
    // allocatable must terminate, and both queues still get a realCapability (8 CPUs, capability 4 on x).
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      Session s = open(TestSessions.cluster()
          .node(TestNodes.node("n1").cpu("8").build())
          .queue(queue("x", 1, "4", null, "2", "y")).queue(queue("y", 1, null, null, "2", "x"))
          .pod(pod("ns/x1", "x", "1").build()).pod(pod("ns/y1", "y", "1").build()));
      assertTrue(plugin.parentOf("x") == null || plugin.parentOf("y") == null);
      assertTrue(s.callbacks().allocatable(s.queue("x"), TestSessions.task(s, "ns/x1")));
      assertTrue(s.callbacks().allocatable(s.queue("y"), TestSessions.task(s, "ns/y1")));
      assertEquals(4_000, realCpu("x"), 1e-6);
      assertTrue(realCpu("y") > 0);
    });
  }

  @Test
  void aQueueUnderTheConventionalRootIsTopLevelAndItsGuaranteeIsReserved() {
    // parent "root" with no queue of that name: top-level. g's guarantee 3 comes off b: 8-3 = 5.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("g", 1, null, "3", null, "root")).queue(queue("b", 1, null, null, "6", null)));
    assertNull(plugin.parentOf("g"));
    assertEquals(5_000, realCpu("b"), 1e-6);
  }

  @Test
  void aQueueWithAMissingParentIsTopLevelAndItsGuaranteeIsReserved() {
    // 8 CPUs; orphan names a parent that does not exist and is guaranteed 3; b is an ordinary queue.
    // As a top-level queue, orphan's 3 CPUs should be reserved: b's realCapability 8-3 = 5 (as with parent "root"
    // above), and orphan's own realCapability is (8-3)+3 = 8.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("orphan", 1, null, "3", null, "ghost")).queue(queue("b", 1, null, null, "6", null)));
    assertNull(plugin.parentOf("orphan"));
    assertEquals(8_000, realCpu("orphan"), 1e-6);
    assertEquals(5_000, realCpu("b"), 1e-6);
  }

  @Test
  void aQueueNamingItselfAsParentIsTopLevelAndItsGuaranteeIsReserved() {
    // Same numbers as above with parent "self" on queue "self".
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("self", 1, null, "3", null, "self")).queue(queue("b", 1, null, null, "6", null)));
    assertNull(plugin.parentOf("self"));
    assertEquals(8_000, realCpu("self"), 1e-6);
    assertEquals(5_000, realCpu("b"), 1e-6);
  }
}
