package io.basalt.dra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.model.Node;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Cases after kube-scheduler's structured allocator tests (their inputs, expected allocations and errors): one
 * device, too many, all devices, devices allocated already, matchAttribute, admin access, firstAvailable, a missing
 * class, and selectors that fail to compile or to evaluate.
 */
class AllocatorTest {
  static final String DRIVER = "driver-a";
  static final DeviceClass CLASS = new DeviceClass("class-a", List.of("device.driver == 'driver-a'"));
  static final Node NODE = node("node-1");

  static Node node(String name) {
    return Node.of(name, ResourceVector.ZERO).withLabels(Map.of("kubernetes.io/hostname", name));
  }

  static Device device(String name, Map<String, Object> attributes) {
    return new Device(name, attributes, Map.of(DRIVER + "/memory", 8L << 30));
  }

  static ResourceSlice slice(String node, Device... devices) {
    return new ResourceSlice("slice-" + node, DRIVER, "pool-" + node, 1, 1, node, List.of(), false, List.of(devices));
  }

  static ResourceClaim claim(String name, List<MatchConstraint> constraints, DeviceRequest... requests) {
    return new ResourceClaim("default", name, name + "-uid", new ClaimSpec(List.of(requests), constraints), null,
        List.of());
  }

  static Allocator.Outcome allocate(List<ResourceSlice> slices, Set<DeviceId> inUse, ResourceClaim... claims) {
    DraState state = new DraState(List.of(CLASS), slices, List.of(claims), List.of());
    return new Allocator(state, inUse::contains).allocate(List.of(claims), NODE);
  }

  static List<String> devices(Allocator.Outcome o, int claim) {
    List<String> out = new ArrayList<>();
    o.allocations().get(claim).devices().forEach(d -> out.add(d.request() + "=" + d.device().device()));
    return out;
  }

  final List<ResourceSlice> twoDevices =
      List.of(slice("node-1", device("device-1", Map.of()), device("device-2", Map.of())));

  @Test
  void simpleClaimGetsTheFirstDeviceAndPinsTheNode() {
    Allocator.Outcome o = allocate(twoDevices, Set.of(), claim("claim-0", List.of(), DeviceRequest.exactly("req-0",
        "class-a", 1)));
    assertTrue(o.ok(), o.failure());
    assertEquals(List.of("req-0=device-1"), devices(o, 0));
    assertEquals("node-1", o.allocations().get(0).nodeName());
  }

  @Test
  void tooManyDevicesFails() {
    Allocator.Outcome o = allocate(twoDevices, Set.of(), claim("claim-0", List.of(), DeviceRequest.exactly("req-0",
        "class-a", 3)));
    assertEquals("claim default/claim-0: request req-0: needs 3 devices, 2 of 2 matching are free", o.failure());
  }

  @Test
  void allDevicesTakesEveryMatchingOneAndFailsWhenOneIsAllocated() {
    DeviceRequest all = new DeviceRequest("req-0", "class-a", List.of(), DeviceRequest.ALL, 0, false, List.of());
    Allocator.Outcome o = allocate(twoDevices, Set.of(), claim("claim-0", List.of(), all));
    assertEquals(List.of("req-0=device-1", "req-0=device-2"), devices(o, 0));
    Allocator.Outcome taken = allocate(twoDevices, Set.of(new DeviceId(DRIVER, "pool-node-1", "device-1")),
        claim("claim-0", List.of(), all));
    assertEquals("claim default/claim-0: request req-0: asks for all 2 matching devices, 1 allocated",
        taken.failure());
  }

  @Test
  void devicesAllocatedAlreadyAreSkipped() {
    Allocator.Outcome o = allocate(twoDevices, Set.of(new DeviceId(DRIVER, "pool-node-1", "device-1")),
        claim("claim-0", List.of(), DeviceRequest.exactly("req-0", "class-a", 1)));
    assertEquals(List.of("req-0=device-2"), devices(o, 0));
  }

  @Test
  void twoClaimsDoNotShareADevice() {
    Allocator.Outcome o = allocate(twoDevices, Set.of(),
        claim("claim-0", List.of(), DeviceRequest.exactly("req-0", "class-a", 1)),
        claim("claim-1", List.of(), DeviceRequest.exactly("req-0", "class-a", 1)));
    assertEquals(List.of("req-0=device-1"), devices(o, 0));
    assertEquals(List.of("req-0=device-2"), devices(o, 1));
  }

  @Test
  void matchAttributeBacktracksToAgreeingDevices() {
    List<ResourceSlice> slices = List.of(slice("node-1",
        device("device-1", Map.of(DRIVER + "/numa", 0L)),
        device("device-2", Map.of(DRIVER + "/numa", 1L)),
        device("device-3", Map.of(DRIVER + "/numa", 1L))));
    ResourceClaim c = claim("claim-0", List.of(new MatchConstraint(List.of(), DRIVER + "/numa")),
        DeviceRequest.exactly("req-0", "class-a", 1), DeviceRequest.exactly("req-1", "class-a", 1));
    // device-1 (numa 0) is tried first for req-0; no numa-0 device is left for req-1, so req-0 moves on to device-2.
    Allocator.Outcome free = allocate(slices, Set.of(), c);
    assertEquals(List.of("req-0=device-2", "req-1=device-3"), devices(free, 0));
    // With device-2 taken, the free devices disagree.
    assertEquals("claim default/claim-0: no devices satisfy matchAttribute driver-a/numa",
        allocate(slices, Set.of(new DeviceId(DRIVER, "pool-node-1", "device-2")), c).failure());
  }

  @Test
  void matchAttributeThatNoCombinationMeetsFails() {
    List<ResourceSlice> slices = List.of(slice("node-1",
        device("device-1", Map.of(DRIVER + "/numa", 0L)), device("device-2", Map.of(DRIVER + "/numa", 1L))));
    ResourceClaim c = claim("claim-0", List.of(new MatchConstraint(List.of(), DRIVER + "/numa")),
        DeviceRequest.exactly("req-0", "class-a", 2));
    assertEquals("claim default/claim-0: no devices satisfy matchAttribute driver-a/numa",
        allocate(slices, Set.of(), c).failure());
  }

  @Test
  void adminAccessMayUseAllocatedDevices() {
    Set<DeviceId> taken = new HashSet<>(List.of(new DeviceId(DRIVER, "pool-node-1", "device-1"),
        new DeviceId(DRIVER, "pool-node-1", "device-2")));
    DeviceRequest admin = new DeviceRequest("req-0", "class-a", List.of(), DeviceRequest.EXACT_COUNT, 1, true,
        List.of());
    Allocator.Outcome o = allocate(twoDevices, taken, claim("claim-0", List.of(), admin));
    assertTrue(o.ok(), o.failure());
    assertTrue(o.allocations().get(0).devices().get(0).adminAccess());
  }

  @Test
  void firstAvailableFallsBackToTheNextSubrequest() {
    DeviceRequest big = DeviceRequest.exactly("large", "class-a", 3);
    DeviceRequest small = DeviceRequest.exactly("small", "class-a", 2);
    DeviceRequest r = new DeviceRequest("req-0", null, List.of(), null, 0, false, List.of(big, small));
    Allocator.Outcome o = allocate(twoDevices, Set.of(), claim("claim-0", List.of(), r));
    assertEquals(List.of("req-0/small=device-1", "req-0/small=device-2"), devices(o, 0));
  }

  @Test
  void missingClassAndSelectorsSayWhy() {
    assertEquals("claim default/claim-0: request req-0: device class no-such-class does not exist",
        allocate(twoDevices, Set.of(), claim("claim-0", List.of(), DeviceRequest.exactly("req-0", "no-such-class",
            1))).failure());
    assertEquals("claim default/claim-0: request req-0: no device of class class-a matches the request's selectors",
        allocate(twoDevices, Set.of(), claim("claim-0", List.of(), DeviceRequest.exactly("req-0", "class-a", 1,
            "device.capacity['driver-a'].memory.compareTo(quantity('16Gi')) >= 0"))).failure());
    assertTrue(allocate(twoDevices, Set.of(), claim("claim-0", List.of(), DeviceRequest.exactly("req-0", "class-a", 1,
        "device.capacity['driver-a'].memory >= quantity('8Gi')"))).ok());
  }

  @Test
  void badCelMakesNoDeviceMatchWithTheError() {
    String runtime = allocate(twoDevices, Set.of(), claim("claim-0", List.of(), DeviceRequest.exactly("req-0",
        "class-a", 1, "device.attributes['other.example.com'].model == 'x'"))).failure();
    assertTrue(runtime.contains("matches the request's selectors (CEL runtime error"), runtime);
    String compile = allocate(twoDevices, Set.of(), claim("claim-0", List.of(), DeviceRequest.exactly("req-0",
        "class-a", 1, "device.driver =="))).failure();
    assertTrue(compile.contains("CEL compile error"), compile);
    assertNull(Selectors.compileError("device.attributes.exists(d, d == 'driver-a')"));
  }

  @Test
  void devicesOfAnIncompletePoolOrAnOldGenerationAreNotOffered() {
    ResourceSlice old = new ResourceSlice("s0", DRIVER, "pool-node-1", 1, 1, "node-1", List.of(), false,
        List.of(device("old", Map.of())));
    ResourceSlice current = new ResourceSlice("s1", DRIVER, "pool-node-1", 2, 2, "node-1", List.of(), false,
        List.of(device("new", Map.of())));
    assertTrue(allocate(List.of(old, current), Set.of(), claim("claim-0", List.of(),
        DeviceRequest.exactly("req-0", "class-a", 1))).failure().contains("no device matches"));
  }
}
