package io.basalt.app.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Line handling shared by both parsers. smi output reaches us through terminals, {@code kubectl exec} and copy-paste:
 * ANSI escapes (nvidia-smi underlines the topo header), CRLF, no-break and zero-width spaces all occur and must not
 * move a cell.
 */
final class SmiText {
  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[ -/]*[@-~]|\u001B[@-Z\\\\-_]");
  private static final Pattern INVISIBLE = Pattern.compile("[\u200B\u200C\u200D\u2060\uFEFF]");
  private static final Pattern TOKEN = Pattern.compile("\\S+", Pattern.UNICODE_CHARACTER_CLASS);

  /** One whitespace-separated cell and the 1-based character where it starts (after cleaning). */
  record Token(String text, int at) {}

  private SmiText() {}

  static String[] lines(String output) {
    return output.split("\r\n|\r|\n", -1);
  }

  /** The line without escapes and invisible characters; other control characters become spaces. */
  static String clean(String line) {
    String s = INVISIBLE.matcher(ANSI.matcher(line).replaceAll("")).replaceAll("");
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.append(c != '\t' && Character.isISOControl(c) ? ' ' : c);
    }
    return b.toString();
  }

  /** The cells of a cleaned line, split on any run of (Unicode) whitespace: tabs, spaces, no-break spaces. */
  static List<Token> tokens(String cleanLine) {
    List<Token> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(cleanLine);
    while (m.find()) {
      out.add(new Token(m.group(), m.start() + 1));
    }
    return out;
  }
}
