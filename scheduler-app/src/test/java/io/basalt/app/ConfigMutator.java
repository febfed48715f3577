package io.basalt.app;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

/**
 * Seeded mutations of a config's text, the kinds of edits that once crashed {@code basalt validate}: lines deleted,
 * duplicated or re-indented, values emptied or swapped for another type, huge and non-finite numbers, YAML
 * directives (binary, timestamps, anchors and recursive or fanned-out aliases), stray characters, truncation. The
 * same seed gives the same mutants, so a failure names the seed that reproduces it.
 */
final class ConfigMutator {
  /** Values put in place of another: other types, numbers at and beyond every range, YAML's special tags. */
  private static final List<String> VALUES = List.of("", "~", "[]", "{}", "[a, b]", "{a: 1}", "!!binary aGVsbG8=",
      "2001-12-14t21:59:43.10-05:00", "!!set {a, b}", "!!omap [a: 1]", ".nan", ".NaN", ".inf", "-.inf", "1e400",
      "-1e400", "2147483648", "-2147483649", "4294967296", "99999999999999999999999", "-5", "0", "0.5", "1.0e-400",
      "0x7fffffff", "0o17", "'NaN'", "\"Infinity\"", "\"1e400\"", "true", "yes", "\"\"", "' '", "*a8", "&a [[*a]]",
      "&b {k: *b}", "!!str", "!!int x", "!!float x", "!!bool x", "!!timestamp x", "!!java.io.File x", "|\n  x",
      ">-", "\"\\x00\"", "\"\\uD800\"", "'''", "&", "*", "*nope", "!", "%", "@x", "`x`", "? [a]\n: b");
  /** Characters inserted at random places: YAML indicators, whitespace, control characters. */
  private static final String CHARS = ":-[]{},#&*!|>'\"%@`?\t\n \u0000\u0007\u0085\u2028\uFEFF\uD800";

  private final Random random;

  ConfigMutator(long seed) {
    this.random = new Random(seed);
  }

  /** {@code text} with one to three random mutations applied. */
  String mutate(String text) {
    String t = text;
    for (int n = 1 + random.nextInt(3); n > 0; n--) {
      t = MUTATIONS.get(random.nextInt(MUTATIONS.size())).apply(this, t);
    }
    return t;
  }

  private static final List<BiFunction<ConfigMutator, String, String>> MUTATIONS = List.of(
      ConfigMutator::deleteLine, ConfigMutator::duplicateLine, ConfigMutator::emptyValue,
      ConfigMutator::swapValue, ConfigMutator::swapValue, ConfigMutator::reindent, ConfigMutator::insertChar,
      ConfigMutator::fanOut, ConfigMutator::truncate, ConfigMutator::duplicateKey, ConfigMutator::repeatBlock);

  private List<String> lines(String text) {
    return new ArrayList<>(Arrays.asList(text.split("\n", -1)));
  }

  private int anyLine(List<String> lines) {
    return random.nextInt(lines.size());
  }

  private String deleteLine(String text) {
    List<String> l = lines(text);
    l.remove(anyLine(l));
    return String.join("\n", l);
  }

  private String duplicateLine(String text) {
    List<String> l = lines(text);
    int i = anyLine(l);
    l.add(i, l.get(i));
    return String.join("\n", l);
  }

  /** {@code key: value} becomes {@code key:}; an argument with no value. */
  private String emptyValue(String text) {
    return replaceValue(text, "");
  }

  private String swapValue(String text) {
    return replaceValue(text, VALUES.get(random.nextInt(VALUES.size())));
  }

  /** The value of a random {@code key: value} line (or a list item) replaced by {@code value}. */
  private String replaceValue(String text, String value) {
    List<String> l = lines(text);
    for (int tries = 0; tries < 10; tries++) {
      int i = anyLine(l);
      String line = l.get(i);
      int colon = line.indexOf(": ");
      int dash = line.indexOf("- ");
      int at = colon >= 0 ? colon + 2 : dash >= 0 ? dash + 2 : -1;
      if (at > 0) {
        l.set(i, line.substring(0, at) + value);
        return String.join("\n", l);
      }
    }
    return text;
  }

  private String reindent(String text) {
    List<String> l = lines(text);
    int i = anyLine(l);
    l.set(i, random.nextBoolean() ? "  " + l.get(i) : l.get(i).replaceFirst("^ {1,2}", ""));
    return String.join("\n", l);
  }

  private String insertChar(String text) {
    int at = random.nextInt(text.length() + 1);
    return text.substring(0, at) + CHARS.charAt(random.nextInt(CHARS.length())) + text.substring(at);
  }

  /** Anchors whose aliases fan out (up to 48 aliases, under SnakeYAML's limit), one of them used as a value. */
  private String fanOut(String text) {
    int levels = 2 + random.nextInt(7);
    int width = 2 + random.nextInt(5);
    StringBuilder anchors = new StringBuilder("f0: &a0 [x, x]\n");
    for (int i = 1; i <= levels; i++) {
      anchors.append("f").append(i).append(": &a").append(i).append(" [")
          .append(String.join(", ", Collections.nCopies(width, "*a" + (i - 1)))).append("]\n");
    }
    return anchors + replaceValue(text, "*a" + levels);
  }

  private String truncate(String text) {
    return text.substring(0, random.nextInt(text.length() + 1));
  }

  /** A top-level key repeated at the end: {@code tiers: []} after the tiers. */
  private String duplicateKey(String text) {
    List<String> keys = lines(text).stream().filter(s -> s.matches("^[A-Za-z]\\w*:.*")).toList();
    return keys.isEmpty() ? text : text + "\n" + keys.get(random.nextInt(keys.size())) + "\n";
  }

  /** A run of lines repeated many times: long lists of plugins, actions, problems. */
  private String repeatBlock(String text) {
    List<String> l = lines(text);
    int from = anyLine(l);
    int to = Math.min(l.size(), from + 1 + random.nextInt(5));
    List<String> block = l.subList(from, to);
    List<String> out = new ArrayList<>(l.subList(0, to));
    for (int i = random.nextInt(200); i > 0; i--) {
      out.addAll(block);
    }
    out.addAll(l.subList(to, l.size()));
    return String.join("\n", out);
  }
}
