package io.basalt.dra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ledger's kept verdicts: pods of one claim shape share a node's verdict, each reading its own claim's name, and
 * a verdict goes stale as soon as the session takes or gives back devices on that node.
 */
class ClaimLedgerTest {
  @Test
  void keptVerdictsNameEachPodsClaimAndFollowAllocationsAndUndo() {
    List<ResourceSlice> slices = List.of(AllocatorTest.slice("node-1", AllocatorTest.device("d1", Map.of()),
        AllocatorTest.device("d2", Map.of())));
    ResourceClaim[] claims = new ResourceClaim[4];
    for (int i = 0; i < 4; i++) {
      claims[i] = AllocatorTest.claim("c" + i, List.of(), DeviceRequest.exactly("gpu", "class-a", 1));
    }
    DraState state = new DraState(List.of(AllocatorTest.CLASS), slices, List.of(claims), List.of());
    ClaimLedger ledger = new ClaimLedger(state);
    assertNull(ledger.check(DeviceQuotaTest.pod("p0", "c0"), "q", AllocatorTest.NODE, null));
    ledger.allocate(DeviceQuotaTest.pod("p0", "c0"), "q", AllocatorTest.NODE, null);
    assertNull(ledger.check(DeviceQuotaTest.pod("p1", "c1"), "q", AllocatorTest.NODE, null), "one device left");
    ClaimLedger.Booking b1 = ledger.allocate(DeviceQuotaTest.pod("p1", "c1"), "q", AllocatorTest.NODE, null);
    assertEquals("claim default/c2: request gpu: needs 1 devices, 0 of 2 matching are free",
        ledger.check(DeviceQuotaTest.pod("p2", "c2"), "q", AllocatorTest.NODE, null));
    assertEquals("claim default/c3: request gpu: needs 1 devices, 0 of 2 matching are free",
        ledger.check(DeviceQuotaTest.pod("p3", "c3"), "q", AllocatorTest.NODE, null), "the kept verdict, c3's name");
    ledger.undo(b1);
    assertNull(ledger.check(DeviceQuotaTest.pod("p3", "c3"), "q", AllocatorTest.NODE, null), "d2 given back");
  }
}
