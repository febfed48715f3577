package io.basalt.config;

import java.util.List;

/** A config that cannot be used, with one line per problem, each naming where it is. */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;
  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(String.join("\n", problems));
    this.problems = List.copyOf(problems);
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }
}
