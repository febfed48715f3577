package io.basalt.app.topology;

import io.basalt.app.topology.SmiText.Token;
import io.basalt.gpu.GpuTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the GPU-to-GPU block of {@code nvidia-smi topo -m}: the header row lists GPU0..GPUn-1 first (then NICs, CPU
 * and NUMA affinity, which are not read), each GPU row starts with its label, and NIC rows and the legend after the
 * first blank line are skipped. The block must be square, symmetric, X on the diagonal only, and every other code one
 * {@link GpuTopology#pairScore} knows, since the scheduler rejects the whole annotation otherwise.
 */
final class TopoMatrixParser {
  private static final Pattern GPU = Pattern.compile("GPU(\\d+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern AFFINITY = Pattern.compile("[0-9][0-9,\\-]*|N/A", Pattern.CASE_INSENSITIVE);

  private TopoMatrixParser() {}

  /** The link codes, row by row ({@code X} on the diagonal, upper case), of the output of {@code source}. */
  static List<List<String>> parse(String output, String source) throws SmiOutputException {
    String[] lines = SmiText.lines(output);
    int header = headerLine(lines, source);
    List<Token> head = SmiText.tokens(SmiText.clean(lines[header]));
    int n = gpuColumns(head, header + 1, source);

    List<List<String>> rows = new ArrayList<>();
    List<Integer> rowLines = new ArrayList<>();
    for (int li = header + 1; li < lines.length; li++) {
      List<Token> cells = SmiText.tokens(SmiText.clean(lines[li]));
      if (cells.isEmpty()) {
        if (rows.isEmpty()) {
          continue;
        }
        break;
      }
      Matcher label = GPU.matcher(cells.get(0).text());
      if (!label.matches()) {
        continue; // a NIC row (NIC0, mlx5_0, ...): its links to GPUs repeat the GPU rows' NIC columns
      }
      int r = rows.size();
      if (!label.group(1).equals(Integer.toString(r))) {
        throw new SmiOutputException(source, li + 1, null, "row " + cells.get(0).text() + " where GPU" + r
            + " was expected (GPU rows must be GPU0, GPU1, ... in order, once each)");
      }
      rows.add(row(cells, r, n, li + 1, source));
      rowLines.add(li + 1);
    }
    if (rows.size() != n) {
      throw new SmiOutputException(source, header + 1, null, "the header lists " + n + " GPU columns but "
          + rows.size() + " GPU rows follow; the matrix must be square");
    }
    checkSymmetric(rows, rowLines, source);
    return rows;
  }

  /** The header: the first line naming GPU0 and holding no X (every matrix row holds its X). */
  private static int headerLine(String[] lines, String source) throws SmiOutputException {
    for (int i = 0; i < lines.length; i++) {
      List<Token> t = SmiText.tokens(SmiText.clean(lines[i]));
      boolean gpu0 = t.stream().anyMatch(c -> c.text().equalsIgnoreCase("GPU0"));
      boolean self = t.stream().anyMatch(c -> c.text().equalsIgnoreCase("X"));
      if (gpu0 && !self) {
        return i;
      }
    }
    throw new SmiOutputException(source, 0, null,
        "no header row listing GPU0, GPU1, ... (is this the output of `nvidia-smi topo -m`?)");
  }

  /** How many GPU columns the header starts with; they must be GPU0..GPUn-1, before any other column. */
  private static int gpuColumns(List<Token> head, int line, String source) throws SmiOutputException {
    int n = 0;
    while (n < head.size() && GPU.matcher(head.get(n).text()).matches()) {
      if (!head.get(n).text().equalsIgnoreCase("GPU" + n)) {
        throw new SmiOutputException(source, line, at(head.get(n)),
            "header column " + (n + 1) + " is " + head.get(n).text() + ", expected GPU" + n);
      }
      n++;
    }
    if (n == 0) {
      throw new SmiOutputException(source, line, at(head.get(0)),
          "the header must start with GPU0, found " + head.get(0).text());
    }
    for (int i = n; i < head.size(); i++) {
      if (GPU.matcher(head.get(i).text()).matches()) {
        throw new SmiOutputException(source, line, at(head.get(i)),
            head.get(i).text() + " comes after non-GPU columns; GPU columns must come first");
      }
    }
    return n;
  }

  private static List<String> row(List<Token> cells, int r, int n, int line, String source)
      throws SmiOutputException {
    String label = cells.get(0).text();
    List<String> codes = new ArrayList<>(n);
    for (int j = 0; j < n; j++) {
      if (j + 1 >= cells.size()) {
        throw new SmiOutputException(source, line, "GPU" + j, "row " + label + " ends after " + j
            + " link codes; the header lists " + n + " GPU columns");
      }
      Token cell = cells.get(j + 1);
      String code = cell.text().toUpperCase(Locale.ROOT);
      String where = "GPU" + j + " (character " + cell.at() + ")";
      if (j == r) {
        if (!code.equals("X")) {
          throw new SmiOutputException(source, line, where, "expected X (the GPU itself) on the diagonal, found '"
              + cell.text() + "'" + shiftHint(label));
        }
      } else if (code.equals("X")) {
        throw new SmiOutputException(source, line, where,
            "X (the GPU itself) off the diagonal" + shiftHint(label));
      } else {
        try {
          GpuTopology.pairScore(code);
        } catch (IllegalArgumentException e) {
          throw new SmiOutputException(source, line, where, e.getMessage() + codeHint(code, label, j, n));
        }
      }
      codes.add(code);
    }
    return List.copyOf(codes);
  }

  private static void checkSymmetric(List<List<String>> rows, List<Integer> rowLines, String source)
      throws SmiOutputException {
    for (int i = 0; i < rows.size(); i++) {
      for (int j = 0; j < i; j++) {
        String here = rows.get(i).get(j);
        String there = rows.get(j).get(i);
        if (!here.equals(there)) {
          throw new SmiOutputException(source, rowLines.get(i), "GPU" + j, "GPU" + i + "-GPU" + j + " is " + here
              + " but GPU" + j + "-GPU" + i + " (line " + rowLines.get(j) + ") is " + there
              + "; the matrix must be symmetric");
        }
      }
    }
  }

  /** A CPU affinity where a link code belongs means the row lost cells: say so rather than "unknown code 0-63". */
  private static String codeHint(String code, String label, int j, int n) {
    if (AFFINITY.matcher(code).matches()) {
      return "; row " + label + " seems to have only " + j + " link codes for " + n
          + " GPU columns ('" + code + "' looks like its CPU/NUMA affinity)";
    }
    if (code.equals("SOC")) {
      return "; SOC is what drivers before R384 printed for SYS";
    }
    return "";
  }

  private static String shiftHint(String label) {
    return "; cells of row " + label + " are missing or out of place";
  }

  private static String at(Token t) {
    return t.text() + " (character " + t.at() + ")";
  }
}
