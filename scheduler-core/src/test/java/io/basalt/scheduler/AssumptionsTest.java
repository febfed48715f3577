package io.basalt.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.actions.ActionRegistry;
import io.basalt.cache.ClusterCache;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Pod;
import io.basalt.session.SessionResult;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The cycle assumes, binders only do I/O: a binder that does nothing but remember what it was handed still never
 * gets a pod twice, and what a binder reports settles the cache through one path.
 */
class AssumptionsTest {
  /** Remembers what it was handed and reports nothing, as a binder whose calls are still in flight. */
  private static final class Silent implements Binder {
    final List<SessionResult.Binding> handed = new ArrayList<>();
    final List<SessionResult.Eviction> evictions = new ArrayList<>();
    BindOutcomes outcomes;

    @Override
    public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
      handed.addAll(bindings);
      this.outcomes = outcomes;
    }

    @Override
    public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {
      this.evictions.addAll(evictions);
      this.outcomes = outcomes;
    }
  }

  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
  private final Pod pod = TestPods.pod("ml/p1").cpu("1").build();

  private Scheduler scheduler(Binder binder) {
    SchedulerProfile profile = ConfValidator.validate(TestSessions.parse(
        "actions: \"allocate\"\ntiers:\n- plugins: []\n"),
        PluginRegistry.of(), ActionRegistry.builtin()).profile();
    return new Scheduler(cache, () -> profile, binder, StatusSink.NONE);
  }

  @Test
  void aPodIsHandedToTheBinderOnceWhileItsBindIsInFlight() {
    cache.putNode(TestNodes.node("n1").cpu("4").build());
    cache.putPod(pod);
    Silent binder = new Silent();
    Scheduler s = scheduler(binder);

    s.runOnce();
    s.runOnce();

    assertEquals(1, binder.handed.size(), "the cycle assumed it: the second cycle saw it placed");
    assertEquals("n1", cache.pod(pod.uid()).nodeName());
  }

  @Test
  void aBindReportedFailedIsPendingAgainWithItsNodeHeld() {
    cache.putNode(TestNodes.node("n1").cpu("4").build());
    cache.putPod(pod);
    Silent binder = new Silent();
    scheduler(binder).runOnce();

    binder.outcomes.notBound(pod.uid(), true);

    assertNull(cache.pod(pod.uid()).nodeName(), "pending again");
    assertEquals("n1", cache.snapshot().nominations().get(pod.uid()), "its node held for the next cycle");
  }

  @Test
  void handsOnlyPendingPodsAndSettlesEvictions() {
    Pod running = TestPods.pod("ml/r").cpu("1").onNode("n1").build();
    cache.putNode(TestNodes.node("n1").cpu("4").build());
    cache.putPod(pod);
    cache.putPod(running);
    Assumptions a = new Assumptions(cache);
    Silent binder = new Silent();

    a.bind(binder, List.of(new SessionResult.Binding(running, "n1", java.util.Map.of()),
        new SessionResult.Binding(pod, "n1", java.util.Map.of())));
    a.evict(binder, List.of(new SessionResult.Eviction(running, "test")));

    assertEquals(List.of(pod.uid()), binder.handed.stream().map(b -> b.pod().uid()).toList(),
        "a pod already placed is not bound again");
    assertTrue(cache.pod(running.uid()).terminating(), "marked before the binder saw it");
    binder.outcomes.notEvicted(running.uid());
    assertFalse(cache.pod(running.uid()).terminating(), "a refused eviction rolls back");
    binder.outcomes.bound(pod.uid());
    assertEquals("n1", cache.pod(pod.uid()).nodeName(), "an accepted bind stays placed");
  }
}
