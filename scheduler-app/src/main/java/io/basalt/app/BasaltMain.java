package io.basalt.app;

import io.basalt.app.bench.BenchCommand;
import io.basalt.app.replay.ReplayCommand;
import io.basalt.app.topology.TopologyAgentCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code basalt} command line: run, simulate, validate, bench, replay, topology-agent. */
@Command(
    name = "basalt",
    mixinStandardHelpOptions = true,
    version = "basalt 0.1.0",
    description = "A GPU-aware batch scheduler for Kubernetes.",
    subcommands = {RunCommand.class, SimulateCommand.class, ValidateCommand.class, BenchCommand.class,
        ReplayCommand.class, TopologyAgentCommand.class})
public final class BasaltMain implements Runnable {
  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    // Before anything logs: the JDK's own shutdown hook would otherwise drop the lines of a SIGTERM stop.
    if (System.getProperty("java.util.logging.manager") == null) {
      System.setProperty("java.util.logging.manager", io.basalt.app.logging.ShutdownLogManager.class.getName());
    }
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty("java.util.logging.SimpleFormatter.format", "basalt: %4$s: %5$s%6$s%n");
    }
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code; tests call this instead of {@link #main}. */
  public static int run(String... args) {
    return new CommandLine(new BasaltMain()).execute(args);
  }
}
