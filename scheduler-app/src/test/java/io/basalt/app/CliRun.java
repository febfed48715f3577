package io.basalt.app;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One {@code basalt ...} command line run in-process as a user would run it: its exit code and what it printed.
 *
 * @param exit the exit code
 * @param out what went to stdout
 * @param err what went to stderr
 */
public record CliRun(int exit, String out, String err) {
  /** Runs {@code basalt args...} with stdout and stderr captured. */
  public static CliRun basalt(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      int exit = BasaltMain.run(args);
      return new CliRun(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }
}
