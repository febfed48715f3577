package io.basalt.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** One test per combination rule: how answers of several plugins in several tiers become one. */
class TierCombinationTest {
  /** A plugin whose registrations are given by the test. */
  private record Fake(String name, Consumer<Session> open) implements Plugin {
    @Override
    public void onSessionOpen(Session session) {
      open.accept(session);
    }
  }

  private final Map<String, PluginDescriptor<?>> plugins = new HashMap<>();
  private final TestSessions cluster = TestSessions.cluster()
      .node(TestNodes.node("n1").cpu("4").memory("8Gi").build())
      .pod(TestPods.pod("ns/a").cpu("1").priority(1).build())
      .pod(TestPods.pod("ns/b").cpu("1").priority(2).build());

  private void plugin(String name, Function<Plugin, Consumer<Session>> open) {
    plugins.put(name, PluginDescriptor.of(name, () -> {
      Plugin[] self = new Plugin[1];
      self[0] = new Fake(name, s -> open.apply(self[0]).accept(s));
      return self[0];
    }));
  }

  private Session open(String tiers) {
    return cluster.open(PluginRegistry.of(List.copyOf(plugins.values())), "actions: allocate\ntiers:\n" + tiers);
  }

  private JobInfo job(Session s, String key) {
    return s.job(key);
  }

  @Test
  void ordersTakeTheFirstNonZeroAnswerInTierOrder() {
    plugin("indifferent", p -> s -> s.addJobOrder(p, (a, b) -> 0));
    plugin("byName", p -> s -> s.addJobOrder(p, (a, b) -> b.key().compareTo(a.key())));
    plugin("byPriority", p -> s -> s.addJobOrder(p, (a, b) -> Integer.compare(a.priority(), b.priority())));
    Session s = open("- plugins:\n  - name: indifferent\n  - name: byName\n- plugins:\n  - name: byPriority\n");
    // byName (reverse) decides before byPriority is asked: b before a.
    assertTrue(s.jobOrder().compare(job(s, "ns/b"), job(s, "ns/a")) < 0);
  }

  @Test
  void disabledFlagDropsTheRegistration() {
    plugin("byName", p -> s -> s.addJobOrder(p, (a, b) -> b.key().compareTo(a.key())));
    Session s = open("- plugins:\n  - name: byName\n    enableJobOrder: false\n");
    // Falls back to creation order: a was created first.
    assertTrue(s.jobOrder().compare(job(s, "ns/a"), job(s, "ns/b")) < 0);
  }

  @Test
  void filtersMustAllPassAndReportTheFirstFailure() {
    plugin("pass", p -> s -> s.addFilter(p, (t, n) -> FilterResult.OK));
    plugin("fail", p -> s -> s.addFilter(p, (t, n) -> FilterResult.unfit("node(s) said no")));
    Session s = open("- plugins:\n  - name: pass\n- plugins:\n  - name: fail\n");
    FilterResult r = s.filter(TestSessions.task(s, "ns/a"), s.node("n1"));
    assertEquals("node(s) said no", r.reason());
  }

  @Test
  void scoresAreSummedAcrossTiers() {
    plugin("ten", p -> s -> s.addScorer(p, (t, n) -> 10));
    plugin("half", p -> s -> s.addScorer(p, (t, n) -> 0.5));
    Session s = open("- plugins:\n  - name: ten\n- plugins:\n  - name: half\n");
    assertEquals(10.5, s.score(TestSessions.task(s, "ns/a"), s.node("n1")));
  }

  @Test
  void aRejectWinsEvenAfterAPermitInTheSameTier() {
    plugin("permit", p -> s -> s.addJobEnqueueable(p, j -> Vote.PERMIT));
    plugin("reject", p -> s -> s.addJobEnqueueable(p, j -> Vote.reject("full")));
    Session s = open("- plugins:\n  - name: permit\n  - name: reject\n");
    assertEquals("full", s.jobEnqueueable(job(s, "ns/a")).reason());
  }

  @Test
  void theFirstTierHoldingAPermitDecides() {
    plugin("permit", p -> s -> s.addJobEnqueueable(p, j -> Vote.PERMIT));
    plugin("reject", p -> s -> s.addJobEnqueueable(p, j -> Vote.reject("full")));
    Session s = open("- plugins:\n  - name: permit\n- plugins:\n  - name: reject\n");
    assertEquals(Vote.PERMIT, s.jobEnqueueable(job(s, "ns/a")));
  }

  @Test
  void allAbstainingFallsThroughToYes() {
    plugin("abstain", p -> s -> s.addJobPipelined(p, j -> Vote.ABSTAIN));
    plugin("abstainToo", p -> s -> s.addJobPipelined(p, j -> Vote.ABSTAIN));
    Session s = open("- plugins:\n  - name: abstain\n- plugins:\n  - name: abstainToo\n");
    assertTrue(s.jobPipelined(job(s, "ns/a")));
    assertEquals(Vote.ABSTAIN, s.jobEnqueueable(job(s, "ns/a")));
  }

  @Test
  void jobReadyNeedsEveryPlugin() {
    plugin("ready", p -> s -> s.addJobReady(p, j -> true));
    plugin("notReady", p -> s -> s.addJobReady(p, j -> false));
    assertTrue(open("- plugins:\n  - name: ready\n").jobReady(job(open("- plugins:\n  - name: ready\n"), "ns/a")));
    Session s = open("- plugins:\n  - name: ready\n- plugins:\n  - name: notReady\n");
    assertFalse(s.jobReady(job(s, "ns/a")));
  }

  @Test
  void victimsNeedTheConsentOfEveryAnsweringPluginInEveryTier() {
    plugin("abstain", p -> s -> s.addPreemptable(p, (t, c) -> null));
    plugin("notA", p -> s -> s.addPreemptable(p, (t, c) -> c.stream().filter(x -> !x.key().equals("ns/a")).toList()));
    plugin("all", p -> s -> s.addPreemptable(p, (t, c) -> c));
    plugin("none", p -> s -> s.addPreemptable(p, (t, c) -> List.of()));
    Session s = open("- plugins:\n  - name: abstain\n  - name: all\n- plugins:\n  - name: notA\n");
    List<TaskInfo> candidates = List.of(TestSessions.task(s, "ns/a"), TestSessions.task(s, "ns/b"));
    assertEquals(List.of(TestSessions.task(s, "ns/b")), s.preemptable(TestSessions.task(s, "ns/b"), candidates),
        "a tier-2 veto holds even though tier 1 allowed everything");
    s = open("- plugins:\n  - name: abstain\n");
    assertEquals(List.of(), s.preemptable(TestSessions.task(s, "ns/b"), candidates), "nobody answered: no victims");
    s = open("- plugins:\n  - name: all\n- plugins:\n  - name: none\n    enablePreemptable: false\n");
    assertEquals(2, s.preemptable(TestSessions.task(s, "ns/b"), candidates).size(), "a switched-off plugin has no say");
  }

  @Test
  void overusedWhenAnyPluginSaysSo() {
    plugin("fine", p -> s -> s.addOverused(p, q -> false));
    plugin("over", p -> s -> s.addOverused(p, q -> true));
    Session s = open("- plugins:\n  - name: fine\n- plugins:\n  - name: over\n");
    assertTrue(s.overused(s.queue("default")));
    s = open("- plugins:\n  - name: fine\n- plugins:\n  - name: over\n    enabledOverused: false\n");
    assertFalse(s.overused(s.queue("default")));
  }
}
