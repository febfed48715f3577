package io.basalt.app.topology;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations written the Kubernetes way ({@code 30s}, {@code 5m}, {@code 1h30m}, {@code 500ms}), or ISO-8601. */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:ms|h|m|s))+");
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|h|m|s)");

  @Override
  public Duration convert(String value) {
    String v = value.strip();
    if (WHOLE.matcher(v).matches()) {
      Duration d = Duration.ZERO;
      Matcher m = PART.matcher(v);
      while (m.find()) {
        long n = Long.parseLong(m.group(1));
        d = d.plus(switch (m.group(2)) {
          case "h" -> Duration.ofHours(n);
          case "m" -> Duration.ofMinutes(n);
          case "s" -> Duration.ofSeconds(n);
          default -> Duration.ofMillis(n);
        });
      }
      return d;
    }
    try {
      return Duration.parse(v);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException("'" + value + "' is not a duration like 30s, 5m, 1h30m or PT5M");
    }
  }
}
