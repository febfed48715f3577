package io.basalt.app.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Every duration flag's parser, so {@code run} and {@code topology-agent} accept the same text: Go / Kubernetes style
 * ({@code 90s}, {@code 1h30m}, {@code 500ms}, {@code 1.5h}, {@code 0}; units ns, us, µs, ms, s, m, h; optional sign)
 * as kubectl and the Volcano flags are written, or ISO-8601 ({@code PT5M}). A bad value is a
 * {@link TypeConversionException}, which picocli reports as {@code Invalid value for option '--flag': ...}.
 */
public final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern GO = Pattern.compile("[-+]?(?:(?:\\d+\\.?\\d*|\\.\\d+)(?:ns|us|µs|ms|s|m|h))+");
  private static final Pattern PART = Pattern.compile("(\\d+\\.?\\d*|\\.\\d+)(ns|us|µs|ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Duration d = parse(value);
    if (d == null) {
      throw new TypeConversionException("'" + value + "' is not a duration like 90s, 1h30m, 500ms or PT5M");
    }
    return d;
  }

  /** {@code text} as a duration, or null when it is not one (or does not fit in a Duration). */
  public static Duration parse(String text) {
    String v = text.strip();
    if (v.matches("[-+]?0")) {
      return Duration.ZERO;
    }
    if (GO.matcher(v).matches()) {
      BigDecimal nanos = BigDecimal.ZERO;
      Matcher m = PART.matcher(v);
      while (m.find()) {
        nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(nanosPer(m.group(2)))));
      }
      try {
        long n = nanos.setScale(0, java.math.RoundingMode.DOWN).longValueExact();
        return Duration.ofNanos(v.startsWith("-") ? -n : n);
      } catch (ArithmeticException e) {
        return null;
      }
    }
    try {
      return Duration.parse(v);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static long nanosPer(String unit) {
    return switch (unit) {
      case "h" -> 3_600_000_000_000L;
      case "m" -> 60_000_000_000L;
      case "s" -> 1_000_000_000L;
      case "ms" -> 1_000_000L;
      case "us", "µs" -> 1_000L;
      default -> 1L;
    };
  }
}
