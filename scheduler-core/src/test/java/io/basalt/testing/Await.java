package io.basalt.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Bounded polling for tests of anything asynchronous: no fixed sleeps, a deadline and a clear failure. */
public final class Await {
  private Await() {
  }

  /** Polls {@code condition} every 10 ms until true; throws an AssertionError naming {@code what} after timeout. */
  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
    }
  }

  /** As {@link #until}, with the last observed value in the failure message. */
  public static <T> void until(String what, Duration timeout, Supplier<T> observed,
      Predicate<T> done) {
    long deadline = System.nanoTime() + timeout.toNanos();
    T last = observed.get();
    while (!done.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what + "; last: "
            + last);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
      last = observed.get();
    }
  }
}
