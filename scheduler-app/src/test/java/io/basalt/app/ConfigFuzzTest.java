package io.basalt.app;

import static io.basalt.app.CliRun.basalt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.framework.PluginRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of mutants of the shipped configs through the loader and validator, as {@code basalt validate} and the
 * ConfigMap reload run them: each is accepted or rejected with a {@link ConfigException} whose every line names the
 * source, within a second, in a bounded message with no Java identity or exception name. Anything else (an
 * exception, an error, a hang) fails with the seed and the mutant that caused it. Set {@code -Dbasalt.fuzz.seed}
 * and {@code -Dbasalt.fuzz.count} to explore further.
 */
class ConfigFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 15L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 3000);
  private static final PluginRegistry PLUGINS = PluginRegistry.load();
  /** What a message must never show: an array's or object's identity, a class or exception name. */
  private static final Pattern IDENTITY =
      Pattern.compile("\\[[A-Z]@|@[0-9a-f]{6,}|java\\.(lang|util)\\.|Exception|Error\\b");
  /** A hang, not a slow machine: generous so a loaded CI box never trips it. */
  private static final Duration PER_INPUT = Duration.ofSeconds(10);

  /** What became of one input: accepted, or the problems it was rejected with. */
  private record Outcome(boolean ok, List<String> problems, String message) {}

  private static List<String> seeds() throws IOException {
    Path dir = Scenarios.fixture("../config").normalize();
    List<String> texts = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir).sorted()) {
      for (Path f : files.toList()) {
        texts.add(Files.readString(f));
      }
    }
    return texts;
  }

  /** The path {@code validate} and the live reload take from text to a compiled profile. */
  private static Outcome check(String text, String source) {
    try {
      ConfigOption.compile(ConfLoader.parse(text, source), source, PLUGINS, new ArrayList<>());
      return new Outcome(true, List.of(), "");
    } catch (ConfigException e) {
      return new Outcome(false, e.problems(), e.getMessage());
    }
  }

  @Test
  void everyMutantOfTheShippedConfigsIsAcceptedOrOneClearErrorPerProblem() throws IOException {
    List<String> seeds = seeds();
    ConfigMutator mutator = new ConfigMutator(SEED);
    int rejected = 0;
    for (int i = 0; i < COUNT; i++) {
      String mutant = mutator.mutate(seeds.get(i % seeds.size()));
      String source = "mutant-" + i + ".conf";
      Outcome o;
      try {
        o = assertTimeoutPreemptively(PER_INPUT, () -> check(mutant, source));
      } catch (Throwable t) {
        throw new AssertionError(failure(i, mutant, "threw " + t), t);
      }
      if (!o.ok()) {
        rejected++;
        expectClear(i, mutant, source, o);
      }
    }
    assertTrue(rejected > COUNT / 4, "the mutations should break most configs: " + rejected + " of " + COUNT);
    assertTrue(rejected < COUNT, "some mutants should still be valid");
  }

  private static void expectClear(int i, String mutant, String source, Outcome o) {
    if (o.problems().isEmpty()) {
      fail(failure(i, mutant, "rejected without a problem"));
    }
    for (String p : o.problems()) {
      if (!p.startsWith(source + ": ") && !p.startsWith(source + " (ConfigMap data.") && !p.startsWith("... and ")) {
        fail(failure(i, mutant, "a problem not naming the source: " + p));
      }
      if (p.length() > 403) {
        fail(failure(i, mutant, "a problem of " + p.length() + " characters"));
      }
    }
    if (o.message().length() > 2003) {
      fail(failure(i, mutant, "a message of " + o.message().length() + " characters"));
    }
    // a name the mutant wrote, echoed back ('-214@7483649', or after a path: plugins[2] (-214@7483649)), is the
    // user's text, not a Java identity
    if (IDENTITY.matcher(o.message().replaceAll("'[^'\\n]*'|\\] \\([^)\\n]*\\)", "")).find()) {
      fail(failure(i, mutant, "a Java identity or exception in: " + o.message()));
    }
  }

  private static String failure(int i, String mutant, String what) {
    String shown = mutant.length() > 1500 ? mutant.substring(0, 1500) + "..." : mutant;
    return "mutant " + i + " of seed " + SEED + ": " + what + "\n--- mutant ---\n" + shown;
  }

  /** The command itself on a sample of mutants: exit 0 or 1, one line per problem on stdout, nothing on stderr. */
  @Test
  void validateExitsZeroOrOneOnMutantsAndPrintsNoStackTrace(@TempDir Path dir) throws IOException {
    List<String> seeds = seeds();
    ConfigMutator mutator = new ConfigMutator(SEED + 1);
    for (int i = 0; i < 50; i++) {
      Path f = dir.resolve("mutant-" + i + ".conf");
      Files.write(f, mutator.mutate(seeds.get(i % seeds.size())).getBytes(StandardCharsets.UTF_8));
      CliRun r = assertTimeoutPreemptively(PER_INPUT.multipliedBy(5), () -> basalt("validate", "--config",
          f.toString()));
      assertTrue(r.exit() == 0 || r.exit() == 1, f + ": exit " + r.exit() + "\n" + r.out() + r.err());
      assertEquals("", r.err(), f + ": " + Files.readString(f));
      assertTrue(r.out().lines().allMatch(l -> l.startsWith(f + ":") || l.startsWith(f + " (ConfigMap data.")
          || l.startsWith("... and ")), r.out());
    }
  }
}
