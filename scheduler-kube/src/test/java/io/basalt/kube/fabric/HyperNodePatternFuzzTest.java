package io.basalt.kube.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.basalt.fabric.FabricBuilder;
import io.basalt.model.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * HyperNode {@code regexMatch} patterns a hostile or careless operator writes (nested quantifiers, huge repeats,
 * backreferences and lookarounds Go refuses, unbalanced groups, random characters, 2,000-atom patterns) against node
 * names up to 1,001 characters: the reader answers each in linear time, a pattern RE2 refuses is one problem naming
 * the HyperNode and the field, and where the pattern uses only syntax Go and Java read alike the members are exactly
 * the short names {@code java.util.regex} finds a match in. Bounded by the number of cases (the time limit only
 * catches a hang); {@code -Dbasalt.fuzz.seed}, {@code -Dbasalt.fuzz.count}.
 */
class HyperNodePatternFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 35L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 5000);
  private static final String FIELD = "HyperNode h: spec.members[0].selector.regexMatch.pattern: ";
  private static final List<String> SHORT = List.of("gpu-a-01", "gpu-a-02", "gpu-b-10", "node7", "aaab", "ab.c",
      "x1", "a", "cpu-z-99", "n-0-1");
  private static final List<String> LONG = List.of("a".repeat(1_000) + "b", "ab".repeat(250) + "-9");
  /** Syntax Go's RE2 and java.util.regex read alike (for whether a name has a match). */
  private static final List<String> COMMON = List.of("a", "b", "g", "p", "u", "-", "0", "1", "9", ".", "\\.", "[a-c]",
      "[0-9]", "[^a]", "\\d", "\\w", "\\s", "x", "z", "gpu", "node", "(?i)A");
  private static final List<String> QUANT = List.of("", "", "", "*", "+", "?", "*?", "+?", "{2}", "{1,3}", "{0,}");
  /** Syntax one of them refuses or reads otherwise, and patterns that backtrack forever in Java. */
  private static final List<String> HOSTILE = List.of("(a+)+$", "^(a|aa)*$", "(.*)*b", "(a*)*c", "a{1001}",
      "a{1000}{1000}", "(a{1000}){1000}", "(?=a)", "(?!a)", "(?<=a)b", "(a)\\1", "\\p{L}+", "[[:alpha:]]+", "(",
      ")", "[", "[z-a]", "*", "a**", "\\", "\\Q.*\\E", "(?P<n>a)", "(?<n>a)", "\\z", "\\Z", "\\C", "(?s).", "\\x{10FFFF}",
      "\uD800", "\u0000", "[\\d-z]", "(?U)a+", "a++", "x{2,1}", "((((((((((a))))))))))", "^$", "$^", "|", "||a");

  @Test
  void hostilePatternsAnswerInLinearTimeAndMatchAsGoDoes() {
    Random r = new Random(SEED);
    List<Node> nodes = new ArrayList<>();
    SHORT.forEach(n -> nodes.add(Fixtures.node(n)));
    LONG.forEach(n -> nodes.add(Fixtures.node(n)));
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      int refused = 0;
      int compared = 0;
      for (int i = 0; i < COUNT; i++) {
        boolean[] common = {true};
        String pattern = pattern(r, common);
        FabricBuilder.Result result;
        try {
          result = HyperNodeReader.read(List.of(hyperNode(pattern)), nodes);
        } catch (RuntimeException e) {
          throw new AssertionError(at(i, pattern, "threw " + e), e);
        }
        boolean named = false;
        for (String p : result.problems()) {
          assertTrue(p.startsWith("HyperNode h: ") && p.length() < 400, at(i, pattern, "problem: " + p));
          named |= p.startsWith(FIELD);
        }
        if (named) {
          refused++;
        }
        if (!common[0]) {
          continue;
        }
        java.util.regex.Pattern jre;
        try {
          jre = java.util.regex.Pattern.compile(pattern);
        } catch (java.util.regex.PatternSyntaxException e) {
          continue;
        }
        TreeSet<String> expected = new TreeSet<>();
        SHORT.stream().filter(n -> jre.matcher(n).find()).forEach(expected::add);
        TreeSet<String> members = new TreeSet<>(result.fabric().nodesOf("h"));
        members.removeAll(LONG);
        assertEquals(expected, members, at(i, pattern, "members"));
        compared++;
      }
      System.out.println("fuzz cases: HyperNodePatternFuzzTest " + COUNT + " (regexes)");
      assertTrue(refused > COUNT / 20, "many patterns should be refused: " + refused);
      assertTrue(compared > COUNT / 3, "many patterns should be compared with java.util.regex: " + compared);
    });
  }

  private static String at(int i, String pattern, String problem) {
    String shown = pattern.length() > 200 ? pattern.substring(0, 200) + "... (" + pattern.length() + ")" : pattern;
    return "case " + i + " of seed " + SEED + " pattern '" + shown + "': " + problem;
  }

  private static JsonObject hyperNode(String pattern) {
    JsonObject regex = new JsonObject();
    regex.add("pattern", new JsonPrimitive(pattern));
    JsonObject selector = new JsonObject();
    selector.add("regexMatch", regex);
    JsonObject member = new JsonObject();
    member.addProperty("type", "Node");
    member.add("selector", selector);
    JsonArray members = new JsonArray();
    members.add(member);
    JsonObject spec = new JsonObject();
    spec.addProperty("tier", 1);
    spec.add("members", members);
    JsonObject meta = new JsonObject();
    meta.addProperty("name", "h");
    JsonObject h = new JsonObject();
    h.addProperty("kind", "HyperNode");
    h.add("metadata", meta);
    h.add("spec", spec);
    return h;
  }

  /** A pattern of common atoms, with hostile pieces, anchors, groups and alternations mixed in now and then. */
  private static String pattern(Random r, boolean[] common) {
    if (r.nextInt(100) == 0) { // long: up to 2,000 atoms, or a hostile piece repeated
      common[0] = false;
      String piece = r.nextBoolean() ? HOSTILE.get(r.nextInt(HOSTILE.size())) : "(a|b)";
      return piece.repeat(1 + r.nextInt(r.nextBoolean() ? 2_000 : 50));
    }
    if (r.nextInt(10) == 0) {
      common[0] = false;
      StringBuilder sb = new StringBuilder();
      String chars = "()[]{}*+?|^$\\.-,0123456789abgpuxz:=!<>P";
      for (int n = r.nextInt(16); n >= 0; n--) {
        sb.append(chars.charAt(r.nextInt(chars.length())));
      }
      return sb.toString();
    }
    return sequence(r, common, 0);
  }

  private static String sequence(Random r, boolean[] common, int depth) {
    StringBuilder sb = new StringBuilder();
    if (r.nextInt(4) == 0) {
      sb.append('^');
    }
    for (int n = 1 + r.nextInt(4); n > 0; n--) {
      int pick = r.nextInt(12);
      if (pick == 0) {
        common[0] = false;
        sb.append(HOSTILE.get(r.nextInt(HOSTILE.size())));
      } else if (pick <= 2 && depth < 3) {
        sb.append('(').append(sequence(r, common, depth + 1));
        if (r.nextBoolean()) {
          sb.append('|').append(sequence(r, common, depth + 1));
        }
        sb.append(')').append(QUANT.get(r.nextInt(QUANT.size())));
      } else {
        sb.append(COMMON.get(r.nextInt(COMMON.size()))).append(QUANT.get(r.nextInt(QUANT.size())));
      }
    }
    if (r.nextInt(4) == 0) {
      sb.append('$');
    }
    return sb.toString();
  }
}
