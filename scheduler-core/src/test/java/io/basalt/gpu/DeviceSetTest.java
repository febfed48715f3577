package io.basalt.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Device sets on both sides of index 63, and against {@link BitSet} on random operations. */
class DeviceSetTest {
  @Test
  void devicesAbove63AreKeptCountedAndListed() {
    DeviceSet s = DeviceSet.of(100, 3, 64, 4095, 63);
    assertEquals(5, s.size());
    assertTrue(s.contains(64) && s.contains(100) && s.contains(4095));
    assertFalse(s.contains(65) || s.contains(-1) || s.contains(5000));
    assertEquals("3,63,64,100,4095", s.format());
    assertEquals(s, DeviceSet.parse(s.format()));
    assertEquals(100, s.next(65));
    assertEquals(-1, s.next(4096));
    assertEquals(64, DeviceSet.of(64).first());
    assertEquals(-1, DeviceSet.EMPTY.first());
  }

  @Test
  void equalSetsAreEqualHoweverTheyWereMade() {
    DeviceSet a = DeviceSet.of(1, 100).without(100);
    assertEquals(DeviceSet.of(1), a);
    assertEquals(DeviceSet.of(1).hashCode(), a.hashCode());
    assertEquals(DeviceSet.EMPTY, DeviceSet.of(200).andNot(DeviceSet.all(256)));
    assertTrue(DeviceSet.of(200).andNot(DeviceSet.of(200)).isEmpty());
    assertEquals(DeviceSet.of(5), DeviceSet.of(5, 70).and(DeviceSet.of(5)));
  }

  @Test
  void allAndLowestCrossWordBounds() {
    for (int n : new int[] {0, 1, 63, 64, 65, 72, 128, 129, 4096}) {
      DeviceSet all = DeviceSet.all(n);
      assertEquals(n, all.size(), "all(" + n + ")");
      assertEquals(n == 0 ? -1 : 0, all.first());
      assertEquals(n - 1, n == 0 ? -1 : all.toArray()[n - 1]);
      assertFalse(all.contains(n));
    }
    assertEquals("62,63,64,100", DeviceSet.of(62, 63, 64, 100, 101).lowest(4).format());
    assertEquals(DeviceSet.all(72), DeviceSet.all(72).lowest(80));
  }

  @Test
  void parseRefusesIndicesBeyondTheNodeBound() {
    assertEquals(DeviceSet.of(4095), DeviceSet.parse("4095"));
    assertThrows(IllegalArgumentException.class, () -> DeviceSet.parse("4096"));
    assertThrows(IllegalArgumentException.class, () -> DeviceSet.parse("-1"));
  }

  @Test
  void smallSetsAreReusedWhenAnOperationChangesNothing() {
    DeviceSet s = DeviceSet.of(1, 2);
    assertSame(s, s.with(1));
    assertSame(s, s.without(9));
    assertSame(s, s.or(DeviceSet.of(2)));
    assertSame(s, s.andNot(DeviceSet.of(5)));
  }

  @Test
  void randomOperationsAgreeWithBitSet() {
    Random r = new Random(7);
    for (int round = 0; round < 2000; round++) {
      int bound = r.nextBoolean() ? 64 : 300;
      BitSet a = random(r, bound);
      BitSet b = random(r, bound);
      DeviceSet x = of(a);
      DeviceSet y = of(b);
      assertEquals(a.cardinality(), x.size());
      assertEquals(of(and(a, b)), x.and(y), a + " and " + b);
      assertEquals(of(or(a, b)), x.or(y), a + " or " + b);
      assertEquals(of(andNot(a, b)), x.andNot(y), a + " andNot " + b);
      int d = r.nextInt(bound);
      BitSet with = (BitSet) a.clone();
      with.set(d);
      assertEquals(of(with), x.with(d));
      with.clear(d);
      assertEquals(of(with), x.without(d));
      assertEquals(a.nextSetBit(d), x.next(d));
      int k = r.nextInt(10);
      BitSet low = new BitSet();
      for (int i = a.nextSetBit(0), n = 0; i >= 0 && n < k; i = a.nextSetBit(i + 1), n++) {
        low.set(i);
      }
      assertEquals(of(low), x.lowest(k));
      assertTrue(Arrays.equals(a.stream().toArray(), x.toArray()));
    }
  }

  private static BitSet random(Random r, int bound) {
    BitSet s = new BitSet();
    for (int n = r.nextInt(12); n > 0; n--) {
      s.set(r.nextInt(bound));
    }
    return s;
  }

  private static DeviceSet of(BitSet s) {
    return DeviceSet.of(s.stream().toArray());
  }

  private static BitSet and(BitSet a, BitSet b) {
    BitSet c = (BitSet) a.clone();
    c.and(b);
    return c;
  }

  private static BitSet or(BitSet a, BitSet b) {
    BitSet c = (BitSet) a.clone();
    c.or(b);
    return c;
  }

  private static BitSet andNot(BitSet a, BitSet b) {
    BitSet c = (BitSet) a.clone();
    c.andNot(b);
    return c;
  }
}
