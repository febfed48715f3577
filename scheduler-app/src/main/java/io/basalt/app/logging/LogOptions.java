package io.basalt.app.logging;

import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
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

  /** Held so java.util.logging keeps its level (it references loggers weakly). */
  private static final Logger CLIENT_JAVA = Logger.getLogger("io.kubernetes.client");

  /**
   * Replaces the root logger's handlers with one stderr handler in the chosen format and level. client-java's own
   * lines (informer start-up, reflector chatter) show from warn up, or all of them at debug.
   */
  public void install() {
    CLIENT_JAVA.setLevel(level.intValue() <= Level.FINE.intValue() ? level : Level.WARNING);
    Logger root = Logger.getLogger("");
    for (Handler h : root.getHandlers()) {
      root.removeHandler(h);
    }
    ConsoleHandler handler = new ConsoleHandler();
    handler.setLevel(level);
    handler.setFormatter(new LineFormatter(format == Format.JSON));
    root.addHandler(handler);
    root.setLevel(level);
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
