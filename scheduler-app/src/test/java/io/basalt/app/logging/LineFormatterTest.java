package io.basalt.app.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LineFormatterTest {
  private static LogRecord record(Level level, String message) {
    LogRecord r = new LogRecord(level, message);
    r.setLoggerName("io.basalt.kube.live.KubeBinder");
    r.setInstant(Instant.parse("2026-11-22T07:00:00.123Z"));
    return r;
  }

  private static JsonObject json(LogRecord r) {
    String line = new LineFormatter(true).format(r);
    assertTrue(line.endsWith("\n") && line.indexOf('\n') == line.length() - 1, "one line: " + line);
    return JsonParser.parseString(line).getAsJsonObject();
  }

  @Test
  void jsonLinesCarryTheObjectALineIsAbout() {
    JsonObject o = json(record(Level.WARNING, "pod ml/train-0 not bound to gpu-1: HTTP 500; back to pending"));
    assertEquals("2026-11-22T07:00:00.123Z", o.get("ts").getAsString());
    assertEquals("WARN", o.get("level").getAsString());
    assertEquals("io.basalt.kube.live.KubeBinder", o.get("logger").getAsString());
    assertEquals("ml/train-0", o.get("pod").getAsString());
    assertEquals("ml/train", json(record(Level.WARNING, "gang ml/train: 3 member(s) bound")).get("podgroup")
        .getAsString());
    assertEquals("ml/train", json(record(Level.INFO, "PodGroup ml/train: status not written: HTTP 403"))
        .get("podgroup").getAsString());
    assertEquals("research", json(record(Level.INFO, "Queue research: status not written")).get("queue")
        .getAsString());
    assertFalse(json(record(Level.INFO, "Informers synced")).has("pod"));
    assertFalse(json(record(Level.FINE, "pod uid 1234: HTTP 500, retry in PT0.2S")).has("pod"),
        "a pod is named namespace/name");
  }

  @Test
  void messagesWithQuotesNewlinesAndErrorsStayOneValidLine() {
    LogRecord r = record(Level.SEVERE, "ConfigMap kube-system/basalt edit rejected:\n\"tiers[0]\" unknown plugin");
    r.setThrown(new IllegalStateException("boom"));
    JsonObject o = json(r);
    assertEquals("ERROR", o.get("level").getAsString());
    assertEquals("kube-system/basalt", o.get("configmap").getAsString());
    assertTrue(o.get("msg").getAsString().contains("\"tiers[0]\""));
    assertTrue(o.get("stack").getAsString().contains("IllegalStateException: boom"));
  }

  @Test
  void textLinesSayWhenWhatAndWho() {
    String line = new LineFormatter(false).format(record(Level.FINE, "pod ml/a: bind already in flight"));
    assertEquals("2026-11-22T07:00:00.123Z DEBUG KubeBinder: pod ml/a: bind already in flight\n", line);
  }

  @Test
  void badOptionValuesAreNamed() {
    LogOptions options = new LogOptions();
    CommandLine cli = new CommandLine(new Object() {
      @CommandLine.Mixin
      LogOptions log = options;
    });
    CommandLine.ParameterException e = org.junit.jupiter.api.Assertions.assertThrows(
        CommandLine.ParameterException.class, () -> cli.parseArgs("--log-format", "yaml"));
    assertTrue(e.getMessage().contains("--log-format: expected text or json, got 'yaml'"), e.getMessage());
    cli.parseArgs("--log-format", "JSON", "--log-level", "debug");
    assertEquals(LogOptions.Format.JSON, options.format);
    assertEquals(Level.FINE, options.level);
  }

  @Test
  void clientJavasInterruptedStopsAreNoiseOnlyForItsInformers() {
    LogRecord stop = new LogRecord(Level.SEVERE, "DefaultController#processLoop get interrupted {0}");
    stop.setLoggerName("io.kubernetes.client.informer.cache.Controller");
    stop.setThrown(new InterruptedException());
    assertTrue(LogOptions.shutdownNoise(stop));
    LogRecord real = new LogRecord(Level.SEVERE, "list failed");
    real.setLoggerName("io.kubernetes.client.informer.cache.ReflectorRunnable");
    real.setThrown(new IllegalStateException("boom"));
    assertFalse(LogOptions.shutdownNoise(real));
    LogRecord ours = new LogRecord(Level.SEVERE, "pod ml/a interrupted");
    ours.setLoggerName("io.basalt.kube.live.KubeBinder");
    assertFalse(LogOptions.shutdownNoise(ours));
  }
}
