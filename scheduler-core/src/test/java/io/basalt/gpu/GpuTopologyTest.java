package io.basalt.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Topologies kept as a rule (zones, or one score for every pair) answer as the n x n matrix they stand for. */
class GpuTopologyTest {
  @Test
  void zonedAndUnlinkedTopologiesScoreAsTheirMatrix() {
    Random r = new Random(3);
    for (int round = 0; round < 500; round++) {
      int n = r.nextInt(10);
      List<GpuDevice> devices = new ArrayList<>();
      long[] zones = new long[n];
      for (int i = 0; i < n; i++) {
        devices.add(new GpuDevice(i, "GPU-" + i, "MXC500", 0));
        zones[i] = r.nextInt(3);
      }
      int[][] zoneMatrix = new int[n][n];
      int[][] flatMatrix = new int[n][n];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          zoneMatrix[i][j] = i == j ? 0 : zones[i] != 0 && zones[i] == zones[j] ? 100 : 30;
          flatMatrix[i][j] = i == j ? 0 : 30;
        }
      }
      same(new GpuTopology(devices, zoneMatrix, false), GpuTopology.zoned(devices, zones, 100, 30));
      same(new GpuTopology(devices, flatMatrix, false), GpuTopology.unlinked(devices, 30, DeviceSet.EMPTY));
    }
    assertEquals(10, GpuTopology.uniform(4096).score(0, 4095));
    assertEquals(0, GpuTopology.uniform(1).maxScore());
  }

  private static void same(GpuTopology matrix, GpuTopology rule) {
    assertEquals(matrix.maxScore(), rule.maxScore());
    for (int i = 0; i < matrix.size(); i++) {
      for (int j = 0; j < matrix.size(); j++) {
        assertEquals(matrix.score(i, j), rule.score(i, j), i + "," + j);
      }
    }
  }
}
