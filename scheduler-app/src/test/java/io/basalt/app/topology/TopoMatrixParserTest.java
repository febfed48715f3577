package io.basalt.app.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code nvidia-smi topo -m} as real machines print it, and the ways it goes wrong. */
class TopoMatrixParserTest {
  private static final String SRC = "nvidia-smi topo -m";

  private static List<List<String>> parse(String capture) throws SmiOutputException {
    return TopoMatrixParser.parse(Captures.read(capture), SRC);
  }

  private static SmiOutputException failure(String text) {
    return assertThrows(SmiOutputException.class, () -> TopoMatrixParser.parse(text, SRC));
  }

  @Test
  void dgxH100IsNv18EverywhereAndItsTwelveNicColumnsAreNotRead() throws Exception {
    List<List<String>> m = parse("dgx-h100-topo.txt");
    assertEquals(8, m.size());
    for (int i = 0; i < 8; i++) {
      assertEquals(8, m.get(i).size(), "row " + i);
      for (int j = 0; j < 8; j++) {
        assertEquals(i == j ? "X" : "NV18", m.get(i).get(j), i + "," + j);
      }
    }
  }

  @Test
  void pcieTwoSocketsKeepsPixPxbNodeAndSys() throws Exception {
    List<List<String>> m = parse("pcie-2socket-topo.txt");
    assertEquals(List.of("X", "PIX", "PXB", "PXB", "SYS", "SYS", "SYS", "SYS"), m.get(0));
    assertEquals(List.of("PXB", "PXB", "PIX", "X", "SYS", "SYS", "SYS", "SYS"), m.get(3));
    assertEquals(List.of("SYS", "SYS", "SYS", "SYS", "X", "PIX", "NODE", "NODE"), m.get(4));
    assertEquals(List.of("SYS", "SYS", "SYS", "SYS", "NODE", "NODE", "PIX", "X"), m.get(7));
  }

  @Test
  void fourGpusWithTwoNvlinkPairsCopiedFromATerminalWithSpaces() throws Exception {
    String text = Captures.read("nvlink-pairs-4gpu-topo.txt");
    assertTrue(!text.contains("\t"), "this capture is space-separated");
    assertEquals(List.of(
        List.of("X", "NV12", "NODE", "NODE"),
        List.of("NV12", "X", "NODE", "NODE"),
        List.of("NODE", "NODE", "X", "NV12"),
        List.of("NODE", "NODE", "NV12", "X")), parse("nvlink-pairs-4gpu-topo.txt"));
  }

  @Test
  void oddWhitespaceEscapesAndLineEndingsDoNotMoveCells() throws Exception {
    List<List<String>> expected = parse("pcie-2socket-topo.txt");
    String text = Captures.read("pcie-2socket-topo.txt");
    String crlf = text.replace("\n", "\r\n");
    String spaced = text.replace("\t", "   ");
    String nbsp = text.replace("\t", "\u00A0\u00A0").replace("GPU1", "\u200BGPU1");
    String bold = text.replace("PIX", "\u001B[1mPIX\u001B[0m").replaceFirst("\t", "\t\u001B[4m");
    String lower = text.replace("PIX", "pix").replace(" X ", " x ");
    for (String variant : List.of(crlf, spaced, nbsp, bold, lower)) {
      assertEquals(expected, TopoMatrixParser.parse(variant, SRC));
    }
  }

  @Test
  void aMatrixWithoutTrailingColumnsOrLegendStillParses() throws Exception {
    assertEquals(List.of(List.of("X", "NV4"), List.of("NV4", "X")),
        TopoMatrixParser.parse("        GPU0    GPU1\nGPU0     X      NV4\nGPU1    NV4      X\n", SRC));
    assertEquals(List.of(List.of("X")), TopoMatrixParser.parse(
        "\tGPU0\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\nGPU0\t X \tPHB\t0-251\t0\t\tN/A\nNIC0\tPHB\t X \n",
        SRC));
  }

  @Test
  void aRowThatLostACellIsNamedWithLineAndColumn() {
    SmiOutputException e = failure(Captures.read("malformed-ragged-topo.txt"));
    assertEquals(4, e.line());
    assertTrue(e.column().startsWith("GPU3"), e.column());
    assertEquals("output of `nvidia-smi topo -m`, line 4, column GPU3 (character 20): unknown link code '0-63' "
        + "(expected X, NV<n>, MX<n>, PIX, PXB, PHB, NODE or SYS); row GPU2 seems to have only 3 link codes for 4 "
        + "GPU columns ('0-63' looks like its CPU/NUMA affinity)", e.getMessage());
  }

  @Test
  void anUnknownCodeIsNamedWithLineAndColumn() {
    SmiOutputException e = failure(Captures.read("malformed-unknown-code-topo.txt"));
    assertEquals(2, e.line());
    assertTrue(e.getMessage().contains("line 2, column GPU2 (character 14): unknown link code 'SOC'"),
        e.getMessage());
    assertTrue(e.getMessage().contains("SOC is what drivers before R384 printed for SYS"), e.getMessage());
  }

  @Test
  void asymmetricMatrixIsRejected() {
    SmiOutputException e = failure("\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tPIX\t X \n");
    assertEquals(3, e.line());
    assertEquals("output of `nvidia-smi topo -m`, line 3, column GPU0: GPU1-GPU0 is PIX but GPU0-GPU1 (line 2) is "
        + "NV4; the matrix must be symmetric", e.getMessage());
  }

  @Test
  void missingRowsAndTruncatedRowsAreRejected() {
    SmiOutputException rows = failure("\tGPU0\tGPU1\tGPU2\nGPU0\t X \tNV4\tSYS\nGPU1\tNV4\t X \tSYS\n\nLegend:\n");
    assertTrue(rows.getMessage().contains("line 1: the header lists 3 GPU columns but 2 GPU rows follow"),
        rows.getMessage());
    SmiOutputException cut = failure("\tGPU0\tGPU1\tGPU2\nGPU0\t X \tNV4\tSYS\nGPU1\tNV4\t X \tSYS\nGPU2\tSYS\n");
    assertEquals("output of `nvidia-smi topo -m`, line 4, column GPU1: row GPU2 ends after 1 link codes; the header "
        + "lists 3 GPU columns", cut.getMessage());
  }

  @Test
  void theDiagonalMustBeXAndOnlyTheDiagonal() {
    SmiOutputException off = failure("\tGPU0\tGPU1\nGPU0\t X \tX\nGPU1\tNV4\t X \n");
    assertTrue(off.getMessage().contains("line 2, column GPU1 (character 10): X (the GPU itself) off the diagonal"),
        off.getMessage());
    SmiOutputException diag = failure("\tGPU0\tGPU1\nGPU0\tNV4\tNV4\nGPU1\tNV4\t X \n");
    assertTrue(diag.getMessage().contains("column GPU0 (character 6): expected X (the GPU itself) on the diagonal, "
        + "found 'NV4'"), diag.getMessage());
  }

  @Test
  void rowsOutOfOrderOrDuplicatedAreRejected() {
    SmiOutputException e = failure("\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU0\tNV4\t X \n");
    assertTrue(e.getMessage().contains("line 3: row GPU0 where GPU1 was expected"), e.getMessage());
  }

  @Test
  void outputThatIsNotATopologyMatrixSaysSo() {
    SmiOutputException none = failure("No devices were found\n");
    assertEquals("output of `nvidia-smi topo -m`: no header row listing GPU0, GPU1, ... (is this the output of "
        + "`nvidia-smi topo -m`?)", none.getMessage());
    SmiOutputException order = failure("\tGPU0\tGPU2\nGPU0\t X \tNV4\n");
    assertTrue(order.getMessage().contains("line 1, column GPU2 (character 7): header column 2 is GPU2, expected "
        + "GPU1"), order.getMessage());
  }
}
