package io.basalt.dra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.model.Pod;
import io.basalt.model.PodResourceClaim;
import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Queue caps on DRA devices ({@code deviceclass/<class>} in capability): what claims allocated before the session
 * hold, counted once per claim and queue; a parent's cap over its children; admin access and firstAvailable results;
 * the ledger refusing an allocation over the cap and giving the devices back when a booking is undone.
 */
class DeviceQuotaTest {
  static Queue queue(String name, String parent, Map<String, String> capability) {
    return new Queue(name, 1, capability == null ? null : ResourceVector.parse(capability), null, null, true, 0,
        parent, "Open", Map.of());
  }

  static AllocatedDevice result(String request, String device, boolean admin) {
    return new AllocatedDevice(request, new DeviceId(AllocatorTest.DRIVER, "pool-node-1", device), admin);
  }

  static ResourceClaim allocated(String name, List<String> reservedFor, AllocatedDevice... devices) {
    DeviceRequest sub = DeviceRequest.exactly("big", "class-a", 2);
    DeviceRequest prioritized = new DeviceRequest("pick", null, List.of(), null, 0, false, List.of(sub));
    ClaimSpec spec = new ClaimSpec(List.of(DeviceRequest.exactly("gpu", "class-a", 1), prioritized), List.of());
    return new ResourceClaim("default", name, name + "-uid", spec, new Allocation(List.of(devices), "node-1"),
        reservedFor);
  }

  @Test
  void noQueueCappingAClassMeansNoQuotaAtAll() {
    DraState state = new DraState(List.of(AllocatorTest.CLASS), List.of(), List.of(), List.of());
    assertNull(DeviceQuota.open(List.of(queue("a", null, Map.of("cpu", "8"))), state, uid -> "a"));
  }

  @Test
  void claimsAllocatedBeforeCountOncePerQueueWithoutAdminAccess() {
    ResourceClaim shared = allocated("shared", List.of("p1", "p2"), result("gpu", "d1", false));
    ResourceClaim admin = allocated("admin", List.of("p3"), result("gpu", "d2", true));
    ResourceClaim prioritized = allocated("prio", List.of("p4"), result("pick/big", "d3", false),
        result("pick/big", "d4", false));
    ResourceClaim otherQueue = allocated("other", List.of("p5"), result("gpu", "d5", false));
    DraState state = new DraState(List.of(AllocatorTest.CLASS), List.of(), List.of(shared, admin, prioritized,
        otherQueue), List.of());
    Map<String, String> queueOf = Map.of("p1", "a", "p2", "a", "p3", "a", "p4", "a", "p5", "b");
    DeviceQuota q = DeviceQuota.open(List.of(queue("a", null, Map.of("deviceclass/class-a", "4")),
        queue("b", null, null)), state, queueOf::get);
    assertNotNull(q);
    assertEquals(3, q.held("a", "class-a"), "shared once, admin access none, two from the firstAvailable choice");
    assertEquals(1, q.held("b", "class-a"));
    assertNull(q.exceeds("a", Map.of("class-a", 1L)));
    assertEquals("queue a deviceclass/class-a would exceed its capability: holds 3, needs 2 more, capability 4",
        q.exceeds("a", Map.of("class-a", 2L)));
    assertNull(q.exceeds("b", Map.of("class-a", 100L)), "b caps nothing");
    assertNull(q.exceeds("a", Map.of("class-b", 100L)), "a caps only class-a");
  }

  @Test
  void aParentsCapHoldsForItsChildrenTogether() {
    DraState state = new DraState(List.of(AllocatorTest.CLASS), List.of(), List.of(), List.of());
    DeviceQuota q = DeviceQuota.open(List.of(queue("root", null, Map.of("deviceclass/class-a", "3")),
        queue("x", "root", null), queue("y", "root", Map.of("deviceclass/class-a", "8"))), state, uid -> null);
    q.add("x", Map.of("class-a", 2L), 1);
    assertEquals(2, q.held("root", "class-a"));
    assertTrue(q.exceeds("y", Map.of("class-a", 2L)).startsWith("queue root "), "y's own cap allows it, root's not");
    q.add("x", Map.of("class-a", 2L), -1);
    assertNull(q.exceeds("y", Map.of("class-a", 2L)));
  }

  @Test
  void theLedgerRefusesAnAllocationOverTheCapAndUndoGivesTheDevicesBack() {
    List<ResourceSlice> slices = List.of(AllocatorTest.slice("node-1", AllocatorTest.device("d1", Map.of()),
        AllocatorTest.device("d2", Map.of()), AllocatorTest.device("d3", Map.of())));
    ResourceClaim c1 = AllocatorTest.claim("c1", List.of(), DeviceRequest.exactly("gpu", "class-a", 2));
    ResourceClaim c2 = AllocatorTest.claim("c2", List.of(), DeviceRequest.exactly("gpu", "class-a", 1));
    DraState state = new DraState(List.of(AllocatorTest.CLASS), slices, List.of(c1, c2), List.of());
    ClaimLedger ledger = new ClaimLedger(state);
    ledger.useQuota(DeviceQuota.open(List.of(queue("a", null, Map.of("deviceclass/class-a", "2"))), state,
        uid -> null));
    Pod p1 = pod("p1", "c1");
    Pod p2 = pod("p2", "c2");
    ClaimLedger.Booking b1 = ledger.allocate(p1, "a", AllocatorTest.NODE, null);
    assertEquals(1, b1.claims().size());
    assertEquals("queue a deviceclass/class-a would exceed its capability: holds 2, needs 1 more, capability 2",
        ledger.check(p2, "a", AllocatorTest.NODE, null));
    assertSame(ClaimLedger.Booking.NONE, ledger.allocate(p2, "a", AllocatorTest.NODE, null));
    assertNull(ledger.check(p2, "b", AllocatorTest.NODE, null), "another queue is not capped");
    ledger.undo(b1);
    assertNull(ledger.check(p2, "a", AllocatorTest.NODE, null));
  }

  static Pod pod(String name, String claim) {
    Pod p = io.basalt.testing.TestPods.pod("default/" + name).build();
    return p.withConstraints(p.constraints().withResourceClaims(List.of(new PodResourceClaim("gpu", claim, null))));
  }
}
