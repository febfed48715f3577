package io.basalt.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A config that cannot be used, with one line per problem, each naming where it is. Lines and their number are
 * bounded, so a hostile config cannot turn into a message that floods a log, an Event or memory.
 */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;
  /** Longest problem line kept; longer ones are cut. */
  static final int MAX_LINE = 400;
  /** Most problem lines kept; the rest are counted. */
  static final int MAX_PROBLEMS = 20;
  /** Longest message, for logs and Events. */
  static final int MAX_MESSAGE = 2000;
  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(message(bounded(problems)));
    this.problems = bounded(problems);
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }

  /** At most {@link #MAX_PROBLEMS} lines of at most {@link #MAX_LINE} characters, then how many were left out. */
  private static List<String> bounded(List<String> problems) {
    List<String> lines = new ArrayList<>();
    for (String p : problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS))) {
      lines.add(p.length() <= MAX_LINE ? p : p.substring(0, MAX_LINE) + "...");
    }
    if (problems.size() > MAX_PROBLEMS) {
      lines.add("... and " + (problems.size() - MAX_PROBLEMS) + " more problems");
    }
    return List.copyOf(lines);
  }

  private static String message(List<String> lines) {
    String all = String.join("\n", lines);
    return all.length() <= MAX_MESSAGE ? all : all.substring(0, MAX_MESSAGE) + "...";
  }
}
