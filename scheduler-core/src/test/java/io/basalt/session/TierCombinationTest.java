package io.basalt.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.Vote;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** One test per combination rule: how answers of several plugins in several tiers become one. */
class TierCombinationTest {
  /** A plugin whose registrations are given by the test. */
  private record Fake(String name, Consumer<Registrar> open) implements Plugin {
    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      open.accept(registrar);
    }
  }

  private final Map<String, PluginDescriptor<?>> plugins = new HashMap<>();
  private final TestSessions cluster = TestSessions.cluster()
      .node(TestNodes.node("n1").cpu("4").memory("8Gi").build())
      .pod(TestPods.pod("ns/a").cpu("1").priority(1).build())
      .pod(TestPods.pod("ns/b").cpu("1").priority(2).build());

  private void plugin(String name, Consumer<Registrar> open) {
    plugins.put(name, PluginDescriptor.of(name, () -> new Fake(name, open)));
  }

  private Session open(String tiers) {
    return cluster.open(PluginRegistry.of(List.copyOf(plugins.values())), "actions: allocate\ntiers:\n" + tiers);
  }

  private JobInfo job(Session s, String key) {
    return s.job(key);
  }

  @Test
  void ordersTakeTheFirstNonZeroAnswerInTierOrder() {
    plugin("indifferent", r -> r.addJobOrder((a, b) -> 0));
    plugin("byName", r -> r.addJobOrder((a, b) -> b.key().compareTo(a.key())));
    plugin("byPriority", r -> r.addJobOrder((a, b) -> Integer.compare(a.priority(), b.priority())));
    Session s = open("- plugins:\n  - name: indifferent\n  - name: byName\n- plugins:\n  - name: byPriority\n");
    // byName (reverse) decides before byPriority is asked: b before a.
    assertTrue(s.callbacks().jobOrder().compare(job(s, "ns/b"), job(s, "ns/a")) < 0);
  }

  @Test
  void disabledFlagDropsTheRegistration() {
    plugin("byName", r -> r.addJobOrder((a, b) -> b.key().compareTo(a.key())));
    Session s = open("- plugins:\n  - name: byName\n    enableJobOrder: false\n");
    // Falls back to creation order: a was created first.
    assertTrue(s.callbacks().jobOrder().compare(job(s, "ns/a"), job(s, "ns/b")) < 0);
  }

  @Test
  void filtersMustAllPassAndReportTheFirstFailure() {
    plugin("pass", r -> r.addFilter((t, n) -> FilterResult.OK));
    plugin("fail", r -> r.addFilter((t, n) -> FilterResult.unfit("node(s) said no")));
    Session s = open("- plugins:\n  - name: pass\n- plugins:\n  - name: fail\n");
    FilterResult r = s.callbacks().filter(TestSessions.task(s, "ns/a"), s.node("n1"));
    assertEquals("node(s) said no", r.reason());
  }

  @Test
  void scoresAreSummedAcrossTiers() {
    plugin("ten", r -> r.addScorer((t, n) -> 10));
    plugin("half", r -> r.addScorer((t, n) -> 0.5));
    Session s = open("- plugins:\n  - name: ten\n- plugins:\n  - name: half\n");
    assertEquals(10.5, s.callbacks().score(TestSessions.task(s, "ns/a"), s.node("n1")));
  }

  @Test
  void aRejectWinsEvenAfterAPermitInTheSameTier() {
    plugin("permit", r -> r.addJobEnqueueable(j -> Vote.PERMIT));
    plugin("reject", r -> r.addJobEnqueueable(j -> Vote.reject("full")));
    Session s = open("- plugins:\n  - name: permit\n  - name: reject\n");
    assertEquals("full", s.callbacks().jobEnqueueable(job(s, "ns/a")).reason());
  }

  @Test
  void theFirstTierHoldingAPermitDecides() {
    plugin("permit", r -> r.addJobEnqueueable(j -> Vote.PERMIT));
    plugin("reject", r -> r.addJobEnqueueable(j -> Vote.reject("full")));
    Session s = open("- plugins:\n  - name: permit\n- plugins:\n  - name: reject\n");
    assertEquals(Vote.PERMIT, s.callbacks().jobEnqueueable(job(s, "ns/a")));
  }

  @Test
  void allAbstainingFallsThroughToYes() {
    plugin("abstain", r -> r.addJobPipelined(j -> Vote.ABSTAIN));
    plugin("abstainToo", r -> r.addJobPipelined(j -> Vote.ABSTAIN));
    Session s = open("- plugins:\n  - name: abstain\n- plugins:\n  - name: abstainToo\n");
    assertTrue(s.callbacks().jobPipelined(job(s, "ns/a")));
    assertEquals(Vote.ABSTAIN, s.callbacks().jobEnqueueable(job(s, "ns/a")));
  }

  @Test
  void jobReadyNeedsEveryPlugin() {
    plugin("ready", r -> r.addJobReady(j -> true));
    plugin("notReady", r -> r.addJobReady(j -> false));
    Session alone = open("- plugins:\n  - name: ready\n");
    assertTrue(alone.callbacks().jobReady(job(alone, "ns/a")));
    Session s = open("- plugins:\n  - name: ready\n- plugins:\n  - name: notReady\n");
    assertFalse(s.callbacks().jobReady(job(s, "ns/a")));
  }

  @Test
  void victimsAreDecidedByTheFirstTierLeftWithSomeAsInVolcano() {
    plugin("abstain", r -> r.addPreemptable((t, c) -> null));
    plugin("notA", r -> r.addPreemptable((t, c) -> c.stream().filter(x -> !x.key().equals("ns/a")).toList()));
    plugin("all", r -> r.addPreemptable((t, c) -> c));
    plugin("none", r -> r.addPreemptable((t, c) -> List.of()));
    Session s = open("- plugins:\n  - name: abstain\n  - name: all\n- plugins:\n  - name: notA\n");
    List<TaskInfo> candidates = List.of(TestSessions.task(s, "ns/a"), TestSessions.task(s, "ns/b"));
    assertEquals(candidates, s.callbacks().preemptable(TestSessions.task(s, "ns/b"), candidates),
        "tier 1 answered with victims: tier 2 has no say");
    s = open("- plugins:\n  - name: all\n  - name: notA\n");
    assertEquals(List.of(TestSessions.task(s, "ns/b")), s.callbacks().preemptable(TestSessions.task(s, "ns/b"),
        List.of(TestSessions.task(s, "ns/a"), TestSessions.task(s, "ns/b"))), "answers within a tier intersect");
    s = open("- plugins:\n  - name: none\n  - name: all\n- plugins:\n  - name: notA\n");
    assertEquals(List.of(TestSessions.task(s, "ns/b")), s.callbacks().preemptable(TestSessions.task(s, "ns/b"),
        List.of(TestSessions.task(s, "ns/a"), TestSessions.task(s, "ns/b"))),
        "an empty answer ends its tier with none and the next tier decides");
    candidates = List.of(TestSessions.task(s, "ns/a"), TestSessions.task(s, "ns/b"));
    s = open("- plugins:\n  - name: abstain\n");
    assertEquals(List.of(), s.callbacks().preemptable(TestSessions.task(s, "ns/b"), candidates), "nobody answered: no victims");
    s = open("- plugins:\n  - name: all\n- plugins:\n  - name: none\n    enablePreemptable: false\n");
    assertEquals(2, s.callbacks().preemptable(TestSessions.task(s, "ns/b"), candidates).size(), "a switched-off plugin has no say");
  }

  @Test
  void overusedWhenAnyPluginSaysSo() {
    plugin("fine", r -> r.addOverused(q -> false));
    plugin("over", r -> r.addOverused(q -> true));
    Session s = open("- plugins:\n  - name: fine\n- plugins:\n  - name: over\n");
    assertTrue(s.callbacks().overused(s.queue("default")));
    s = open("- plugins:\n  - name: fine\n- plugins:\n  - name: over\n    enabledOverused: false\n");
    assertFalse(s.callbacks().overused(s.queue("default")));
  }
}
