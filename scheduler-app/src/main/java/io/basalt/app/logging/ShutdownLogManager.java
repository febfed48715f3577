package io.basalt.app.logging;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.logging.LogManager;

/**
 * The JDK's log manager, except that the reset its own shutdown hook runs (closing and removing every handler) waits
 * while Basalt's shutdown still has something to say. The JDK runs all shutdown hooks at once, so without this the
 * lines of a SIGTERM stop ("Lease released", binds finished or not) are written to no handler and lost.
 *
 * <p>Named by the {@code java.util.logging.manager} system property, which must be set before anything logs
 * ({@code BasaltMain.main} does it first). Where another manager is in force (tests, an embedding application),
 * {@link #holdReset()} still works and simply holds nothing back.
 */
public final class ShutdownLogManager extends LogManager {
  /** The longest a reset waits: a stop finishes its binds and status writes well within this. */
  static final Duration MAX_HOLD = Duration.ofSeconds(90);

  /** The holds of this JVM's commands; tests count their own. */
  static final class Holds {
    private int open;

    AutoCloseable hold() {
      synchronized (this) {
        open++;
      }
      boolean[] closed = {false};
      return () -> {
        synchronized (this) {
          if (!closed[0]) {
            closed[0] = true;
            open--;
            notifyAll();
          }
        }
      };
    }
  }

  private static final Holds JVM = new Holds();

  private final BooleanSupplier shuttingDown;
  private final Duration maxHold;
  private final Holds holds;

  public ShutdownLogManager() {
    this(ShutdownLogManager::jvmShuttingDown, MAX_HOLD, JVM);
  }

  ShutdownLogManager(BooleanSupplier shuttingDown, Duration maxHold, Holds holds) {
    this.shuttingDown = shuttingDown;
    this.maxHold = maxHold;
    this.holds = holds;
  }

  /**
   * Holds back the reset at JVM shutdown until closed (or {@link #MAX_HOLD} passed): taken when a long-running
   * command starts, closed once its stop has logged its last line.
   */
  public static AutoCloseable holdReset() {
    return JVM.hold();
  }

  @Override
  public void reset() {
    if (shuttingDown.getAsBoolean()) {
      awaitHolds();
    }
    super.reset();
  }

  private void awaitHolds() {
    long deadline = System.nanoTime() + maxHold.toNanos();
    synchronized (holds) {
      while (holds.open > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        try {
          holds.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** A shutdown hook can no longer be added once the JVM began to shut down: that is how the JDK's hook is told. */
  private static boolean jvmShuttingDown() {
    Thread probe = new Thread(() -> { });
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }
}
