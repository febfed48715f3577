package io.basalt.app;

import static io.basalt.app.CliRun.basalt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.basalt.config.ConfLoader;
import io.basalt.kube.ManifestException;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.ReportFormat;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutants of the cluster fixtures through what {@code basalt simulate --cluster} runs: the manifest loader, the
 * conversion to the engine's model, the simulator (default tiers, gpu-aware, deviceshare) and the JSON report.
 * Each mutant is simulated, its bad objects reported naming the file and document, or refused with one
 * {@link ManifestException} naming the file, the document and, for YAML, the line; within two seconds, in messages
 * with no Java identity or exception name. Anything else fails with the seed and the mutant. Set
 * {@code -Dbasalt.fuzz.seed} and {@code -Dbasalt.fuzz.count} to explore further.
 */
class ManifestFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 21L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 1000);
  private static final Duration PER_INPUT = Duration.ofSeconds(2);
  /** What a message must never show: an array's or object's identity, a class or exception name. */
  private static final Pattern IDENTITY =
      Pattern.compile("\\[[A-Z]@|@[0-9a-f]{6,}|java\\.(lang|util)\\.|Exception|Error\\b|\\bat [\\w.$]+\\(\\w+\\.java:\\d+\\)");
  private static final int MAX_LINE = 2000;

  /** Every cluster fixture (the Volcano conformance tables are not clusters). */
  static List<String> seeds() throws IOException {
    Path root = Scenarios.fixture("gang-partial").getParent();
    List<String> texts = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml") && !p.toString().contains("volcano-conformance"))
          .sorted().toList()) {
        texts.add(Files.readString(f));
      }
    }
    return texts;
  }

  private static List<SchedulerProfile> profiles() throws Exception {
    return List.of(Scenarios.compile(ConfLoader.defaultConf()),
        Scenarios.compile(ConfLoader.load(Scenarios.fixture("../config/gpu-aware.conf"))),
        Scenarios.compile(Scenarios.parse("""
            actions: "enqueue, allocate, backfill, reclaim, preempt"
            tiers:
            - plugins: [{name: priority}, {name: gang}, {name: conformance}]
            - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}, {name: deviceshare},
                        {name: gpu-aware}]
            """)));
  }

  @Test
  void everyMutantOfTheFixturesIsSimulatedOrRefusedWithANamedError() throws Exception {
    List<String> seeds = seeds();
    List<SchedulerProfile> profiles = profiles();
    ManifestMutator mutator = new ManifestMutator(SEED);
    int refused = 0;
    int badObjects = 0;
    for (int i = 0; i < COUNT; i++) {
      String mutant = mutator.mutate(seeds.get(i % seeds.size()));
      String source = "mutant-" + i + ".yaml";
      SchedulerProfile profile = profiles.get(i % profiles.size());
      String outcome;
      try {
        outcome = assertTimeoutPreemptively(PER_INPUT, () -> simulate(source, mutant, profile));
      } catch (Throwable t) {
        throw new AssertionError(failure(i, mutant, "threw " + t), t);
      }
      if (outcome.startsWith("refused: ")) {
        refused++;
        expectRefusal(i, mutant, source, outcome.substring(9));
      } else if (!outcome.isEmpty()) {
        badObjects++;
        for (String line : outcome.split("\n")) {
          expectClear(i, mutant, line);
        }
      }
    }
    assertTrue(refused > COUNT / 10, "the mutations should break the YAML of many: " + refused + " of " + COUNT);
    assertTrue(badObjects > COUNT / 10, "and the objects of many: " + badObjects + " of " + COUNT);
    assertTrue(refused + badObjects < COUNT, "some mutants should still be clean");
  }

  /** "refused: message", or the load's object errors (one a line; empty when clean) once the simulation ran. */
  private static String simulate(String source, String text, SchedulerProfile profile) throws Exception {
    FixtureSource cluster;
    try {
      cluster = FixtureSource.fromText(source, text);
    } catch (ManifestException e) {
      return "refused: " + e.getMessage();
    }
    SimulationReport report = new Simulator(profile, Set.of("basalt-scheduler", "volcano"), false).run(cluster);
    ReportFormat.json(report);
    ReportFormat.table(report);
    return String.join("\n", cluster.objects().errors());
  }

  private static void expectRefusal(int i, String mutant, String source, String message) {
    if (!message.startsWith(source + " doc ")) {
      fail(failure(i, mutant, "a refusal not naming the file and document: " + message));
    }
    if (message.contains("malformed YAML") && !message.contains(" at line ") && !message.contains("together")) {
      fail(failure(i, mutant, "a YAML error without its line: " + message));
    }
    expectClear(i, mutant, message);
  }

  private static void expectClear(int i, String mutant, String line) {
    if (line.length() > MAX_LINE) {
      fail(failure(i, mutant, "a message of " + line.length() + " characters: " + line.substring(0, 300)));
    }
    if (IDENTITY.matcher(line).find()) {
      fail(failure(i, mutant, "a Java identity or exception in: " + line));
    }
  }

  private static String failure(int i, String mutant, String what) {
    String shown = mutant.length() > 3000 ? mutant.substring(0, 3000) + "..." : mutant;
    return "mutant " + i + " of seed " + SEED + ": " + what + "\n--- mutant ---\n" + shown;
  }

  /** The command itself on a sample of mutants: exit 0 or 2, and never a stack trace on stderr. */
  @Test
  void simulateExitsZeroOrTwoOnMutantsAndPrintsNoStackTrace(@TempDir Path dir) throws IOException {
    List<String> seeds = seeds();
    ManifestMutator mutator = new ManifestMutator(SEED + 1);
    for (int i = 0; i < 40; i++) {
      Path f = dir.resolve("mutant-" + i + ".yaml");
      Files.write(f, mutator.mutate(seeds.get(i % seeds.size())).getBytes(StandardCharsets.UTF_8));
      CliRun r = assertTimeoutPreemptively(PER_INPUT.multipliedBy(5), () -> basalt("simulate", "--cluster",
          f.toString(), "--output", "json"));
      assertTrue(r.exit() == 0 || r.exit() == 2, f + ": exit " + r.exit() + "\n" + r.out() + r.err());
      assertTrue(!r.err().contains("\tat ") && !IDENTITY.matcher(r.err()).find(), f + ": " + r.err());
      if (r.exit() == 2) {
        assertTrue(r.err().startsWith("mutant-" + i + ".yaml doc "), r.err());
      }
    }
  }

  /** The issue's reproductions through the command: a clear line each, never a stack trace. */
  @Test
  void theIssuesManifestsAreAMessageNotAStackTrace(@TempDir Path dir) throws IOException {
    Path malformed = dir.resolve("malformed.yaml");
    Files.writeString(malformed, "apiVersion: v1\nkind: Pod\nmetadata: {name: [}\n");
    CliRun r = basalt("simulate", "--cluster", malformed.toString());
    assertEquals(2, r.exit());
    assertEquals("malformed.yaml doc 1: malformed YAML at line 3, column 19: expected the node content, but found '}' "
        + "(while parsing a flow node at line 3, column 19)\n", r.err());

    Path nullContainer = dir.resolve("null.yaml");
    Files.writeString(nullContainer, """
        apiVersion: v1
        kind: Node
        metadata:
          name: n1
          annotations:
            basalt.io/gpu-topology: '{"devices":[{"index":null}],"links":[["X"]]}'
        status: {allocatable: {cpu: "8", nvidia.com/gpu: "1"}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p1}
        spec: {schedulerName: basalt-scheduler, containers: [null]}
        """);
    r = basalt("simulate", "--cluster", nullContainer.toString(), "--output", "json");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("null.yaml doc 2: Pod default/p1: spec.containers[0]: null, expected a container"),
        r.out());
  }
}
