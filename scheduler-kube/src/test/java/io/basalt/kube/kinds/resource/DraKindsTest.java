package io.basalt.kube.kinds.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.dra.ResourceClaim;
import io.basalt.dra.ResourceSlice;
import io.basalt.kube.ClusterObjects;
import io.basalt.kube.ManifestReader;
import io.basalt.model.Pod;
import io.basalt.model.PodResourceClaim;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DRA objects and pods' claims read from manifests, and the claims the simulator makes from templates. */
class DraKindsTest {
  private static ClusterObjects read(String yaml) {
    return ClusterObjects.from(new ManifestReader().readString("dra.yaml", yaml));
  }

  private static final String SLICE = """
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: s1}
      spec:
        driver: gpu.example.com
        pool: {name: p1, generation: 3, resourceSliceCount: 1}
        nodeSelector:
          nodeSelectorTerms:
          - matchExpressions: [{key: rack, operator: In, values: [r1]}]
        devices:
        - name: gpu-0
          attributes:
            model: {string: A100}
            other.example.com/numa: {int: 1}
            healthy: {bool: true}
          capacity:
            memory: {value: 40Gi}
      """;

  @Test
  void readsASliceWithQualifiedAttributesAndCapacities() {
    ClusterObjects o = read(SLICE);
    assertEquals(List.of(), o.errors());
    ResourceSlice s = o.dra().slices().get(0);
    assertEquals(3, s.generation());
    assertNull(s.nodeName());
    assertEquals(1, s.nodeSelector().size());
    assertEquals("A100", s.devices().get(0).attributes().get("gpu.example.com/model"));
    assertEquals(1L, s.devices().get(0).attributes().get("other.example.com/numa"));
    assertEquals(true, s.devices().get(0).attributes().get("gpu.example.com/healthy"));
    assertEquals(40L << 30, s.devices().get(0).capacity().get("gpu.example.com/memory"));
  }

  @Test
  void aWrongFieldIsAnErrorNamingItAndTheObjectIsLeftOut() {
    ClusterObjects o = read(SLICE.replace("{int: 1}", "{int: one}"));
    assertTrue(o.dra().slices().isEmpty());
    assertEquals(1, o.errors().size());
    assertTrue(o.errors().get(0).contains("spec.devices[0].attributes[other.example.com/numa].int"),
        o.errors().get(0));
    ClusterObjects both = read(SLICE.replace("  nodeSelector:", "  allNodes: true\n  nodeSelector:"));
    assertTrue(both.errors().get(0).contains("exactly one of nodeName, nodeSelector and allNodes"),
        both.errors().get(0));
  }

  @Test
  void aPodNamingATemplateGetsAClaimNamedAfterItAndTheEntry() {
    ClusterObjects o = read("""
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: gpu, namespace: ml}
        spec:
          spec:
            devices:
              requests:
              - name: gpu
                firstAvailable:
                - {name: big, deviceClassName: gpu.example.com, count: 2}
                - {name: small, deviceClassName: gpu.example.com}
              constraints:
              - {matchAttribute: gpu.example.com/numa}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: train-0, namespace: ml, uid: u0}
        spec:
          resourceClaims:
          - {name: gpu, resourceClaimTemplateName: gpu}
          - {name: shared, resourceClaimName: team-gpu}
          - {name: missing, resourceClaimTemplateName: nope}
          containers: [{name: c, image: i}]
        """);
    assertEquals(List.of(), o.errors());
    Pod pod = o.pods().get(0);
    List<PodResourceClaim> claims = pod.constraints().resourceClaims();
    assertEquals(3, claims.size());
    assertTrue(claims.get(0).claimName().matches("train-0-gpu-[bcdfghjklmnpqrstvwxz2456789]{5}"),
        claims.get(0).claimName());
    assertEquals("team-gpu", claims.get(1).claimName());
    assertNull(claims.get(2).claimName(), "no template: no claim, the pod waits");
    ResourceClaim made = o.dra().claims().get(0);
    assertEquals("ml/" + claims.get(0).claimName(), made.key());
    assertEquals(2, made.spec().requests().get(0).firstAvailable().size());
    assertEquals("gpu.example.com/numa", made.spec().constraints().get(0).matchAttribute());
    assertEquals(claims.get(0).claimName(), read("""
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: gpu, namespace: ml}
        spec: {spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: c}}]}}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: train-0, namespace: ml, uid: u0}
        spec:
          resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu}]
          containers: [{name: c, image: i}]
        """).pods().get(0).constraints().resourceClaims().get(0).claimName(), "the same name on every run");
  }

  @Test
  void aClaimsAllocationAndReservationsAreRead() {
    ClusterObjects o = read("""
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c, namespace: ml, uid: cu}
        spec: {devices: {requests: [{name: r, exactly: {deviceClassName: x, allocationMode: All}}]}}
        status:
          allocation:
            devices:
              results: [{request: r, driver: d, pool: p, device: g0, adminAccess: true}]
            nodeSelector:
              nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]
          reservedFor: [{resource: pods, name: p0, uid: pu0}]
        """);
    assertEquals(List.of(), o.errors());
    ResourceClaim c = o.dra().claims().get(0);
    assertTrue(c.spec().requests().get(0).all());
    assertEquals("n1", c.allocation().nodeName());
    assertTrue(c.allocation().devices().get(0).adminAccess());
    assertEquals(List.of("pu0"), c.reservedFor());
  }
}
