package io.basalt.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {
  private final DurationConverter c = new DurationConverter();

  @Test
  void kubernetesStyleAndIso() {
    assertEquals(Duration.ofMinutes(5), c.convert("5m"));
    assertEquals(Duration.ofSeconds(30), c.convert("30s"));
    assertEquals(Duration.ofMinutes(90), c.convert("1h30m"));
    assertEquals(Duration.ofMillis(250), c.convert("250ms"));
    assertEquals(Duration.ofMinutes(5), c.convert("PT5M"));
  }

  @Test
  void rejectsTheRest() {
    assertThrows(TypeConversionException.class, () -> c.convert("5 minutes"));
    assertThrows(TypeConversionException.class, () -> c.convert("m5"));
    assertThrows(TypeConversionException.class, () -> c.convert(""));
  }

  @Test
  void goStyleFractionsUnitsAndZero() {
    assertEquals(Duration.ofMinutes(90), c.convert("1.5h"));
    assertEquals(Duration.ofNanos(1500), c.convert("1us500ns"));
    assertEquals(Duration.ZERO, c.convert("0"));
    assertEquals(Duration.ofSeconds(-90), c.convert("-1m30s"));
    assertThrows(TypeConversionException.class, () -> c.convert("1.5"));
  }
}
