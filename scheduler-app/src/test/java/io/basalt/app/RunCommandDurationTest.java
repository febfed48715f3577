package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** {@code run} reads its duration flags with the same parser as {@code topology-agent}. */
class RunCommandDurationTest {
  @Test
  void runAcceptsGoStyleDurations() {
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs("--schedule-period", "1h30m", "--lease-duration", "1h30m",
        "--renew-deadline", "90s", "--retry-period", "500ms");
    assertEquals(Duration.ofMinutes(90), run.schedulePeriod);
    assertEquals(Duration.ofMinutes(90), run.leaseDuration);
    assertEquals(Duration.ofSeconds(90), run.renewDeadline);
    assertEquals(Duration.ofMillis(500), run.retryPeriod);
  }

  @Test
  void aBadDurationNamesItsFlag() {
    ParameterException e = assertThrows(ParameterException.class,
        () -> new CommandLine(new RunCommand()).parseArgs("--retry-period", "5 minutes"));
    assertTrue(e.getMessage().contains("--retry-period") && e.getMessage().contains("'5 minutes' is not a duration"),
        e.getMessage());
  }
}
