package io.basalt.plugins.queueshare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProportionPluginTest {
  private static Queue queue(String name, int weight, String capabilityCpu, String guaranteeCpu) {
    return new Queue(name, weight,
        capabilityCpu == null ? null : ResourceVector.parse(Map.of("cpu", capabilityCpu)),
        guaranteeCpu == null ? null : ResourceVector.parse(Map.of("cpu", guaranteeCpu)),
        null, true, 0, null, "Open", Map.of());
  }

  private static TestPods pod(String key, String queue, String cpu) {
    return TestPods.pod(key).cpu(cpu).annotation("scheduling.volcano.sh/queue-name", queue);
  }

  private final ProportionPlugin plugin = new ProportionPlugin();

  private Session open(TestSessions cluster) {
    return cluster.open(PluginRegistry.of(PluginDescriptor.of("proportion", () -> plugin)),
        TestSessions.singlePlugin("proportion", ""));
  }

  private double deservedCpu(String queue) {
    return plugin.share(queue).deserved[ResourceNames.CPU];
  }

  @Test
  void twoEqualQueuesOnTwoCpusGetOnePodEach() {
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("2").memory("4Gi").build())
        .queue(queue("a", 1, null, null)).queue(queue("b", 1, null, null))
        .pod(pod("ns/a1", "a", "1").build()).pod(pod("ns/a2", "a", "1").build())
        .pod(pod("ns/b1", "b", "1").build()).pod(pod("ns/b2", "b", "1").build()));
    assertEquals(1000, deservedCpu("a"), 1e-6);
    assertEquals(1000, deservedCpu("b"), 1e-6);
    assertTrue(s.callbacks().allocatable(s.queue("a"), TestSessions.task(s, "ns/a1")));
    s.newStatement().allocate(TestSessions.task(s, "ns/a1"), s.node("n1"));
    assertFalse(s.callbacks().allocatable(s.queue("a"), TestSessions.task(s, "ns/a2")), "a already holds its 1 CPU");
    assertTrue(s.callbacks().overused(s.queue("a")));
    assertTrue(s.callbacks().allocatable(s.queue("b"), TestSessions.task(s, "ns/b1")));
  }

  @Test
  void weightsSplitTheClusterAndUnusedShareFlowsToOthers() {
    // 12 CPUs; a (weight 2) asks 10, b (weight 1) asks 2: b is satisfied with 2, a gets the other 10.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("12").build())
        .queue(queue("a", 2, null, null)).queue(queue("b", 1, null, null))
        .pod(pod("ns/a1", "a", "10").build()).pod(pod("ns/b1", "b", "2").build()));
    assertEquals(10_000, deservedCpu("a"), 1e-6);
    assertEquals(2_000, deservedCpu("b"), 1e-6);
  }

  @Test
  void capabilityCapsAndGuaranteeFloorsTheDeservedShare() {
    // 10 CPUs; a capped at 3 CPUs asks 8; b guaranteed 4 asks nothing; c asks 8.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("10").build())
        .queue(queue("a", 1, "3", null)).queue(queue("b", 1, null, "4")).queue(queue("c", 1, null, null))
        .pod(pod("ns/a1", "a", "8").build()).pod(pod("ns/c1", "c", "8").build()));
    assertEquals(3_000, deservedCpu("a"), 1e-6);
    assertEquals(4_000, deservedCpu("b"), 1e-6, "a guarantee is kept even while idle");
    // c: realCapability = (10 - 4) + 0 = 6 CPUs, so it can never be given more than 6.
    assertEquals(6_000, plugin.share("c").realCapability[ResourceNames.CPU], 1e-6);
    assertTrue(deservedCpu("c") <= 6_000 + 1e-6);
  }

  @Test
  void enqueueRejectsAJobWhoseMinimumWouldExceedTheQueuesCapability() {
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("16").build())
        .queue(queue("small", 1, "4", null))
        .podGroup(new PodGroup("ns", "big", 1, Map.of(), "small", null,
            ResourceVector.parse(Map.of("cpu", "6")), "Pending", null))
        .podGroup(new PodGroup("ns", "fits", 1, Map.of(), "small", null,
            ResourceVector.parse(Map.of("cpu", "3")), "Pending", null))
        .pod(TestPods.pod("ns/big-0").cpu("6").group("big").build())
        .pod(TestPods.pod("ns/fits-0").cpu("3").group("fits").build()));
    assertTrue(s.callbacks().jobEnqueueable(s.job("ns/big")).isReject());
    assertFalse(s.callbacks().jobEnqueueable(s.job("ns/fits")).isReject());
    s.enqueue(s.job("ns/fits"));
    assertArrayEquals(new double[] {3000}, new double[] {plugin.share("small").inqueue[ResourceNames.CPU]});
  }

  /**
   * Enqueue counts what running jobs hold beyond their minResources as elastic (it can be given back): a gang with
   * minResources 2 CPUs running 3 pods of 2 holds 4 elastic, one running exactly its minimum holds none. The sums are
   * per job: what one job holds must not leak into the next job's.
   */
  @Test
  void enqueueCountsWhatRunningJobsHoldBeyondTheirMinimumAsElastic() {
    for (String ask : List.of("9", "11")) {
      TestSessions cluster = TestSessions.cluster()
          .node(TestNodes.node("n1").cpu("64").build())
          .queue(queue("q", 1, "16", null))
          .podGroup(new PodGroup("ns", "stretchy", 1, Map.of(), "q", null,
              ResourceVector.parse(Map.of("cpu", "2")), "Running", null))
          .podGroup(new PodGroup("ns", "exact", 1, Map.of(), "q", null,
              ResourceVector.parse(Map.of("cpu", "4")), "Running", null))
          .podGroup(new PodGroup("ns", "new", 1, Map.of(), "q", null,
              ResourceVector.parse(Map.of("cpu", ask)), "Pending", null))
          .pod(TestPods.pod("ns/new-0").cpu(ask).group("new").build());
      for (int i = 0; i < 3; i++) {
        cluster.pod(TestPods.pod("ns/stretchy-" + i).cpu("2").group("stretchy").onNode("n1").build());
      }
      cluster.pod(TestPods.pod("ns/exact-0").cpu("4").group("exact").onNode("n1").build());
      Session s = open(cluster);
      assertEquals(4000, plugin.share("q").elastic[ResourceNames.CPU], 1e-6, "6 held - 2 minimum; exact adds none");
      // minResources + allocated (10) + inqueue (0) - elastic (4) within the capability of 16: 9 fits, 11 does not.
      assertEquals(ask.equals("11"), s.callbacks().jobEnqueueable(s.job("ns/new")).isReject(), "asking " + ask);
    }
  }

  @Test
  void theQueueWithTheLowerShareGoesFirst() {
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("4").build())
        .queue(queue("a", 1, null, null)).queue(queue("b", 1, null, null))
        .pod(pod("ns/a-run", "a", "1").onNode("n1").build()).pod(pod("ns/a2", "a", "1").build())
        .pod(pod("ns/b1", "b", "1").build()).pod(pod("ns/b2", "b", "1").build()));
    assertTrue(s.callbacks().queueOrder().compare(s.queue("b"), s.queue("a")) < 0);
  }

  // Note for the hand computations below: the session always has the implicit "default" queue (weight 1, asks
  // nothing). It takes part in the first water-filling round (its weight counts in the divisor) and leaves at once
  // with 0, so what it was offered is handed out again in the next round.

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

  /**
   * 4 CPUs; a (weight 1) runs four 1-CPU pods; b (weight 2) has two pending 1-CPU pods. Round 1 (weights 1+2+1=4):
   * a 1000, b 2000 (= its request, satisfied), default 0; 1000 left. Round 2: a alone gets it: a deserves 2000.
   */
  private Session aHoldsFourDeservesTwo() {
    return open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("4").build())
        .queue(queue("a", 1, null, null)).queue(queue("b", 2, null, null))
        .pod(pod("ns/a1", "a", "1").onNode("n1").build()).pod(pod("ns/a2", "a", "1").onNode("n1").build())
        .pod(pod("ns/a3", "a", "1").onNode("n1").build()).pod(pod("ns/a4", "a", "1").onNode("n1").build())
        .pod(pod("ns/b1", "b", "1").build()).pod(pod("ns/b2", "b", "1").build()));
  }

  @Test
  void reclaimOffersOnlyWhatAQueueHoldsAboveItsDeservedShare() {
    Session s = aHoldsFourDeservesTwo();
    assertEquals(2_000, deservedCpu("a"), 1e-6);
    assertEquals(2_000, deservedCpu("b"), 1e-6);
    assertEquals(4_000, plugin.share("a").allocated[ResourceNames.CPU], 1e-6);
    TaskInfo reclaimer = TestSessions.task(s, "ns/b1");
    // Every pod of a queue above its share may be offered; how many go is the reclaim action's count, asked of
    // mayReclaimFrom after each victim (see reclaimFollowsEvictionsMadeEarlierInTheSession).
    List<TaskInfo> candidates = tasks(s, "ns/a1", "ns/a2", "ns/a3", "ns/a4");
    assertEquals(List.of("ns/a1", "ns/a2", "ns/a3", "ns/a4"), keys(s.callbacks().reclaimable(reclaimer, candidates)));
    assertTrue(s.callbacks().mayReclaimFrom(s.queue("a")));
    assertFalse(s.callbacks().mayReclaimFrom(s.queue("b")), "b holds nothing: not above its share");
  }

  @Test
  void reclaimFollowsEvictionsMadeEarlierInTheSession() {
    Session s = aHoldsFourDeservesTwo();
    TaskInfo reclaimer = TestSessions.task(s, "ns/b1");
    Statement st = s.newStatement();
    st.evict(TestSessions.task(s, "ns/a1"), "reclaim");
    // a now holds 3000 against 2000 deserved: one more pod may go.
    assertEquals(3_000, plugin.share("a").allocated[ResourceNames.CPU], 1e-6);
    assertTrue(s.callbacks().mayReclaimFrom(s.queue("a")));
    st.evict(TestSessions.task(s, "ns/a2"), "reclaim");
    // 2000 held, 2000 deserved: nothing more.
    assertFalse(s.callbacks().mayReclaimFrom(s.queue("a")));
    assertEquals(List.of(), keys(s.callbacks().reclaimable(reclaimer, tasks(s, "ns/a3", "ns/a4"))));
    st.discard();
    // Undoing the evictions gives a back its 4000: above its share again.
    assertTrue(s.callbacks().mayReclaimFrom(s.queue("a")));
    assertEquals(4, s.callbacks().reclaimable(reclaimer, tasks(s, "ns/a1", "ns/a2", "ns/a3", "ns/a4")).size());
  }

  @Test
  void aQueueAtOrBelowItsDeservedShareOffersNothing() {
    // Same shares as aHoldsFourDeservesTwo (a asks 4 CPUs in all, b asks 2), but a runs only two pods (at its
    // 2000) and, in the second cluster, only one (below it).
    for (int running = 1; running <= 2; running++) {
      TestSessions c = TestSessions.cluster()
          .node(TestNodes.node("n1").cpu("4").build())
          .queue(queue("a", 1, null, null)).queue(queue("b", 2, null, null))
          .pod(pod("ns/b1", "b", "1").build()).pod(pod("ns/b2", "b", "1").build());
      for (int i = 1; i <= 4; i++) {
        TestPods p = pod("ns/a" + i, "a", "1");
        c.pod((i <= running ? p.onNode("n1") : p).build());
      }
      Session s = open(c);
      assertEquals(2_000, deservedCpu("a"), 1e-6);
      assertEquals(running * 1_000, plugin.share("a").allocated[ResourceNames.CPU], 1e-6);
      assertEquals(List.of(), keys(s.callbacks().reclaimable(TestSessions.task(s, "ns/b1"), s.tasksOn("n1"))),
          running + " running");
    }
  }

  @Test
  void eachQueueIsCountedDownOnItsOwn() {
    // 8 CPUs; a, b, c weight 1 (+ default 1 = 4). a runs four 1-CPU pods, c runs two, b has four pending.
    // Round 1: 2000 each; c is satisfied (asks 2000), default leaves with 0; 8000 - 6000 = 2000 left.
    // Round 2: a and b split it, 1000 each: a 3000, b 3000, c 2000.
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 1, null, null)).queue(queue("b", 1, null, null)).queue(queue("c", 1, null, null))
        .pod(pod("ns/a1", "a", "1").onNode("n1").build()).pod(pod("ns/a2", "a", "1").onNode("n1").build())
        .pod(pod("ns/a3", "a", "1").onNode("n1").build()).pod(pod("ns/a4", "a", "1").onNode("n1").build())
        .pod(pod("ns/c1", "c", "1").onNode("n1").build()).pod(pod("ns/c2", "c", "1").onNode("n1").build())
        .pod(pod("ns/b1", "b", "1").build()).pod(pod("ns/b2", "b", "1").build())
        .pod(pod("ns/b3", "b", "1").build()).pod(pod("ns/b4", "b", "1").build()));
    assertEquals(3_000, deservedCpu("a"), 1e-6);
    assertEquals(3_000, deservedCpu("b"), 1e-6);
    assertEquals(2_000, deservedCpu("c"), 1e-6);
    // a is 1000 over; c is exactly at its share (none of its pods), even though c's pods come first.
    List<TaskInfo> candidates = tasks(s, "ns/c1", "ns/a1", "ns/c2", "ns/a2", "ns/a3", "ns/a4");
    assertEquals(List.of("ns/a1", "ns/a2", "ns/a3", "ns/a4"),
        keys(s.callbacks().reclaimable(TestSessions.task(s, "ns/b1"), candidates)));
    assertTrue(s.callbacks().mayReclaimFrom(s.queue("a")));
    assertFalse(s.callbacks().mayReclaimFrom(s.queue("c")));
  }

  @Test
  void weightsOneToThreeSplitEightCpus() {
    // Both ask 8 CPUs. Round 1 (1+3+1 = 5): a 8000/5 = 1600, b 4800, default 0; 1600 left.
    // Round 2 (1+3 = 4): a +400 = 2000, b +1200 = 6000.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 1, null, null)).queue(queue("b", 3, null, null))
        .pod(pod("ns/a1", "a", "8").build()).pod(pod("ns/b1", "b", "8").build()));
    assertEquals(2_000, deservedCpu("a"), 1e-6);
    assertEquals(6_000, deservedCpu("b"), 1e-6);
  }

  @Test
  void aGuaranteeAboveTheWeightedShareWins() {
    // 8 CPUs, equal weights, both ask 8; a is guaranteed 6. realCapability: a = (8-6)+6 = 8, b = (8-6)+0 = 2.
    // Round 1 (1+1+1 = 3): a 2666 -> floored to its guarantee 6000; b 2666 -> capped at 2000. Nothing left.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 1, null, "6")).queue(queue("b", 1, null, null))
        .pod(pod("ns/a1", "a", "8").build()).pod(pod("ns/b1", "b", "8").build()));
    assertEquals(6_000, deservedCpu("a"), 1e-6);
    assertEquals(2_000, deservedCpu("b"), 1e-6);
    assertEquals(8_000, plugin.share("a").realCapability[ResourceNames.CPU], 1e-6);
    assertEquals(2_000, plugin.share("b").realCapability[ResourceNames.CPU], 1e-6);
  }

  @Test
  void aCapabilityBelowTheWeightedShareHandsTheRestToTheOthers() {
    // 8 CPUs; a weight 3 capped at 2, b weight 1; both ask 8.
    // Round 1 (3+1+1 = 5): a 4800 -> capped 2000; b 1600; 4400 left.
    // Round 2 (3+1 = 4): a stays 2000 (and leaves: nothing changed); b +1100 = 2700; 3300 left.
    // Round 3: b alone +3300 = 6000.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 3, "2", null)).queue(queue("b", 1, null, null))
        .pod(pod("ns/a1", "a", "8").build()).pod(pod("ns/b1", "b", "8").build()));
    assertEquals(2_000, deservedCpu("a"), 1e-6);
    assertEquals(6_000, deservedCpu("b"), 1e-6);
  }

  @Test
  void aQueueAskingLessThanItsShareGetsWhatItAsksAndTheRestFlowsOn() {
    // 8 CPUs; a weight 1 asks 1 CPU, b weight 2 asks 8.
    // Round 1 (1+2+1 = 4): a min(2000, asks 1000) = 1000, satisfied; b 4000; 3000 left. Round 2: b +3000 = 7000.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a", 1, null, null)).queue(queue("b", 2, null, null))
        .pod(pod("ns/a1", "a", "1").build()).pod(pod("ns/b1", "b", "8").build()));
    assertEquals(1_000, deservedCpu("a"), 1e-6);
    assertEquals(7_000, deservedCpu("b"), 1e-6);
  }

  @Test
  void aQueueHoldingNothingIsNotOverused() {
    // 4 CPUs; idle asks nothing; waiting asks 1 CPU (pending); g asks nothing but is guaranteed 2.
    // realCapability: waiting (4-2)+0 = 2000, g (4-2)+2 = 4000. Round 1 (4 queues with default): waiting
    // min(1000, asks 1000) = 1000; g min(1000, asks 0) floored to 2000; idle and default 0.
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("4").build())
        .queue(queue("idle", 1, null, null)).queue(queue("waiting", 1, null, null))
        .queue(queue("g", 1, null, "2"))
        .pod(pod("ns/w1", "waiting", "1").build()));
    assertEquals(0, deservedCpu("idle"), 1e-6);
    assertEquals(1_000, deservedCpu("waiting"), 1e-6);
    assertEquals(2_000, deservedCpu("g"), 1e-6);
    // allocated 0 >= deserved 0 on every resource, yet a queue holding nothing is not overused.
    assertFalse(s.callbacks().overused(s.queue("idle")));
    assertFalse(s.callbacks().overused(s.queue("default")));
    assertFalse(s.callbacks().overused(s.queue("waiting")));
    assertFalse(s.callbacks().overused(s.queue("g")));
    s.newStatement().allocate(TestSessions.task(s, "ns/w1"), s.node("n1"));
    // waiting now holds 1000 = its deserved.
    assertTrue(s.callbacks().overused(s.queue("waiting")));
    assertFalse(s.callbacks().overused(s.queue("idle")));
  }

  @Test
  void overusedOnlyOnceEveryResourceReachesTheDeservedShare() {
    // 4 CPUs, 8Gi; only queue a: a1 runs {cpu 2, 1Gi}, a2 pending {2Gi}. a asks cpu 2000, memory 3Gi.
    // Round 1 (a + default): cpu min(2000, 2000) = 2000, memory min(4Gi, 3Gi) = 3Gi; satisfied.
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("4").memory("8Gi").build())
        .queue(queue("a", 1, null, null))
        .pod(pod("ns/a1", "a", "2").memory("1Gi").onNode("n1").build())
        .pod(TestPods.pod("ns/a2").memory("2Gi").annotation("scheduling.volcano.sh/queue-name", "a").build()));
    assertEquals(2_000, deservedCpu("a"), 1e-6);
    assertEquals(3.0 * (1L << 30), plugin.share("a").deserved[ResourceNames.MEMORY], 1);
    // cpu at its share, memory 1Gi of 3Gi: not overused, and a2 (memory only) still fits.
    assertFalse(s.callbacks().overused(s.queue("a")));
    assertTrue(s.callbacks().allocatable(s.queue("a"), TestSessions.task(s, "ns/a2")));
    s.newStatement().allocate(TestSessions.task(s, "ns/a2"), s.node("n1"));
    assertTrue(s.callbacks().overused(s.queue("a")));
  }
}
