package io.basalt.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The messages one java.util.logging logger writes while a test runs, for tests that pin a warning. Holds the logger
 * strongly (the logging framework keeps loggers weakly, and a collected one would drop the handler); close it to
 * detach.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final List<String> messages = new CopyOnWriteArrayList<>();
  private final Handler handler;

  private LogCapture(String loggerName, Level least) {
    this.logger = Logger.getLogger(loggerName);
    this.handler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        if (r.getLevel().intValue() >= least.intValue()) {
          messages.add(r.getMessage());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(handler);
  }

  /** Warnings and worse of {@code loggerName}, from now until {@link #close()}. */
  public static LogCapture warnings(String loggerName) {
    return new LogCapture(loggerName, Level.WARNING);
  }

  /** Every message of {@code loggerName}, from now until {@link #close()}. */
  public static LogCapture all(String loggerName) {
    return new LogCapture(loggerName, Level.ALL);
  }

  /** The messages so far, live (it grows as the logger writes). */
  public List<String> messages() {
    return messages;
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
  }
}
