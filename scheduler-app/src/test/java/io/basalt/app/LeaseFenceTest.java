package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.model.Pod;
import io.basalt.model.ResourceVector;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.Lock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A deposed leader never binds: binds are fenced by the time of the last Lease renewal, on an injected clock. */
class LeaseFenceTest {
  private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);

  /** A Lease lock whose writes succeed or fail as told. */
  private static class FakeLock implements Lock {
    final AtomicBoolean writes = new AtomicBoolean(true);

    @Override
    public LeaderElectionRecord get() {
      return null;
    }

    @Override
    public boolean create(LeaderElectionRecord record) {
      return writes.get();
    }

    @Override
    public boolean update(LeaderElectionRecord record) {
      return writes.get();
    }

    @Override
    public String identity() {
      return "me";
    }

    @Override
    public String describe() {
      return "kube-system/basalt";
    }
  }

  private static LeaderElectionRecord held(String holder) {
    LeaderElectionRecord r = new LeaderElectionRecord();
    r.setHolderIdentity(holder);
    return r;
  }

  private static SessionResult.Binding binding(String uid) {
    Pod pod = new Pod(uid, "ns", uid, "basalt-scheduler", null, "Pending", false, 0, null, null, ResourceVector.ZERO,
        Map.of(), Map.of(), Map.of(), List.of(), List.of(), Instant.EPOCH);
    return new SessionResult.Binding(pod, "node-1", Map.of());
  }

  /** Records what reached the API and what was reported back. */
  private static final class Recorder implements Binder, BindOutcomes {
    final List<String> sent = new ArrayList<>();
    final List<String> notBound = new ArrayList<>();
    final List<String> notEvicted = new ArrayList<>();

    @Override
    public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
      bindings.forEach(b -> sent.add("bind " + b.pod().uid()));
    }

    @Override
    public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {
      evictions.forEach(e -> sent.add("evict " + e.pod().uid()));
    }

    @Override
    public void bound(String uid) {}

    @Override
    public void notBound(String uid, boolean hold) {
      assertFalse(hold, "a refused bind holds no node: the next leader decides afresh");
      notBound.add(uid);
    }

    @Override
    public void evicted(String uid) {}

    @Override
    public void notEvicted(String uid) {
      notEvicted.add(uid);
    }
  }

  @Test
  void bindsAreRefusedOnceTheLastRenewalIsOlderThanTheRenewDeadline() {
    AtomicLong now = new AtomicLong(1_000);
    FakeLock lease = new FakeLock();
    LeaseFence fence = new LeaseFence(lease, RENEW_DEADLINE, now::get);
    Recorder api = new Recorder();
    FencedBinder binder = new FencedBinder(api, fence);

    binder.bind(List.of(binding("before-election")), api);
    assertEquals(List.of(), api.sent, "a replica that never held the Lease binds nothing");
    assertEquals(List.of("before-election"), api.notBound);

    assertTrue(fence.create(held("me")));
    now.addAndGet(Duration.ofSeconds(3).toNanos());
    binder.bind(List.of(binding("a"), binding("b")), api);
    assertEquals(List.of("bind a", "bind b"), api.sent, "renewed 3 s ago: still the leader");

    // SIGSTOP for 40 s: the cycle decided before the pause hands its binds over after it.
    now.addAndGet(Duration.ofSeconds(40).toNanos());
    binder.bind(List.of(binding("c"), binding("d")), api);
    binder.evict(List.of(new SessionResult.Eviction(binding("victim").pod(), "preempted")), api);
    assertEquals(List.of("bind a", "bind b"), api.sent, "a leader paused past its Lease sends nothing");
    assertEquals(List.of("before-election", "c", "d"), api.notBound, "pending again, for the next leader");
    assertEquals(List.of("victim"), api.notEvicted);

    lease.writes.set(false);
    assertFalse(fence.update(held("me")));
    assertFalse(fence.holds(), "a failed renewal proves nothing");
    lease.writes.set(true);
    assertTrue(fence.update(held("me")));
    binder.bind(List.of(binding("e")), api);
    assertEquals(List.of("bind a", "bind b", "bind e"), api.sent, "renewed again: binds go out");
  }

  @Test
  void theRenewalCountsFromWhenItWasSentAndUpToTheDeadlineExclusive() {
    AtomicLong now = new AtomicLong(0);
    Lock slow = new FakeLock() {
      @Override
      public boolean update(LeaderElectionRecord record) {
        now.addAndGet(Duration.ofSeconds(4).toNanos()); // the API server answers 4 s later
        return true;
      }
    };
    LeaseFence fence = new LeaseFence(slow, RENEW_DEADLINE, now::get);
    assertTrue(fence.update(held("me")));
    assertEquals(Duration.ofSeconds(4), fence.sinceRenewal());
    now.addAndGet(Duration.ofSeconds(6).toNanos() - 1);
    assertTrue(fence.holds());
    now.incrementAndGet();
    assertFalse(fence.holds(), "10 s after the renewal was sent, not after its answer");
  }

  @Test
  void releasingOrLosingTheLeaseEndsTheFenceAtOnce() {
    AtomicLong now = new AtomicLong(0);
    LeaseFence fence = new LeaseFence(new FakeLock(), RENEW_DEADLINE, now::get);
    assertTrue(fence.update(held("me")));
    assertTrue(fence.holds());
    assertTrue(fence.update(held(null)));
    assertFalse(fence.holds(), "released");
    assertTrue(fence.update(held("me")));
    assertTrue(fence.update(held("someone-else")));
    assertFalse(fence.holds(), "written for another holder");
  }
}
