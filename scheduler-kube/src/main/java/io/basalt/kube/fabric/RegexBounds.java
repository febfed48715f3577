package io.basalt.kube.fabric;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a HyperNode pattern may cost before RE2/J compiles it. Go's parser refuses counted repetitions nested past
 * 1,000 in all ({@code (a{1000}){1000}}: "invalid repeat count"), RE2/J does not and builds a million-instruction
 * program for it (seconds per read); and matching costs the pattern's length times each name's, so Basalt also
 * refuses patterns longer than {@link #MAX_LENGTH} characters, far beyond any real node-name pattern.
 */
final class RegexBounds {
  static final int MAX_LENGTH = 1024;
  /** Go's bound on one counted repetition, and on counted repetitions nested inside each other. */
  static final int MAX_REPEAT = 1000;

  private RegexBounds() {}

  /** Why {@code pattern} is refused before compiling, or null when within the bounds. */
  static String problem(String pattern) {
    if (pattern.length() > MAX_LENGTH) {
      return "longer than " + MAX_LENGTH + " characters";
    }
    return nestedRepeat(pattern) > MAX_REPEAT ? "counted repetitions nest past " + MAX_REPEAT + " in all" : null;
  }

  /**
   * The largest product of counted repetitions nested inside each other ({@code x{n}}, {@code x{n,m}}, {@code x{n,}}
   * count their largest bound, or n when open). Escapes, {@code \Q...\E} and character classes are skipped; a
   * malformed pattern is left to the compiler.
   */
  static long nestedRepeat(String p) {
    Deque<long[]> groups = new ArrayDeque<>(); // per open group: the largest product inside it so far
    long[] top = {1};
    long atom = 1; // the product inside the last atom (1 for a character, a group's own for a group)
    long worst = 1;
    for (int i = 0; i < p.length(); i++) {
      char c = p.charAt(i);
      if (c == '\\') {
        if (i + 1 < p.length() && p.charAt(i + 1) == 'Q') {
          int end = p.indexOf("\\E", i + 2);
          i = end < 0 ? p.length() : end + 1;
        } else {
          i++;
        }
        atom = 1;
      } else if (c == '[') {
        int j = i + 1;
        if (j < p.length() && p.charAt(j) == '^') {
          j++;
        }
        if (j < p.length() && p.charAt(j) == ']') {
          j++;
        }
        while (j < p.length() && p.charAt(j) != ']') {
          int posix = p.startsWith("[:", j) ? p.indexOf(":]", j + 2) : -1; // [[:alpha:]]
          j = p.charAt(j) == '\\' ? j + 2 : posix >= 0 ? posix + 2 : j + 1;
        }
        i = j;
        atom = 1;
      } else if (c == '(') {
        groups.push(top);
        top = new long[] {1};
      } else if (c == ')') {
        atom = top[0];
        top = groups.isEmpty() ? new long[] {1} : groups.pop();
        top[0] = Math.max(top[0], atom);
      } else if (c == '{') {
        int close = p.indexOf('}', i);
        long bound = close < 0 ? -1 : bound(p.substring(i + 1, close));
        if (bound >= 0) {
          long product = Math.min(atom, 1_000_000L) * Math.min(Math.max(bound, 1), MAX_REPEAT + 1L);
          top[0] = Math.max(top[0], product);
          worst = Math.max(worst, product);
          i = close;
        }
        atom = 1;
      } else {
        atom = 1;
      }
      worst = Math.max(worst, top[0]);
    }
    return worst;
  }

  /** The largest count of {@code n}, {@code n,m} or {@code n,}; -1 when the braces hold no repetition (a literal). */
  private static long bound(String inside) {
    int comma = inside.indexOf(',');
    String min = comma < 0 ? inside : inside.substring(0, comma);
    String max = comma < 0 ? "" : inside.substring(comma + 1);
    if (!digits(min) || !(max.isEmpty() || digits(max))) {
      return -1;
    }
    long n = parse(min);
    return max.isEmpty() ? n : Math.max(n, parse(max));
  }

  private static boolean digits(String s) {
    return !s.isEmpty() && s.chars().allMatch(ch -> ch >= '0' && ch <= '9');
  }

  private static long parse(String s) {
    return s.length() > 9 ? Long.MAX_VALUE / 4 : Long.parseLong(s);
  }
}
