package io.basalt.plugins.volumes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class VolumeCapacityScoreTest {
  private static VolumeCapacityScore scorer(String shape) {
    return new VolumeCapacityScore(null, VolumeCapacityScore.parseShape(shape));
  }

  @Test
  void theDefaultShapeIsUtilizationItself() {
    VolumeCapacityScore s = scorer(VolumeFilters.DEFAULT_SHAPE);
    assertEquals(0, s.shapeAt(0));
    assertEquals(25, s.shapeAt(25));
    assertEquals(100, s.shapeAt(100));
  }

  @Test
  void aBrokenLineInterpolatesBetweenItsPointsAndHoldsItsEnds() {
    VolumeCapacityScore s = scorer("20:2, 50:3, 90:9");
    assertEquals(20, s.shapeAt(0)); // before the first point: its score
    assertEquals(23, s.shapeAt(30)); // 20 + 10 * 10 / 30, integer steps as kube-scheduler's
    assertEquals(30, s.shapeAt(50));
    assertEquals(75, s.shapeAt(80));
    assertEquals(90, s.shapeAt(100)); // past the last point: its score
  }

  @Test
  void shapesKubeSchedulerWouldRejectAreRefused() {
    for (String bad : List.of("", "0:0,0:5", "50:1,40:2", "0:11", "101:1", "0-0", "a:b")) {
      assertThrows(IllegalArgumentException.class, () -> VolumeCapacityScore.parseShape(bad), bad);
    }
  }
}
