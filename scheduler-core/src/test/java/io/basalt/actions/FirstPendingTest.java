package io.basalt.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basalt.api.JobInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Preempt and reclaim take a starving job's first pending pod without sorting all of them: the same pod. */
class FirstPendingTest {
  private static final Instant T = Instant.ofEpochSecond(1_600_000_000L);

  @Test
  void theLeastPendingPodInTaskOrderIsTheFirstOfTheSortedOnes() {
    Session s = TestSessions.cluster().node(TestNodes.node("n1").cpu("8").build())
        .podGroup(new PodGroup("ns", "g", 4, Map.of(), null, null, null, "Inqueue", T))
        .podGroup(new PodGroup("ns", "idle", 1, Map.of(), null, null, null, "Running", T))
        .pod(TestPods.pod("ns/g-b").cpu("1").group("g").created(T.plusSeconds(2)).build())
        .pod(TestPods.pod("ns/g-c").cpu("1").group("g").created(T.plusSeconds(1)).build())
        .pod(TestPods.pod("ns/g-a").cpu("1").group("g").created(T.plusSeconds(1)).build())
        .pod(TestPods.pod("ns/g-old").cpu("1").group("g").created(T).onNode("n1").build())
        .pod(TestPods.pod("ns/idle-0").cpu("1").group("idle").onNode("n1").build())
        .open(PluginRegistry.of(), "actions: \"preempt\"\ntiers: []\n");
    JobInfo g = s.job("ns/g");
    assertEquals("ns/g-a", Evictions.firstPending(s, g).key(), "earliest created, then by key; the running pod not");
    assertSame(JobPlacer.pendingTasks(s, g, t -> true).get(0), Evictions.firstPending(s, g));
    assertNull(Evictions.firstPending(s, s.job("ns/idle")));
  }
}
