package io.basalt.app.logging;

import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One log record per line. Basalt's messages about one object begin with its kind and key ("pod ml/train-0 ...",
 * "gang ml/train: ...", "PodGroup ml/train: ...", "Queue research: ...", "ConfigMap ns/name ..."); the JSON form
 * lifts that into a field named after the kind (a gang is its PodGroup), so a log pipeline can filter by pod or
 * PodGroup without parsing text.
 */
final class LineFormatter extends Formatter {
  private static final String NAME = "[A-Za-z0-9][A-Za-z0-9._-]*";
  /** Namespaced kinds need namespace/name (so "pod uid ..." is not a pod named uid); cluster-scoped ones a name. */
  private static final Pattern SUBJECT = Pattern.compile("^(?:(pod|gang|PodGroup|ConfigMap) (" + NAME + "/" + NAME
      + ")|(Queue|node|Node) (" + NAME + "))(?![A-Za-z0-9._/-])");

  private final boolean json;

  LineFormatter(boolean json) {
    this.json = json;
  }

  @Override
  public String format(LogRecord r) {
    String message = formatMessage(r);
    String level = levelName(r.getLevel());
    String logger = shortName(r.getLoggerName());
    if (!json) {
      StringBuilder line = new StringBuilder().append(r.getInstant().truncatedTo(ChronoUnit.MILLIS)).append(' ').append(level).append(' ')
          .append(logger).append(": ").append(message).append('\n');
      if (r.getThrown() != null) {
        line.append(stackTrace(r.getThrown()));
      }
      return line.toString();
    }
    JsonObject o = new JsonObject();
    o.addProperty("ts", r.getInstant().truncatedTo(ChronoUnit.MILLIS).toString());
    o.addProperty("level", level);
    o.addProperty("logger", r.getLoggerName());
    o.addProperty("msg", message);
    Matcher m = SUBJECT.matcher(message);
    if (m.find()) {
      String kind = (m.group(1) != null ? m.group(1) : m.group(3)).toLowerCase(Locale.ROOT);
      o.addProperty(kind.equals("gang") ? "podgroup" : kind, m.group(1) != null ? m.group(2) : m.group(4));
    }
    if (r.getThrown() != null) {
      o.addProperty("error", String.valueOf(r.getThrown()));
      o.addProperty("stack", stackTrace(r.getThrown()));
    }
    return o + "\n";
  }

  static String levelName(Level level) {
    int v = level.intValue();
    if (v >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (v >= Level.WARNING.intValue()) {
      return "WARN";
    }
    return v >= Level.INFO.intValue() ? "INFO" : "DEBUG";
  }

  private static String shortName(String logger) {
    if (logger == null) {
      return "-";
    }
    int dot = logger.lastIndexOf('.');
    return dot < 0 ? logger : logger.substring(dot + 1);
  }

  private static String stackTrace(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }
}
