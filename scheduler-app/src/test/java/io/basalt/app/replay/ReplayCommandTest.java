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

  /**
   * The paper's multi-GPU variants list only name, cpu, memory and GPUs, in their own order: the fgd protocol reads
   * them (no model restriction); the clock protocol, which needs the times, says so.
   */
  @Test
  void aPodListWithoutTimesOrGpuSpecReplaysInTheFgdProtocolOnly() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("variant"));
    Files.copy(ReplayFixtures.sliceDir().resolve(OpenbTrace.NODE_FILE), dir.resolve(OpenbTrace.NODE_FILE));
    List<String> lines = Files.readAllLines(ReplayFixtures.sliceDir().resolve(OpenbTrace.POD_FILE));
    List<String> header = List.of(lines.get(0).split(","));
    StringBuilder variant = new StringBuilder("num_gpu,cpu_milli,name,gpu_milli,memory_mib\n");
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      for (String column : List.of("num_gpu", "cpu_milli", "name", "gpu_milli", "memory_mib")) {
        variant.append(cells[header.indexOf(column)]).append(column.equals("memory_mib") ? "\n" : ",");
      }
    }
    Files.writeString(dir.resolve("variant.csv"), variant);
    OpenbTrace read = OpenbTrace.read(dir.resolve(OpenbTrace.NODE_FILE), dir.resolve("variant.csv"));
    assertEquals(ReplayFixtures.slice().pods().size(), read.pods().size());
    assertTrue(!read.timed() && read.pods().stream().allMatch(p -> p.gpuSpec().isEmpty()));
    assertEquals(ReplayFixtures.slice().pods().get(7).gpuMilliTotal(), read.pods().get(7).gpuMilliTotal());

    String json = run("replay", "--trace", dir.toString(), "--pods", "variant.csv", "--protocol", "fgd", "--seed",
        "42", "--arrived", "100", "--output", "json", "--progress", "none");
    var first = JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("runs").get(0).getAsJsonObject();
    assertTrue(first.get("allocationAt100").getAsDouble() > 0);

    PrintStream err = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      assertEquals(1, BasaltMain.run("replay", "--trace", dir.toString(), "--pods", "variant.csv", "--progress",
          "none"));
    } finally {
      System.setErr(err);
    }
    assertTrue(buf.toString(StandardCharsets.UTF_8).contains("variant.csv has no creation_time or deletion_time column:"
        + " the clock protocol needs the pods' creation and deletion times; use --protocol fgd"), buf.toString());
  }
}
