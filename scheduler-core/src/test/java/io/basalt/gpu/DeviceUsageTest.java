package io.basalt.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DeviceUsageTest {
  @Test
  void aNodeWithoutSharesReadsZeroPerDeviceAndEveryUnheldDeviceIsUntouched() {
    DeviceUsage u = new DeviceUsage(8);
    u.add(DeviceClaim.whole(DeviceSet.of(0, 1)), 1);
    assertEquals("2,3,4,5,6,7", u.untouched().format());
    assertEquals(0, u.shares(5));
    assertEquals(0, u.coresUsed(5));
    assertEquals(0, u.memoryUsedMiB(5));
    assertTrue(u.canShare(5, 100, 1024, 16_384, 1));
    assertFalse(u.canShare(0, 10, 0, 0, 4), "held whole");
  }

  @Test
  void usagesAreTheSameWhenTheyRecordTheSameHolders() {
    DeviceUsage a = new DeviceUsage(4);
    DeviceUsage b = new DeviceUsage(4);
    assertTrue(a.sameAs(b));
    a.add(DeviceClaim.whole(DeviceSet.of(0)), 1);
    assertFalse(a.sameAs(b));
    b.add(DeviceClaim.whole(DeviceSet.of(0)), 1);
    assertTrue(a.sameAs(b));
    a.add(DeviceClaim.share(3, 30, 1024), 1);
    b.add(DeviceClaim.share(3, 30, 2048), 1);
    assertFalse(a.sameAs(b), "memory differs");
    b.add(DeviceClaim.share(3, 30, 2048), -1);
    b.add(DeviceClaim.share(3, 30, 1024), 1);
    assertTrue(a.sameAs(b));
    a.add(DeviceClaim.share(3, 30, 1024), -1);
    DeviceUsage c = new DeviceUsage(4);
    c.add(DeviceClaim.whole(DeviceSet.of(0)), 1);
    assertTrue(a.sameAs(c), "a share taken back leaves what never had one");
    assertFalse(a.sameAs(new DeviceUsage(8)));
    assertFalse(a.sameAs(null));
  }

  @Test
  void aSharedDeviceIsTouchedUntilItsLastShareIsRemoved() {
    DeviceUsage u = new DeviceUsage(4);
    u.add(DeviceClaim.share(2, 30, 4096), 1);
    u.add(DeviceClaim.share(2, 50, 2048), 1);
    assertEquals("0,1,3", u.untouched().format());
    assertEquals(2, u.shares(2));
    assertEquals(80, u.coresUsed(2));
    assertEquals(6144, u.memoryUsedMiB(2));
    assertFalse(u.canShare(2, 30, 0, 0, 8), "80% + 30% is over 100");
    assertFalse(u.canShare(2, 10, 0, 0, 2), "two sharers already");
    u.add(DeviceClaim.share(2, 30, 4096), -1);
    assertEquals("0,1,3", u.untouched().format(), "one share left");
    u.add(DeviceClaim.share(2, 50, 2048), -1);
    assertEquals("0,1,2,3", u.untouched().format());
    assertEquals(0, u.coresUsed(2));
  }

  @Test
  void hamisRulesFor100And0PercentComputeHoldAsHamisFitDoes() {
    DeviceUsage u = new DeviceUsage(2);
    u.add(DeviceClaim.share(0, 0, 1024), 1);
    assertFalse(u.canShare(0, 100, 1024, 16_384, 10), "100% compute wants the device to itself; a 0% share is on it");
    assertTrue(u.canShare(1, 100, 1024, 16_384, 10), "alone on an empty device");
    u.add(DeviceClaim.share(1, 100, 1024), 1);
    assertFalse(u.canShare(1, 0, 1024, 16_384, 10), "no compute left: a 0% share does not go on a full device");
    assertFalse(u.canShare(1, 1, 1024, 16_384, 10));
    u.add(DeviceClaim.share(1, 100, 1024), -1);
    u.add(DeviceClaim.share(1, 60, 1024), 1);
    u.add(DeviceClaim.share(1, 40, 1024), 1);
    assertFalse(u.canShare(1, 0, 1024, 16_384, 10), "60% + 40%: compute all taken");
    u.add(DeviceClaim.share(1, 40, 1024), -1);
    assertTrue(u.canShare(1, 0, 1024, 16_384, 10), "40% left: a 0% share fits, as in HAMi");
  }
}
