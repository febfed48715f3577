package io.basalt.app;

import io.basalt.scheduler.SchedulingLoop;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What {@code /healthz} and {@code /readyz} answer. Liveness fails when scheduling has stopped for longer than any
 * cycle should take: a cycle running past the limit (a deadlock, a call without timeout), or cycles failing for that
 * long (a tenant's object the engine throws on every cycle), so the process is restarted and a standby may lead.
 * Readiness is the informers' sync, on the standby too, so rollouts progress; on the leader it also fails once
 * {@link #FAILED_CYCLES} cycles in a row have failed, so a scheduler that schedules nothing is not reported ready.
 * A config fallback never fails either: a rollout of a bad config must not stall with the old pods gone.
 */
final class SchedulerProbes {
  /** Cycles failed in a row that make the leader not ready: one can be a transient API error. */
  static final int FAILED_CYCLES = 3;

  /** A probe's answer; {@code detail} goes only to callers allowed to read it. */
  record Verdict(boolean ok, String detail) {}

  /** The scheduling loop as the probes read it; {@link #IDLE} before it exists and on a standby. */
  record LoopState(Duration cycleRunningFor, int failedInARow, Duration failingFor, String lastFailure) {
    static final LoopState IDLE = new LoopState(Duration.ZERO, 0, Duration.ZERO, null);

    static LoopState of(SchedulingLoop loop) {
      return loop == null ? IDLE
          : new LoopState(loop.cycleRunningFor(), loop.failedInARow(), loop.failingFor(), loop.lastFailure());
    }
  }

  private final BooleanSupplier synced;
  private final Supplier<String> config;
  private final Supplier<LoopState> loop;
  private final Duration limit;

  /**
   * @param config which config is in force, for readiness' detail
   * @param limit how long a cycle may run, and cycles may keep failing, before liveness fails
   */
  SchedulerProbes(BooleanSupplier synced, Supplier<String> config, Supplier<LoopState> loop, Duration limit) {
    this.synced = synced;
    this.config = config;
    this.loop = loop;
    this.limit = limit;
  }

  Verdict live() {
    LoopState s = loop.get();
    if (s.cycleRunningFor().compareTo(limit) > 0) {
      return new Verdict(false, "scheduling cycle running for " + s.cycleRunningFor().toSeconds() + "s (limit "
          + limit.toSeconds() + "s)");
    }
    if (s.failingFor().compareTo(limit) > 0) {
      return new Verdict(false, "scheduling cycles failing for " + s.failingFor().toSeconds() + "s (limit "
          + limit.toSeconds() + "s): " + s.lastFailure());
    }
    return new Verdict(true, "ok");
  }

  Verdict ready() {
    LoopState s = loop.get();
    String cause = !synced.getAsBoolean() ? "informers not synced"
        : s.failedInARow() >= FAILED_CYCLES ? "last " + s.failedInARow() + " scheduling cycles failed: "
            + s.lastFailure()
        : null;
    return new Verdict(cause == null, (cause == null ? "ok" : cause) + "; config: " + config.get());
  }
}
