package io.basalt.app.logging;

import java.util.Locale;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import picocli.CommandLine.Option;

/**
 * {@code --log-format} and {@code --log-level} for the long-running commands: one line per record on stderr, as
 * text for people or as JSON for a log pipeline, with the object a line is about (pod, podgroup, queue, configmap,
 * node) as its own field. Also routes client-java's SLF4J logging (informers, leader election) here.
 */
public final class LogOptions {
  /** The two line formats. */
  public enum Format {
    TEXT, JSON
  }

  @Option(names = "--log-format", defaultValue = "text", converter = FormatConverter.class,
      description = "text or json (one JSON object per line). Default: ${DEFAULT-VALUE}.")
  Format format = Format.TEXT;

  @Option(names = "--log-level", defaultValue = "info", converter = LevelConverter.class,
      description = "error, warn, info or debug. Default: ${DEFAULT-VALUE}.")
  Level level = Level.INFO;

  // Held so java.util.logging keeps their levels (it references loggers weakly).
  private static final Logger ROOT = Logger.getLogger("");
  private static final Logger BASALT = Logger.getLogger("io.basalt");
  private static final Logger CLIENT_JAVA = Logger.getLogger("io.kubernetes.client");

  /**
   * Replaces the root logger's handlers with one stderr line handler in the chosen format. Basalt logs at the chosen
   * level; client-java's own lines (informer start-up, reflector chatter) show from warn up, or all of them at
   * debug; everything else (OkHttp's frame logging) stays at info. Installing again replaces the handler, so a
   * second command in one JVM (tests) does not stack handlers.
   */
  public void install() {
    for (Handler h : ROOT.getHandlers()) {
      ROOT.removeHandler(h);
    }
    StderrHandler handler = new StderrHandler(new LineFormatter(format == Format.JSON));
    handler.setLevel(level);
    boolean debug = level.intValue() <= Level.FINE.intValue();
    if (!debug) {
      handler.setFilter(r -> !shutdownNoise(r));
    }
    ROOT.addHandler(handler);
    ROOT.setLevel(debug ? Level.INFO : level);
    BASALT.setLevel(level);
    CLIENT_JAVA.setLevel(debug ? level : Level.WARNING);
  }

  /**
   * client-java's informers log an ERROR with a stack trace for every thread a stop interrupts ("processLoop get
   * interrupted", "processor interrupted"): on every rollout, about ten of them, all harmless. Shown at debug only.
   */
  static boolean shutdownNoise(LogRecord r) {
    String logger = r.getLoggerName();
    if (logger == null || !logger.startsWith("io.kubernetes.client.informer")) {
      return false;
    }
    String message = String.valueOf(r.getMessage());
    return r.getThrown() instanceof InterruptedException || message.contains("interrupted");
  }

  /** Writes to whatever System.err is at the time of each record (tests swap it), one flushed line each. */
  private static final class StderrHandler extends Handler {
    StderrHandler(LineFormatter formatter) {
      setFormatter(formatter);
    }

    @Override
    public void publish(LogRecord record) {
      if (isLoggable(record)) {
        System.err.print(getFormatter().format(record));
        System.err.flush();
      }
    }

    @Override
    public void flush() {
      System.err.flush();
    }

    @Override
    public void close() {
      flush();
    }
  }

  static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
    @Override
    public Format convert(String value) {
      try {
        return Format.valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("--log-format: expected text or json, got '"
            + value + "'");
      }
    }
  }

  static final class LevelConverter implements picocli.CommandLine.ITypeConverter<Level> {
    @Override
    public Level convert(String value) {
      return switch (value.trim().toLowerCase(Locale.ROOT)) {
        case "error" -> Level.SEVERE;
        case "warn", "warning" -> Level.WARNING;
        case "info" -> Level.INFO;
        case "debug" -> Level.FINE;
        default -> throw new picocli.CommandLine.TypeConversionException(
            "--log-level: expected error, warn, info or debug, got '" + value + "'");
      };
    }
  }
}
