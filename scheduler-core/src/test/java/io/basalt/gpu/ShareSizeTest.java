package io.basalt.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A share's size as HAMi's device plugin counts it, {@code gpumem-percentage} and the 100% / 0% rules included. */
class ShareSizeTest {
  @Test
  void gpumemPercentageIsThatShareOfTheDeviceRoundedDownAndGpumemWinsWhenBothAreGiven() {
    assertEquals(40_960, ShareSize.memoryMiB(ShareSize.asked(0, 50), 81_920));
    assertEquals(8_192, ShareSize.memoryMiB(ShareSize.asked(0, 10), 81_920));
    assertEquals(163, ShareSize.memoryMiB(ShareSize.asked(0, 1), 16_383), "16383 * 1 / 100, rounded down");
    assertEquals(4_096, ShareSize.memoryMiB(ShareSize.asked(4_096, 50), 81_920), "gpumem is read first");
    assertEquals(81_920, ShareSize.memoryMiB(ShareSize.asked(0, 0), 81_920), "neither: the whole device");
    assertEquals(81_920, ShareSize.memoryMiB(ShareSize.asked(0, 100), 81_920));
    assertTrue(ShareSize.memoryMiB(ShareSize.asked(0, 150), 81_920) > 81_920, "above 100 fits no device");
    assertEquals(ShareSize.memoryMiB(ShareSize.asked(0, 101), 81_920),
        ShareSize.memoryMiB(ShareSize.asked(0, Long.MAX_VALUE), 81_920), "capped, never overflowing");
    assertEquals(0, ShareSize.memoryMiB(ShareSize.asked(0, 50), 0), "unknown device memory: limited otherwise");
    assertEquals(Long.MAX_VALUE, ShareSize.memoryMiB(ShareSize.percentOfDevice(101), Long.MAX_VALUE));
    assertTrue(ShareSize.isPercent(ShareSize.asked(0, 50)));
    assertFalse(ShareSize.isPercent(ShareSize.asked(4_096, 50)));
  }

  @Test
  void describedInTheReasonAsAsked() {
    assertEquals("50% of its memory", ShareSize.describeMemory(ShareSize.asked(0, 50)));
    assertEquals("4Gi memory", ShareSize.describeMemory(4_096));
    assertEquals("1000Mi memory", ShareSize.describeMemory(1_000));
    assertEquals("all its memory", ShareSize.describeMemory(0));
  }

  @Test
  void hundredPercentComputeGoesOnlyOntoAnUnsharedDeviceAndZeroNotOntoAFullOne() {
    assertTrue(ShareSize.hamiRulesAllow(100, 0, 0));
    assertFalse(ShareSize.hamiRulesAllow(100, 1, 0));
    assertTrue(ShareSize.hamiRulesAllow(0, 3, 99));
    assertFalse(ShareSize.hamiRulesAllow(0, 2, 100));
    assertTrue(ShareSize.hamiRulesAllow(30, 2, 70));
  }
}
