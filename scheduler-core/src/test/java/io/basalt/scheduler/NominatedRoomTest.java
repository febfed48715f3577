package io.basalt.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.actions.ActionRegistry;
import io.basalt.cache.ClusterCache;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.Vote;
import io.basalt.model.Pod;
import io.basalt.session.SessionResult;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Room nominated to a pending pod is not given to another pod of lower priority: a hold read back from the pod's
 * {@code status.nominatedNodeName} (Basalt restarted), and another scheduler's nomination.
 */
class NominatedRoomTest {
  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
  private final Scheduler scheduler;

  NominatedRoomTest() {
    // No plugins: jobs go by creation time, so the low-priority pod comes first and would take the idle room.
    SchedulerProfile profile = ConfValidator.validate(TestSessions.parse(
        "actions: \"allocate\"\ntiers:\n- plugins: []\n"), PluginRegistry.of(), ActionRegistry.builtin()).profile();
    scheduler = new Scheduler(cache, () -> profile, new Binder() {
      @Override
      public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
        bindings.forEach(b -> outcomes.bound(b.pod().uid()));
      }

      @Override
      public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {}
    }, StatusSink.NONE);
  }

  @Test
  void aNominationReadFromTheApiKeepsTheRoomFromALowerPriorityPod() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/victim").cpu("4").onNode("n1").terminating().build());
    Pod low = TestPods.pod("ns/low").cpu("4").created(Instant.parse("2026-01-01T00:00:00Z")).build();
    Pod high = TestPods.pod("ns/high").cpu("8").priority(1000).created(Instant.parse("2026-01-01T00:01:00Z"))
        .build().withNominatedNodeName("n1");
    cache.putPod(low);
    cache.putPod(high);
    SessionResult first = scheduler.runOnce();
    assertEquals(List.of(), first.bindings(), "the idle half of n1 is held for ns/high");
    assertEquals("n1", pending(first, "ns/high").nominatedNode());
    assertEquals(null, pending(first, "ns/low").nominatedNode());

    cache.removePod("ns-victim-uid");
    SessionResult second = scheduler.runOnce();
    assertEquals(List.of("ns/high"), second.bindings().stream().map(b -> b.pod().key()).toList());
  }

  @Test
  void anotherSchedulersNominatedPodKeepsItsRoom() {
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    Pod theirs = TestPods.pod("ns/theirs").cpu("6").priority(1000).scheduler("default-scheduler").build()
        .withNominatedNodeName("n1");
    cache.putPod(theirs);
    cache.putPod(TestPods.pod("ns/ours").cpu("4").build());
    SessionResult first = scheduler.runOnce();
    assertEquals(List.of(), first.bindings());
    assertTrue(pending(first, "ns/ours").reason().contains("Insufficient cpu"), pending(first, "ns/ours").reason());

    cache.putPod(theirs.withNodeName("n2")); // their scheduler placed it elsewhere after all
    assertEquals(List.of("ns/ours"), scheduler.runOnce().bindings().stream().map(b -> b.pod().key()).toList());
  }

  /**
   * A preemptor's job is not sent through enqueue again while its victims terminate: it holds a nomination, so it
   * opens admitted, and an admission plugin that now refuses everything (as overcommit does while the victims'
   * resources still count as used) neither names it nor keeps it from its node once they are gone.
   */
  @Test
  void aNominatedPodsJobOpensAdmittedAndIsNotRefusedAgainAtEnqueue() {
    SchedulerProfile refusing = ConfValidator.validate(TestSessions.parse(
        "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: refuse\n"),
        PluginRegistry.of(PluginDescriptor.of("refuse", Refuse::new)), ActionRegistry.builtin()).profile();
    Scheduler s = new Scheduler(cache, () -> refusing, new Binder() {
      @Override
      public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
        bindings.forEach(b -> outcomes.bound(b.pod().uid()));
      }

      @Override
      public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {}
    }, StatusSink.NONE);
    cache.putNode(TestNodes.node("n1").cpu("8").build());
    cache.putPod(TestPods.pod("ns/victim").cpu("8").onNode("n1").terminating().build());
    cache.putPod(TestPods.pod("ns/high").cpu("8").priority(1000).build().withNominatedNodeName("n1"));
    cache.putPod(TestPods.pod("ns/other").cpu("1").build());
    SessionResult first = s.runOnce();
    assertEquals(List.of(), first.bindings());
    assertEquals("n1", pending(first, "ns/high").nominatedNode());
    assertTrue(!pending(first, "ns/high").reason().contains("refused"), pending(first, "ns/high").reason());
    assertTrue(pending(first, "ns/other").reason().contains("refused"), "a job without a nomination is asked");

    cache.removePod("ns-victim-uid");
    assertEquals(List.of("ns/high"), s.runOnce().bindings().stream().map(b -> b.pod().key()).toList());
  }

  /** An admission plugin refusing every job. */
  private static final class Refuse implements Plugin {
    @Override
    public String name() {
      return "refuse";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addJobEnqueueable(job -> Vote.reject("refused"));
    }
  }

  private static SessionResult.PendingPod pending(SessionResult r, String key) {
    return r.pending().stream().filter(p -> p.pod().key().equals(key)).findFirst().orElseThrow();
  }
}
