package io.basalt.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each class of config input that once crashed, hung or blew up {@code basalt validate} (issue 15), with the exact
 * message it gives now: the source, the field or line and column, and no Java identity.
 */
class HostileConfigTest {
  private record Noop(String name) implements Plugin {
    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {}
  }

  /** Reads arguments the way the shipped plugins do: a weight, a factor and a resource list. */
  private static final PluginRegistry PLUGINS = PluginRegistry.of(PluginDescriptor.of("binpack", args -> {
    args.getWeight("binpack.weight", 1);
    args.getDouble("binpack.factor", 1);
    args.getString("binpack.resources", "");
    return null;
  }, n -> new Noop("binpack")), PluginDescriptor.of("gang", () -> new Noop("gang")));

  private static final String FAN_OUT = fanOut(8, 6);

  /** Anchors {@code &a0..&a<levels>}, each a list of {@code width} aliases of the one before: width^levels values. */
  private static String fanOut(int levels, int width) {
    StringBuilder s = new StringBuilder("a0: &a0 [" + "x,".repeat(width - 1) + "x]\n");
    for (int i = 1; i <= levels; i++) {
      s.append("a").append(i).append(": &a").append(i).append(" [")
          .append(String.join(",", Collections.nCopies(width, "*a" + (i - 1)))).append("]\n");
    }
    return s.toString();
  }

  private static final String BINPACK = "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n    arguments:\n";

  /** The config's problems as {@code basalt validate} prints them. */
  static List<String> problems(String yaml) {
    try {
      ConfValidator.validate(ConfLoader.parse(yaml, "c"), PLUGINS, ActionRegistry.builtin()).profileOrThrow("c: ");
      return List.of();
    } catch (ConfigException e) {
      return e.problems();
    }
  }

  static Stream<Arguments> hostileConfigs() {
    return Stream.of(
        Arguments.of("empty argument (was NullPointerException in PluginOption)",
            BINPACK + "      binpack.weight:\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.weight' has no value"),
        Arguments.of("empty action argument (was silently the default)",
            "actions: allocate\nconfigurations:\n- name: allocate\n  arguments:\n    percentageOfNodesToScore:\n",
            "c: configurations[0] (allocate): argument 'percentageOfNodesToScore' has no value"),
        Arguments.of("recursive alias (was StackOverflowError)", "actions: &a [[*a]]\n",
            "c: line 1, column 10: alias 'a' refers to a value that contains it (recursive alias)"),
        Arguments.of("alias fan-out under the alias limit (was a message of hundreds of MB)",
            FAN_OUT + "actions: *a8\n", "c: line 4, column 5: aliases expand to more than 10000 values ('*a3' "
                + "anchored here, and the aliases inside it)"),
        Arguments.of("alias fan-out as a mapping key (was a hang hashing the key)",
            FAN_OUT.substring(0, FAN_OUT.indexOf("a5:")) + "actions: allocate\n? *a4\n: 1\n",
            "c: line 4, column 5: aliases expand to more than 10000 values ('*a3' anchored here, and the aliases "
                + "inside it)"),
        Arguments.of("a list as a mapping key", "actions: allocate\n? [a]\n: 1\n",
            "c: line 2, column 3: a key must be a plain value, not a list or mapping"),
        Arguments.of("duplicate key (was silently the last)", "actions: allocate\ntiers:\n- plugins:\n  - name: gang"
                + "\ntiers: []\n",
            "c: line 5, column 1: not valid YAML: found duplicate key tiers (while constructing a mapping at line 1, "
                + "column 1)"),
        Arguments.of("duplicate key through a merge", "actions: allocate\nconfigurations:\n- <<: {name: x}\n"
                + "  name: allocate\n  name: backfill\n",
            "c: line 5, column 3: not valid YAML: found duplicate key name (while constructing a mapping at line 3, "
                + "column 3)"),
        Arguments.of("syntax error (had no line or column)", "actions: \"a\ntiers: [",
            "c: line 2, column 9: not valid YAML: found unexpected end of stream (while scanning a quoted scalar at "
                + "line 1, column 10)"),
        Arguments.of("NUL character (had no line)", "actions: allocate\ntiers: [\u0000]\n",
            "c: line 2: not valid YAML: character U+0000 is not allowed"),
        Arguments.of("nesting beyond the limit", "actions: allocate\nx: " + "[".repeat(100) + "]".repeat(100) + "\n",
            "c: not valid YAML: Nesting Depth exceeded max 64"),
        Arguments.of("binary value (printed [B@24a35978)", "actions: !!binary aGVsbG8=\n",
            "c: 'actions' must be a comma-separated string, got binary data (5 bytes)"),
        Arguments.of("binary argument (printed [B@...)", BINPACK + "      binpack.weight: !!binary aGVsbG8=\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.weight' must be a number, got binary data (5 bytes)"),
        Arguments.of("binary key", "actions: allocate\n!!binary aGVsbG8=: 1\n",
            "c: unknown field 'binary data (5 bytes)' (expected actions, tiers, configurations)"),
        Arguments.of("a list where text is read (was its toString)", BINPACK + "      binpack.resources: [a, b]\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.resources' must be text, got a list"),
        Arguments.of("1e400 (was int-max)", BINPACK + "      binpack.weight: 1e400\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.weight' must be a finite number, got .inf "
                + "(infinite, or beyond 1.7e308)"),
        Arguments.of(".inf (was int-max)", BINPACK + "      binpack.weight: .inf\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.weight' must be a finite number, got .inf "
                + "(infinite, or beyond 1.7e308)"),
        Arguments.of("2^31 (was int-max)", BINPACK + "      binpack.weight: 2147483648\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.weight' must be between -2147483648 and "
                + "2147483647, got 2147483648"),
        Arguments.of("a huge integer", BINPACK + "      binpack.weight: 99999999999999999999999\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.weight' must be between -2147483648 and "
                + "2147483647, got 99999999999999999999999"),
        Arguments.of(".nan as a double (was accepted)", BINPACK + "      binpack.factor: .nan\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.factor' must be a number, got .nan"),
        Arguments.of("'NaN' as text (was accepted)", BINPACK + "      binpack.factor: 'NaN'\n",
            "c: tiers[0].plugins[0] (binpack): argument 'binpack.factor' must be a number, got 'NaN'"),
        Arguments.of("negative percentageOfNodesToScore on backfill",
            "actions: allocate, backfill\nconfigurations:\n- name: backfill\n  arguments:\n"
                + "    percentageOfNodesToScore: -5\n",
            "c: configurations.backfill: argument 'percentageOfNodesToScore' must be between 0 and 100, got -5"),
        Arguments.of(".nan percentageOfNodesToScore",
            "actions: allocate\nconfigurations:\n- name: allocate\n  arguments:\n    percentageOfNodesToScore: .nan\n",
            "c: configurations.allocate: argument 'percentageOfNodesToScore' must be a number, got .nan"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostileConfigs")
  void isOneClearProblem(String what, String yaml, String message) {
    List<String> problems = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> problems(yaml));
    assertEquals(message, problems.isEmpty() ? "accepted" : problems.get(0), what + ": " + problems);
  }

  @Test
  void aDocumentBeyondTheSizeLimitIsRejectedBeforeParsing() {
    String big = "actions: allocate\n#" + "x".repeat(300_000) + "\n";
    assertEquals(List.of("c: 300020 characters, more than the 262144 a scheduler config may have"), problems(big));
  }

  @Test
  void badUtf8IsNamedWithItsLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.conf");
    String text = "actions: allocate\ntiers: [x]\n";
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    bytes[text.indexOf('x')] = (byte) 0xff;
    Files.write(f, bytes);
    ConfigException e = assertThrows(ConfigException.class, () -> ConfLoader.load(f));
    assertEquals(f + ": line 2: not valid UTF-8 (byte 0xff at offset 26)", e.getMessage());
  }

  @Test
  void messagesAreBoundedHoweverManyProblemsThereAre() {
    String many = "actions: \"" + "nope".repeat(200) + "," + "x, ".repeat(5000) + "\"\n";
    List<String> problems = problems(many);
    assertEquals(21, problems.size());
    assertEquals("... and 4981 more problems", problems.get(20));
    assertTrue(problems.stream().allMatch(p -> p.length() <= 403), problems.get(0));
    ConfigException e = new ConfigException(problems);
    assertTrue(e.getMessage().length() <= 2003, e.getMessage());
  }
}
