package io.basalt.scheduler;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs {@link Scheduler#runOnce()} every period until stopped. A cycle that throws is logged and the loop goes on:
 * one bad object or a transient API error must never stop scheduling.
 */
public final class SchedulingLoop implements Runnable {
  private static final System.Logger LOG = System.getLogger(SchedulingLoop.class.getName());

  private final Scheduler scheduler;
  private final Duration period;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private volatile long cycles;
  /** System.nanoTime() when the cycle in progress began; 0 between cycles. */
  private volatile long cycleStarted;
  /** Cycles failed since the last one that succeeded, and System.nanoTime() when the first of them began. */
  private volatile int failedInARow;
  private volatile long failingSince;
  private volatile String lastFailure;

  public SchedulingLoop(Scheduler scheduler, Duration period) {
    this.scheduler = scheduler;
    this.period = period;
  }

  @Override
  public void run() {
    while (running.get()) {
      long start = System.nanoTime();
      cycleStarted = start == 0 ? 1 : start;
      try {
        scheduler.runOnce();
        cycles++;
        failedInARow = 0;
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "scheduling cycle failed; retrying next period", e);
        if (failedInARow == 0) {
          failingSince = start;
        }
        lastFailure = e.toString();
        failedInARow++;
      } finally {
        cycleStarted = 0;
      }
      long sleep = period.toMillis() - (System.nanoTime() - start) / 1_000_000;
      if (sleep > 0 && running.get()) {
        try {
          Thread.sleep(sleep);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Finishes the cycle in progress, then returns from {@link #run()}. */
  public void stop() {
    running.set(false);
  }

  public long cycles() {
    return cycles;
  }

  /**
   * How long the cycle in progress has been running, zero between cycles. A liveness probe uses it: a cycle that
   * never ends (a deadlock, an API call without timeout) should get the process restarted, not hang scheduling.
   */
  public Duration cycleRunningFor() {
    long started = cycleStarted;
    return started == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - started);
  }

  /** Cycles that failed since the last one that succeeded: readiness fails on a few, as the loop schedules nothing. */
  public int failedInARow() {
    return failedInARow;
  }

  /**
   * How long cycles have been failing: since the first of {@link #failedInARow()} began, zero when the last cycle
   * succeeded. Liveness fails past a bound, so a scheduler that has stopped scheduling is restarted.
   */
  public Duration failingFor() {
    long since = failingSince;
    return failedInARow == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - since);
  }

  /** The exception of the last failed cycle, null if none failed yet. */
  public String lastFailure() {
    return lastFailure;
  }
}
