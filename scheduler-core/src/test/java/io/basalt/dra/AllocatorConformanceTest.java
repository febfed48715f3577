package io.basalt.dra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.model.Node;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Cases of kube-scheduler's structured allocator tests ({@code allocator_test.go} in
 * {@code k8s.io/dynamic-resource-allocation/structured}), each named after the upstream case it carries: the same
 * classes, slices, allocated devices, node and claims, and the same expected results (request, driver, pool, device,
 * admin access; whether the allocation pins the node) or the same verdict that no allocation exists. Where Basalt's
 * error text differs from upstream's, the verdict is what is compared. Not carried: device taints, partitionable
 * devices, consumable capacity, per-device node selection and the opaque configuration cases (Basalt reads none).
 */
class AllocatorConformanceTest {
  static final String DRIVER_A = "driver-a";
  static final String DRIVER_B = "driver-b";
  static final DeviceClass CLASS_A = cls("class-a", DRIVER_A);
  static final DeviceClass CLASS_B = cls("class-b", DRIVER_B);
  static final Node NODE_1 = node("node-1", "region-1");
  static final Node NODE_2 = node("node-2", "region-2");

  static DeviceClass cls(String name, String driver) {
    return new DeviceClass(name, List.of("device.driver == \"" + driver + "\""));
  }

  static Node node(String name, String region) {
    return Node.of(name, ResourceVector.ZERO).withLabels(Map.of("region", region, "planet", "earth"));
  }

  static Device dev(String name, Map<String, Object> attributes, Map<String, Long> capacity) {
    return new Device(name, attributes, capacity);
  }

  static Device dev(String name) {
    return dev(name, Map.of(), Map.of());
  }

  /** A slice of generation 1, alone in its pool, local to node-1. */
  static ResourceSlice local(String pool, String driver, Device... devices) {
    return new ResourceSlice("slice-" + pool, driver, pool, 1, 1, "node-1", List.of(), false, List.of(devices));
  }

  static ResourceSlice selected(String pool, NodeSelectorTerm term, Device... devices) {
    return new ResourceSlice("slice-" + pool, DRIVER_A, pool, 1, 1, null, List.of(term), false, List.of(devices));
  }

  static NodeSelectorTerm label(String key, String value) {
    return new NodeSelectorTerm(List.of(new NodeSelectorRequirement(key, "In", List.of(value), false)));
  }

  static NodeSelectorTerm field(String node) {
    return new NodeSelectorTerm(List.of(new NodeSelectorRequirement("metadata.name", "In", List.of(node), true)));
  }

  static DeviceRequest request(String name, String cls, long count, String... selectors) {
    return DeviceRequest.exactly(name, cls, count, selectors);
  }

  static DeviceRequest all(String name, String cls) {
    return new DeviceRequest(name, cls, List.of(), DeviceRequest.ALL, 0, false, List.of());
  }

  static DeviceRequest admin(DeviceRequest r) {
    return new DeviceRequest(r.name(), r.deviceClassName(), r.selectors(), r.allocationMode(), r.count(), true,
        r.firstAvailable());
  }

  static DeviceRequest firstAvailable(String name, DeviceRequest... subs) {
    return new DeviceRequest(name, null, List.of(), null, 0, false, List.of(subs));
  }

  static ResourceClaim claim(String name, List<MatchConstraint> constraints, DeviceRequest... requests) {
    return new ResourceClaim("default", name, name + "-uid", new ClaimSpec(List.of(requests), constraints), null,
        List.of());
  }

  static ResourceClaim claim(String name, DeviceRequest... requests) {
    return claim(name, List.of(), requests);
  }

  static DeviceId id(String driver, String pool, String device) {
    return new DeviceId(driver, pool, device);
  }

  /** One allocator run: the classes, slices and devices allocated before, on {@code node}. */
  record Case(List<DeviceClass> classes, List<ResourceSlice> slices, Set<DeviceId> allocated, Node node) {
    Allocator.Outcome allocate(ResourceClaim... claims) {
      DraState state = new DraState(classes, slices, List.of(claims), List.of());
      return new Allocator(state, allocated::contains).allocate(List.of(claims), node);
    }
  }

  static Case on(List<ResourceSlice> slices, DeviceClass... classes) {
    return new Case(List.of(classes), slices, Set.of(), NODE_1);
  }

  /** Each claim's results as "request=driver/pool/device" ("!" after an admin access result), then "@node" if pinned. */
  static List<List<String>> results(Allocator.Outcome o) {
    assertTrue(o.ok(), o.failure());
    List<List<String>> out = new ArrayList<>();
    for (Allocation a : o.allocations()) {
      List<String> r = new ArrayList<>();
      for (AllocatedDevice d : a.devices()) {
        r.add(d.request() + "=" + d.device() + (d.adminAccess() ? "!" : ""));
      }
      r.add(a.nodeName() == null ? "@any" : "@" + a.nodeName());
      out.add(r);
    }
    return out;
  }

  static List<List<String>> expect(String... claimResults) {
    List<List<String>> out = new ArrayList<>();
    for (String c : claimResults) {
      out.add(Arrays.asList(c.split(" ")));
    }
    return out;
  }

  // ---- capacity selectors and backtracking ----

  private static final String AT_LEAST_1GI = "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"1Gi\")) >= 0";
  private static final String AT_LEAST_2GI = "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"2Gi\")) >= 0";
  /** The "large" device listed first, so a first choice for the small request must be undone. */
  private static final List<ResourceSlice> LARGE_FIRST = List.of(local("pool-1", DRIVER_A,
      dev("device-2", Map.of(), Map.of(DRIVER_A + "/memory", 2L << 30)),
      dev("device-1", Map.of(), Map.of(DRIVER_A + "/memory", 1L << 30))));

  @Test
  void smallAndLarge() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 req-1=driver-a/pool-1/device-2 @node-1"),
        results(on(LARGE_FIRST, CLASS_A).allocate(claim("claim-0", request("req-0", "class-a", 1, AT_LEAST_1GI),
            request("req-1", "class-a", 1, AT_LEAST_2GI)))));
  }

  @Test
  void smallAndLargeBacktrackClaims() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 @node-1", "req-1=driver-a/pool-1/device-2 @node-1"),
        results(on(LARGE_FIRST, CLASS_A).allocate(claim("claim-0", request("req-0", "class-a", 1, AT_LEAST_1GI)),
            claim("claim-1", request("req-1", "class-a", 1, AT_LEAST_2GI)))));
  }

  // ---- pools and slices ----

  @Test
  void devicesSplitAcrossDifferentSlices() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-2/device-1 @node-1"),
        results(on(List.of(local("pool-1", DRIVER_A, dev("device-1")), local("pool-2", DRIVER_A, dev("device-1"))),
            CLASS_A).allocate(claim("claim-0", request("req-0", "class-a", 2)))));
  }

  @Test
  void obsoleteSlice() {
    ResourceSlice obsolete = new ResourceSlice("slice-1-obsolete", DRIVER_A, "pool-1", 1, 1, "node-1", List.of(),
        false, List.of(dev("device-1", Map.of(DRIVER_A + "/generation", 1L), Map.of())));
    ResourceSlice current = new ResourceSlice("slice-1", DRIVER_A, "pool-1", 2, 1, "node-1", List.of(), false,
        List.of(dev("device-1", Map.of(DRIVER_A + "/generation", 2L), Map.of())));
    DraState state = new DraState(List.of(CLASS_A), List.of(obsolete, current), List.of(), List.of());
    assertEquals(List.of(current), state.slices(), "only the pool's highest generation is read");
    assertEquals(expect("req-0=driver-a/pool-1/device-1 @node-1"),
        results(on(List.of(obsolete, current), CLASS_A).allocate(claim("claim-0", request("req-0", "class-a", 1)))));
  }

  @Test
  void noSlices() {
    assertFalse(on(List.of(), CLASS_A).allocate(claim("claim-0", request("req-0", "class-a", 1))).ok());
  }

  @Test
  void notEnoughSuitableDevices() {
    assertFalse(on(List.of(local("pool-1", DRIVER_A, dev("device-1"))), CLASS_A).allocate(
        claim("claim-0", request("req-0", "class-a", 1)), claim("claim-1", request("req-1", "class-a", 1))).ok());
  }

  @Test
  void noClassesAndUnknownClass() {
    List<ResourceSlice> one = List.of(local("pool-1", DRIVER_A, dev("device-1")));
    assertEquals("claim default/claim-0: request req-0: device class class-a does not exist",
        on(one).allocate(claim("claim-0", request("req-0", "class-a", 1))).failure());
    assertEquals("claim default/claim-0: request req-0: device class unknown-class does not exist",
        on(one, CLASS_A).allocate(claim("claim-0", request("req-0", "unknown-class", 1))).failure());
  }

  @Test
  void noClaimsToAllocate() {
    Allocator.Outcome o = on(List.of(local("pool-1", DRIVER_A, dev("device-1"))), CLASS_A).allocate();
    assertTrue(o.ok());
    assertTrue(o.allocations().isEmpty());
  }

  // ---- allocationMode: All ----

  @Test
  void allDevicesSingle() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 @node-1"), results(on(List.of(local("pool-1", DRIVER_A,
        dev("device-1"))), CLASS_A).allocate(claim("claim-0", all("req-0", "class-a")))));
  }

  @Test
  void allDevicesMany() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-2/device-1 @node-1"),
        results(on(List.of(local("pool-1", DRIVER_A, dev("device-1")), local("pool-2", DRIVER_A, dev("device-1"))),
            CLASS_A).allocate(claim("claim-0", all("req-0", "class-a")))));
  }

  @Test
  void allDevicesOfTheIncompletePool() {
    ResourceSlice incomplete = new ResourceSlice("slice-1", DRIVER_A, "pool-1", 1, 2, "node-1", List.of(), false,
        List.of(dev("device-1")));
    assertFalse(on(List.of(incomplete), CLASS_A).allocate(claim("claim-0", all("req-0", "class-a"))).ok());
  }

  private static final List<ResourceSlice> A_AND_B = List.of(local("pool-1", DRIVER_A, dev("device-1")),
      local("pool-1", DRIVER_B, dev("device-1")));
  private static final List<ResourceSlice> TWO_A_AND_B = List.of(local("pool-1", DRIVER_A, dev("device-1"),
      dev("device-2")), local("pool-1", DRIVER_B, dev("device-1")));

  @Test
  void allDevicesPlusAnother() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 @node-1", "req-0=driver-b/pool-1/device-1 @node-1"),
        results(on(A_AND_B, CLASS_A, CLASS_B).allocate(claim("claim-0", all("req-0", "class-a")),
            claim("claim-1", request("req-0", "class-b", 1)))));
  }

  @Test
  void allDevicesPlusAnotherReversed() {
    assertEquals(expect("req-0=driver-b/pool-1/device-1 @node-1", "req-0=driver-a/pool-1/device-1 @node-1"),
        results(on(A_AND_B, CLASS_A, CLASS_B).allocate(claim("claim-1", request("req-0", "class-b", 1)),
            claim("claim-0", all("req-0", "class-a")))));
  }

  @Test
  void allDevicesManyPlusAnother() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-1/device-2 @node-1",
        "req-0=driver-b/pool-1/device-1 @node-1"), results(on(TWO_A_AND_B, CLASS_A, CLASS_B).allocate(
            claim("claim-0", all("req-0", "class-a")), claim("claim-1", request("req-0", "class-b", 1)))));
  }

  @Test
  void allDevicesManyPlusAnotherReversed() {
    assertEquals(expect("req-0=driver-b/pool-1/device-1 @node-1",
        "req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-1/device-2 @node-1"),
        results(on(TWO_A_AND_B, CLASS_A, CLASS_B).allocate(claim("claim-1", request("req-0", "class-b", 1)),
            claim("claim-0", all("req-0", "class-a")))));
  }

  @Test
  void allDevicesNoSolutionAndReversed() {
    Case one = on(List.of(local("pool-1", DRIVER_A, dev("device-1"))), CLASS_A);
    assertFalse(one.allocate(claim("claim-1", request("req-0", "class-a", 1)), claim("claim-0",
        all("req-0", "class-a"))).ok());
    assertFalse(one.allocate(claim("claim-0", all("req-0", "class-a")), claim("claim-1",
        request("req-0", "class-a", 1))).ok());
  }

  @Test
  void allDevicesSliceWithoutDevicesAndNoSlices() {
    assertFalse(on(List.of(local("pool-1", DRIVER_A)), CLASS_A).allocate(claim("claim-0", all("req-0", "class-a")))
        .ok());
    assertFalse(on(List.of(), CLASS_A).allocate(claim("claim-0", all("req-0", "class-a"))).ok());
  }

  @Test
  void allDevicesSomeAllocated() {
    Case c = new Case(List.of(CLASS_A), List.of(local("pool-1", DRIVER_A, dev("device-1"), dev("device-2"))),
        Set.of(id(DRIVER_A, "pool-1", "device-1")), NODE_1);
    assertFalse(c.allocate(claim("claim-0", all("req-0", "class-a"))).ok());
  }

  @Test
  void allDevicesSomeAllocatedAdminAccess() {
    Case c = new Case(List.of(CLASS_A), List.of(local("pool-1", DRIVER_A, dev("device-1"), dev("device-2"))),
        Set.of(id(DRIVER_A, "pool-1", "device-1")), NODE_1);
    assertEquals(expect("req-0=driver-a/pool-1/device-1! req-0=driver-a/pool-1/device-2! @node-1"),
        results(c.allocate(claim("claim-0", admin(all("req-0", "class-a"))))));
  }

  /** firstAvailable: [subReq-0 all of class-a, subReq-1 one of class-b]. */
  private static ResourceClaim allOrOneB() {
    return claim("claim-0", firstAvailable("req-0", all("subReq-0", "class-a"), request("subReq-1", "class-b", 1)));
  }

  @Test
  void allDevicesSliceWithoutDevicesPrioritizedList() {
    assertEquals(expect("req-0/subReq-1=driver-b/pool-2/device-1 @node-1"), results(on(List.of(
        local("pool-1", DRIVER_A), local("pool-2", DRIVER_B, dev("device-1"))), CLASS_A, CLASS_B)
        .allocate(allOrOneB())));
  }

  @Test
  void allDevicesNoSlicesPrioritizedList() {
    assertEquals(expect("req-0/subReq-1=driver-b/pool-2/device-1 @node-1"), results(on(List.of(
        local("pool-2", DRIVER_B, dev("device-1"))), CLASS_A, CLASS_B).allocate(allOrOneB())));
  }

  @Test
  void allDevicesSomeAllocatedPrioritizedList() {
    Case c = new Case(List.of(CLASS_A, CLASS_B), List.of(local("pool-1", DRIVER_A, dev("device-1"), dev("device-2")),
        local("pool-2", DRIVER_B, dev("device-1"))), Set.of(id(DRIVER_A, "pool-1", "device-1")), NODE_1);
    assertEquals(expect("req-0/subReq-1=driver-b/pool-2/device-1 @node-1"), results(c.allocate(allOrOneB())));
  }

  // ---- network-attached devices ----

  @Test
  void networkAttachedDevice() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 @any"), results(on(List.of(selected("pool-1",
        label("region", "region-1"), dev("device-1"))), CLASS_A).allocate(claim("claim-0",
            request("req-0", "class-a", 1)))));
  }

  @Test
  void unsuccessfulAllocationNetworkAttachedDevice() {
    Case wrongRegion = new Case(List.of(CLASS_A), List.of(selected("pool-1", label("region", "region-1"),
        dev("device-1"))), Set.of(), NODE_2);
    assertFalse(wrongRegion.allocate(claim("claim-0", request("req-0", "class-a", 1))).ok());
  }

  @Test
  void manyNetworkAttachedDevices() {
    ResourceSlice all = new ResourceSlice("slice-pool-2", DRIVER_A, "pool-2", 1, 1, null, List.of(), true,
        List.of(dev("device-1")));
    List<ResourceSlice> slices = List.of(selected("pool-1", label("region", "region-1"), dev("device-1")), all,
        selected("pool-3", label("planet", "earth"), dev("device-1")), selected("pool-4", field("node-1"),
            dev("device-1")));
    // Upstream writes the union of the four selectors; Basalt pins nothing for devices that are not node-local.
    assertEquals(expect("req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-2/device-1 "
        + "req-0=driver-a/pool-3/device-1 req-0=driver-a/pool-4/device-1 @any"),
        results(on(slices, CLASS_A).allocate(claim("claim-0", request("req-0", "class-a", 4)))));
  }

  @Test
  void localAndNetworkAttachedDevices() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-2/device-1 @node-1"),
        results(on(List.of(selected("pool-1", label("region", "region-1"), dev("device-1")),
            local("pool-2", DRIVER_A, dev("device-1"))), CLASS_A).allocate(claim("claim-0",
                request("req-0", "class-a", 2)))));
  }

  // ---- drivers, allocated devices, admin access ----

  @Test
  void severalDifferentDrivers() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 @node-1", "req-0=driver-b/pool-1/device-1 @node-1"),
        results(on(TWO_A_AND_B, CLASS_A, CLASS_B).allocate(claim("claim-0", request("req-0", "class-a", 1)),
            claim("claim-1", request("req-0", "class-b", 1)))));
  }

  @Test
  void alreadyAllocatedDevices() {
    Case c = new Case(List.of(CLASS_A), List.of(local("pool-1", DRIVER_A, dev("device-1"))),
        Set.of(id(DRIVER_A, "pool-1", "device-1"), id(DRIVER_A, "pool-1", "device-2")), NODE_1);
    assertFalse(c.allocate(claim("claim-0", request("req-0", "class-a", 1))).ok());
  }

  @Test
  void adminAccessEnabled() {
    Case c = new Case(List.of(CLASS_A), List.of(local("pool-1", DRIVER_A, dev("device-1"))),
        Set.of(id(DRIVER_A, "pool-1", "device-1"), id(DRIVER_A, "pool-1", "device-2")), NODE_1);
    assertEquals(expect("req-0=driver-a/pool-1/device-1! @node-1"),
        results(c.allocate(claim("claim-0", admin(request("req-0", "class-a", 1))))));
  }

  // ---- matchAttribute constraints ----

  static final String NUMA = DRIVER_A + "/numa";
  static final String VERSION = DRIVER_A + "/driverVersion";
  static final String STRING = DRIVER_A + "/stringAttribute";
  static final String BOOL = DRIVER_A + "/boolAttribute";

  static MatchConstraint match(String attribute, String... requests) {
    return new MatchConstraint(List.of(requests), attribute);
  }

  static List<ResourceSlice> twoWith(String attribute, Object first, Object second) {
    return List.of(local("pool-1", DRIVER_A, dev("device-1", Map.of(attribute, first), Map.of()),
        dev("device-2", Map.of(attribute, second), Map.of())));
  }

  @Test
  void withConstraint() {
    Map<String, Object> same = Map.of(VERSION, "1.0.0", NUMA, 1L, STRING, "stringAttributeValue", BOOL, true);
    List<ResourceSlice> slices = List.of(local("pool-1", DRIVER_A, dev("device-1", same, Map.of()),
        dev("device-2", same, Map.of())));
    assertEquals(expect("req-0=driver-a/pool-1/device-1 req-1=driver-a/pool-1/device-2 @node-1"),
        results(on(slices, CLASS_A).allocate(claim("claim-0", List.of(match(NUMA), match(VERSION), match(STRING),
            match(BOOL)), request("req-0", "class-a", 1), request("req-1", "class-a", 1)))));
  }

  @Test
  void withConstraintNonExistentAttribute() {
    assertEquals("claim default/claim-0: no devices satisfy matchAttribute driver-a/nonExistentAttribute",
        on(List.of(local("pool-1", DRIVER_A, dev("device-1"))), CLASS_A).allocate(claim("claim-0",
            List.of(match(DRIVER_A + "/nonExistentAttribute")), request("req-0", "class-a", 1))).failure());
  }

  @Test
  void withConstraintNotMatchingIntStringBoolVersionAttribute() {
    for (List<Object> c : List.<List<Object>>of(List.of(NUMA, 1L, 2L), List.of(STRING, "stringAttributeValue",
        "stringAttributeValue2"), List.of(BOOL, true, false), List.of(VERSION, "1.0.0", "2.0.0"))) {
      String attribute = (String) c.get(0);
      Allocator.Outcome o = on(twoWith(attribute, c.get(1), c.get(2)), CLASS_A).allocate(claim("claim-0",
          List.of(match(attribute)), request("req-0", "class-a", 2)));
      assertEquals("claim default/claim-0: no devices satisfy matchAttribute " + attribute, o.failure());
    }
  }

  @Test
  void withConstraintNotMatchingIntAttributeAllDevices() {
    assertFalse(on(twoWith(NUMA, 1L, 2L), CLASS_A).allocate(claim("claim-0", List.of(match(NUMA)),
        all("req-0", "class-a"))).ok());
  }

  @Test
  void withConstraintForRequest() {
    assertEquals(expect("req-0=driver-a/pool-1/device-1 req-1=driver-a/pool-1/device-2 @node-1"),
        results(on(twoWith(VERSION, "1.0.0", "2.0.0"), CLASS_A).allocate(claim("claim-0",
            List.of(match(VERSION, "req-0")), request("req-0", "class-a", 1), request("req-1", "class-a", 1)))));
  }
}
