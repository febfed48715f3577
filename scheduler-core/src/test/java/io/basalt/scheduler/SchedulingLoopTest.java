package io.basalt.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.actions.ActionRegistry;
import io.basalt.cache.ClusterCache;
import io.basalt.framework.PluginRegistry;
import io.basalt.session.SessionResult;
import io.basalt.testing.Await;
import io.basalt.testing.TestSessions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class SchedulingLoopTest {
  private static final Binder NO_BINDS = new Binder() {
    @Override
    public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {}

    @Override
    public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {}
  };

  @Test
  void aStuckCycleShowsItsAgeAndAFailingOneDoesNotStopTheLoop() throws Exception {
    SchedulerProfile conf = ConfValidator.validate(TestSessions.parse("actions: \"allocate\"\ntiers:\n- plugins: []\n"),
        PluginRegistry.of(), ActionRegistry.builtin()).profile();
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    Supplier<SchedulerProfile> confs = () -> {
      int n = calls.incrementAndGet();
      if (n == 2) {
        throw new IllegalStateException("a bad cycle");
      }
      if (n == 4) {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return conf;
    };
    Scheduler scheduler = new Scheduler(new ClusterCache(Set.of("basalt-scheduler"), "default"), confs, NO_BINDS,
        StatusSink.NONE);
    SchedulingLoop loop = new SchedulingLoop(scheduler, Duration.ofMillis(10));
    Thread t = new Thread(loop);
    t.start();
    try {
      Await.until("the fourth cycle hangs", Duration.ofSeconds(10), () -> calls.get() == 4);
      Thread.sleep(100);
      assertTrue(loop.cycleRunningFor().toMillis() >= 100, "age " + loop.cycleRunningFor());
      assertEquals(2, loop.cycles(), "cycles 1 and 3 finished; 2 threw and the loop went on");
      release.countDown();
      Await.until("cycles go on", Duration.ofSeconds(10), () -> loop.cycles() >= 4);
      loop.stop();
      t.join(5000);
      assertEquals(Duration.ZERO, loop.cycleRunningFor(), "between cycles");
    } finally {
      release.countDown();
      loop.stop();
    }
  }

  @Test
  void failingCyclesAreCountedFromTheFirstUntilOneSucceeds() throws Exception {
    SchedulerProfile conf = ConfValidator.validate(TestSessions.parse("actions: \"allocate\"\ntiers:\n- plugins: []\n"),
        PluginRegistry.of(), ActionRegistry.builtin()).profile();
    java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean(true);
    AtomicInteger calls = new AtomicInteger();
    Supplier<SchedulerProfile> confs = () -> {
      calls.incrementAndGet();
      if (failing.get()) {
        throw new IllegalStateException("every cycle fails");
      }
      return conf;
    };
    Scheduler scheduler = new Scheduler(new ClusterCache(Set.of("basalt-scheduler"), "default"), confs, NO_BINDS,
        StatusSink.NONE);
    SchedulingLoop loop = new SchedulingLoop(scheduler, Duration.ofMillis(10));
    assertEquals(0, loop.failedInARow());
    assertEquals(Duration.ZERO, loop.failingFor());
    Thread t = new Thread(loop);
    t.start();
    try {
      Await.until("cycles fail", Duration.ofSeconds(10), () -> loop.failedInARow() >= 5);
      Thread.sleep(100);
      assertTrue(loop.failingFor().toMillis() >= 100, "failing for " + loop.failingFor());
      assertTrue(loop.lastFailure().contains("every cycle fails"), loop.lastFailure());
      failing.set(false);
      Await.until("a cycle succeeds", Duration.ofSeconds(10), () -> loop.cycles() >= 1);
      assertEquals(0, loop.failedInARow());
      assertEquals(Duration.ZERO, loop.failingFor());
    } finally {
      loop.stop();
      t.join(5000);
    }
  }
}
