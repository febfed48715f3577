package io.basalt.app.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The reset the JDK's shutdown hook runs waits while a hold is open, so the last lines of a stop are written. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ShutdownLogManagerTest {
  private final ShutdownLogManager.Holds holds = new ShutdownLogManager.Holds();

  @Test
  void atShutdownTheResetWaitsForTheHoldSoLinesLoggedMeanwhileAreWritten() throws Exception {
    ShutdownLogManager manager = new ShutdownLogManager(() -> true, Duration.ofSeconds(10), holds);
    List<String> written = new CopyOnWriteArrayList<>();
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        written.add(r.getMessage());
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
        written.add("<closed>");
      }
    };
    Logger root = Logger.getLogger("io.basalt.shutdown-test");
    root.setUseParentHandlers(false);
    root.addHandler(handler);
    manager.addLogger(root);
    AutoCloseable hold = holds.hold();
    Thread reset = new Thread(manager::reset, "jdk-logging-cleaner");
    reset.start();
    reset.join(300);
    assertTrue(reset.isAlive(), "the reset waits while the stop still logs");
    root.info("Lease released");
    hold.close();
    reset.join(5_000);
    assertFalse(reset.isAlive());
    assertEquals(List.of("Lease released", "<closed>"), written, "written before the handler was closed");
  }

  @Test
  void outsideShutdownTheResetDoesNotWait() throws Exception {
    ShutdownLogManager manager = new ShutdownLogManager(() -> false, Duration.ofSeconds(10), holds);
    try (AutoCloseable hold = holds.hold()) {
      long start = System.nanoTime();
      manager.reset();
      assertTrue(System.nanoTime() - start < 2_000_000_000L, "readConfiguration's reset is never held back");
    }
  }

  @Test
  void aHoldNeverClosedHoldsTheResetOnlyUntilItsLimit() throws Exception {
    ShutdownLogManager manager = new ShutdownLogManager(() -> true, Duration.ofMillis(300), holds);
    AutoCloseable hold = holds.hold();
    try {
      long start = System.nanoTime();
      manager.reset();
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis >= 250 && millis < 5_000, millis + " ms");
    } finally {
      hold.close();
    }
  }
}
