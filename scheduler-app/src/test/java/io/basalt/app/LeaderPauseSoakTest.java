package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.fake.BindLedger;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.RecordedRequest;
import io.basalt.kube.fake.Resources;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault soak's leader pause (docs/RELIABILITY.md, "Fault soak"): a leader frozen past its Lease (SIGSTOP, a long
 * GC) between deciding a cycle and binding it, while a standby takes the Lease over, must not bind what it decided
 * once it resumes; it exits, and the replica that leads next binds every pod exactly once.
 *
 * <p>A JVM cannot stop itself, so the pause is played where it matters: the scheduling thread is held inside the
 * binder, in front of the fence, while the Lease is rewritten as a standby's and the fence's clock moves on by the
 * pause (40 s). The elector keeps real time; its next renewal finds the standby's Lease and ends leadership.
 */
@Timeout(120)
class LeaderPauseSoakTest {
  private static final String LEASE = "basalt-pause";
  private static final Duration PAUSE = Duration.ofSeconds(40);
  private static final int PODS = 24;

  private static String[] leaderElect() {
    return new String[] {"--leader-elect", "--lease-namespace", "kube-system", "--lease-name", LEASE,
        "--lease-duration", "3s", "--renew-deadline", "2s", "--retry-period", "300ms", "--log-level", "error"};
  }

  /** Holds the first non-empty batch after it is armed: plays the pause there, then hands the batch on. */
  private static final class PausingBinder implements Binder {
    private final Binder next;
    private final Runnable pause;
    private final CountDownLatch paused = new CountDownLatch(1);
    volatile boolean armed;
    final List<String> decidedBeforePause = new ArrayList<>();

    PausingBinder(Binder next, Runnable pause) {
      this.next = next;
      this.pause = pause;
    }

    @Override
    public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
      if (armed && !bindings.isEmpty()) {
        armed = false;
        bindings.forEach(b -> decidedBeforePause.add(b.pod().name()));
        pause.run();
        paused.countDown();
      }
      next.bind(bindings, outcomes);
    }

    @Override
    public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {
      next.evict(evictions, outcomes);
    }
  }

  @Test
  void aLeaderPausedPastItsLeaseBindsNothingItDecidedAndTheNextLeaderBindsEachPodOnce(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      for (int n = 0; n < 4; n++) {
        server.seed(LiveRun.node("node-" + n, 8));
      }
      AtomicLong skew = new AtomicLong();
      Instant[] pausedAt = new Instant[1];
      int[] postsAtPause = new int[1];
      PausingBinder[] tap = new PausingBinder[1];
      Runnable pause = () -> {
        pausedAt[0] = Instant.now();
        postsAtPause[0] = bindingPosts(server).size();
        // While "frozen", the Lease lapsed and a standby took it: its record is what the server now holds.
        takeOver(server, "standby-replica");
        skew.addAndGet(PAUSE.toNanos());
      };
      try (LiveRun leader = LiveRun.start(server, dir, command -> {
        command.fenceClock = () -> System.nanoTime() + skew.get();
        command.bindTap = binder -> tap[0] = new PausingBinder(binder, pause);
      }, leaderElect())) {
        Await.until("the first replica leads", Duration.ofSeconds(20), () -> holder(server) != null
            && !holder(server).isEmpty());
        String first = holder(server);
        tap[0].armed = true;
        for (int i = 0; i < PODS; i++) {
          server.seed(LiveRun.pod("p" + i, "basalt-scheduler", 1, null));
        }
        assertTrue(tap[0].paused.await(20, TimeUnit.SECONDS), "the leader decided a cycle");
        assertFalse(tap[0].decidedBeforePause.isEmpty());

        Integer code = leader.awaitExit(Duration.ofSeconds(20));
        assertEquals(1, code, "the deposed leader exits once its renewal finds the standby's Lease");
        List<RecordedRequest> after = bindingPosts(server).stream()
            .filter(r -> !r.receivedAt().isBefore(pausedAt[0])).toList();
        assertEquals(List.of(), after.stream().map(RecordedRequest::path).toList(),
            "the paused leader (" + first + ") posted bindings after its Lease lapsed; decided before the pause: "
                + tap[0].decidedBeforePause);
        assertEquals(postsAtPause[0], bindingPosts(server).size());
      }

      // The replica that leads next (after the standby's record expires unrenewed) binds every pod once.
      try (LiveRun next = LiveRun.start(server, dir, leaderElect())) {
        Await.until("every pod bound by the next leader", Duration.ofSeconds(30),
            () -> server.list(Resources.PODS, "ml").stream().allMatch(p -> SoakChecks.nodeName(p) != null));
        BindLedger ledger = server.bindLedger();
        Set<String> once = new HashSet<>();
        for (BindLedger.Entry e : ledger.applied()) {
          assertTrue(once.add(e.pod()), "bound twice: " + e.pod());
        }
        assertEquals(PODS, once.size());
        assertEquals(List.of(), ledger.rebinds());
        assertEquals(0, next.stop());
      }
    }
  }

  private static List<RecordedRequest> bindingPosts(FakeApiServer server) {
    return server.requests("POST", ".*/pods/[^/]+/binding");
  }

  private static String holder(FakeApiServer server) {
    JsonObject lease = server.get(Resources.LEASES, "kube-system", LEASE);
    JsonObject spec = lease == null ? null : lease.getAsJsonObject("spec");
    return spec == null || !spec.has("holderIdentity") || spec.get("holderIdentity").isJsonNull() ? null
        : spec.get("holderIdentity").getAsString();
  }

  /** Writes the Lease as {@code holder}'s, renewed now, as a standby that waited out the lapsed Lease would. */
  private static void takeOver(FakeApiServer server, String holder) {
    JsonObject lease = server.get(Resources.LEASES, "kube-system", LEASE);
    assertNotNull(lease, "the leader created its Lease");
    JsonObject spec = lease.getAsJsonObject("spec");
    int transitions = spec.has("leaseTransitions") ? spec.get("leaseTransitions").getAsInt() : 0;
    String now = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX")
        .format(java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC));
    server.mergePatch(Resources.LEASES, "kube-system", LEASE, "{\"spec\":{\"holderIdentity\":\"" + holder
        + "\",\"acquireTime\":\"" + now + "\",\"renewTime\":\"" + now + "\",\"leaseDurationSeconds\":3,"
        + "\"leaseTransitions\":" + (transitions + 1) + "}}");
  }
}
