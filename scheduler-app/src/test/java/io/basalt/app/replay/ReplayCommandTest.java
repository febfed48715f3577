package io.basalt.app.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.app.BasaltMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code basalt replay} from the command line, and the properties of the FGD protocol's order. */
class ReplayCommandTest {
  @TempDir
  Path tmp;

  private String run(String... args) {
    PrintStream out = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      assertEquals(0, BasaltMain.run(args));
    } finally {
      System.setOut(out);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test
  void fgdProtocolReportsTheCurveAsJsonAndWritesTheReport() throws Exception {
    Path report = tmp.resolve("out.html");
    String json = run("replay", "--trace", ReplayFixtures.sliceDir().toString(), "--protocol", "fgd", "--seed",
        "42,43", "--arrived", "120", "--output", "json", "--progress", "none", "--report", report.toString());
    var runs = JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("runs");
    assertEquals(2, runs.size());
    JsonObject first = runs.get(0).getAsJsonObject();
    assertEquals(42, first.get("seed").getAsInt());
    assertTrue(first.get("allocationAt100").getAsDouble() > 0);
    assertTrue(first.getAsJsonArray("samples").size() >= 60, "a sample per arrived percent crossed");
    assertTrue(Files.readString(report).contains("echarts.init"));
  }

  @Test
  void clockProtocolReportsWaitsAsATable() {
    String table = run("replay", "--trace", ReplayFixtures.sliceDir().toString(), "--progress", "none");
    assertTrue(table.contains("wait p50 / p90 / p99 / max") && table.contains("pods arrived / placed        240"),
        table);
  }

  @Test
  void aShorterFgdRunIsAPrefixOfALongerOne() {
    OpenbTrace slice = ReplayFixtures.slice();
    long capacity = slice.gpus() * 1000;
    List<FgdReplay.Entry> shorter = FgdReplay.sequence(slice, 42, 100, capacity);
    List<FgdReplay.Entry> longer = FgdReplay.sequence(slice, 42, 300, capacity);
    assertEquals(shorter, longer.subList(0, shorter.size()));
    assertEquals(slice.pods().size(), longer.stream().filter(e -> !e.uid().contains("-r")).count(),
        "every pod once before any repeats");
    long requested = shorter.stream().mapToLong(e -> e.pod().gpuMilliTotal()).sum();
    assertTrue(requested >= capacity && requested - shorter.get(shorter.size() - 1).pod().gpuMilliTotal() < capacity);
  }
}
