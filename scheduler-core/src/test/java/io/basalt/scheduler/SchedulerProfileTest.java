package io.basalt.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.actions.ActionRegistry;
import io.basalt.cache.ClusterCache;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.session.Session;
import io.basalt.session.SessionResult;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A config is read once when compiled; cycles only build fresh plugin instances from what was read. */
class SchedulerProfileTest {
  private static final Binder NO_BINDS = new Binder() {
    @Override
    public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {}

    @Override
    public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {}
  };

  private record Counted(String name, int weight, List<Integer> seen) implements Plugin {
    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      seen.add(weight);
    }
  }

  @Test
  void argumentsAreReadOnceAcrossCyclesAndEachSessionGetsItsOwnInstance() {
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger instances = new AtomicInteger();
    List<Integer> seen = new ArrayList<>();
    PluginRegistry plugins = PluginRegistry.of(PluginDescriptor.of("counted", args -> {
      reads.incrementAndGet();
      return args.getInt("weight", 1);
    }, weight -> {
      instances.incrementAndGet();
      return new Counted("counted", weight, seen);
    }));
    SchedulerProfile profile = ConfValidator.validate(TestSessions.parse("""
        actions: "enqueue, allocate"
        tiers:
        - plugins:
          - name: counted
            arguments:
              weight: 7
        """), plugins, ActionRegistry.builtin()).profile();
    assertEquals(1, reads.get(), "read when compiled");
    assertEquals(0, instances.get(), "no instance until a session opens");
    Scheduler scheduler = new Scheduler(new ClusterCache(Set.of("basalt-scheduler"), "default"), () -> profile,
        NO_BINDS, StatusSink.NONE);
    for (int cycle = 0; cycle < 3; cycle++) {
      scheduler.runOnce();
    }
    assertEquals(1, reads.get(), "never read again by a cycle");
    assertEquals(3, instances.get(), "one instance per session");
    assertEquals(List.of(7, 7, 7), seen);
  }
}
