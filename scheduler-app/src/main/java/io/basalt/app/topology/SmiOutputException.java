package io.basalt.app.topology;

/**
 * An smi output that does not parse, naming the output (its command line), the line and the column, so whoever reads
 * the DaemonSet's log can find the offending cell in a capture of the same command.
 */
final class SmiOutputException extends SmiException {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final String column;

  /**
   * @param source the command whose output this is, e.g. {@code nvidia-smi topo -m}
   * @param line 1-based line of the output, or 0 when the problem is with the output as a whole
   * @param column the column's name (a header label such as {@code GPU3}, or a CSV field), or null
   */
  SmiOutputException(String source, int line, String column, String problem) {
    super("output of `" + source + "`" + (line > 0 ? ", line " + line : "")
        + (column != null ? ", column " + column : "") + ": " + problem);
    this.line = line;
    this.column = column;
  }

  int line() {
    return line;
  }

  String column() {
    return column;
  }
}
