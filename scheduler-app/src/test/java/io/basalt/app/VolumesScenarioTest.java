package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.sim.SimulationReport;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@code test-fixtures/volumes/}: issue 32's pods with PersistentVolumeClaims, as kube-scheduler places them. */
class VolumesScenarioTest {
  private static final String WITHOUT_VOLUME_FILTERS = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}]
      - plugins:
        - name: predicates
          arguments: {predicate.VolumeBindingEnable: false, predicate.VolumeZoneEnable: false,
                      predicate.NodeVolumeLimitsEnable: false, predicate.VolumeRestrictionsEnable: false}
        - {name: proportion}
        - {name: nodeorder}
      """;

  private static String nodeOf(SimulationReport r, String pod) {
    SimulationReport.Bound b = r.binding(pod);
    return b == null ? null : b.node();
  }

  private static Map<String, String> volumes(SimulationReport r) {
    return r.volumes().stream().collect(Collectors.toMap(v -> v.pod() + " " + v.claim(),
        SimulationReport.VolumeRow::volume));
  }

  @Test
  void aPodWhoseClaimIsBoundToAZonalPvGoesToThePvsZone() throws Exception {
    assertEquals("a-1", nodeOf(Scenarios.run("volumes/zonal-pv"), "ml/trainer"));
    // The control: without the volume filters the emptier node in zone-b wins, where the pod could never start.
    assertEquals("b-1", nodeOf(Scenarios.run("volumes/zonal-pv", WITHOUT_VOLUME_FILTERS), "ml/trainer"));
  }

  @Test
  void waitForFirstConsumerClaimsAreProvisionedWhereAllowedOrBoundToTheNodesLocalPv() throws Exception {
    SimulationReport r = Scenarios.run("volumes/wait-for-first-consumer");
    assertEquals("b-1", nodeOf(r, "ml/writer"));
    assertEquals("a-2", nodeOf(r, "ml/local-reader"));
    Map<String, String> v = volumes(r);
    assertEquals("pvc-6f1c0e52-0000-4000-8000-000000000001 (provisioned on b-1)", v.get("ml/writer checkpoints"));
    assertEquals("local-a-2 (bound)", v.get("ml/local-reader scratch"));
    String reason = r.pendingPod("ml/logger").reason();
    assertEquals("0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.", reason);
  }

  @Test
  void withoutTheFiltersWaitForFirstConsumerPodsLandWhereTheirVolumesCannotBe() throws Exception {
    SimulationReport r = Scenarios.run("volumes/wait-for-first-consumer", WITHOUT_VOLUME_FILTERS);
    assertEquals("a-1", nodeOf(r, "ml/writer"));
    assertEquals("a-1", nodeOf(r, "ml/local-reader"));
  }

  @Test
  void twoPodsWithOneReadWriteOncePodClaimNeverBothBind() throws Exception {
    SimulationReport r = Scenarios.run("volumes/read-write-once-pod");
    assertEquals(1, r.bindings().size(), r.bindings().toString());
    assertEquals("n-1", nodeOf(r, "ml/first"));
    String reason = r.pendingPod("ml/second").reason();
    assertTrue(reason.contains("node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod "
        + "access mode"), reason);
    assertEquals(2, Scenarios.run("volumes/read-write-once-pod", WITHOUT_VOLUME_FILTERS).bindings().size());
  }

  @Test
  void aNodeAtItsCsiAttachLimitTakesNoOtherVolume() throws Exception {
    assertEquals("room-1", nodeOf(Scenarios.run("volumes/attach-limit"), "ml/incoming"));
    assertEquals("full-1", nodeOf(Scenarios.run("volumes/attach-limit", WITHOUT_VOLUME_FILTERS), "ml/incoming"));
  }

  @Test
  void aSixteenPodGangWithOneWaitForFirstConsumerClaimEachStartsWholeWithEachClaimOnItsPodsNode() throws Exception {
    SimulationReport r = Scenarios.run("volumes/gang-16");
    assertEquals(16, r.bindings().size(), r.pending().toString());
    Map<String, String> v = volumes(r);
    assertEquals(16, v.size());
    for (SimulationReport.Bound b : r.bindings()) {
      String claim = "ckpt-" + b.pod().substring("ml/train-".length());
      assertTrue(v.get(b.pod() + " " + claim).endsWith("(provisioned on " + b.node() + ")"), v.toString());
    }
  }

  /**
   * A claim with no storageClassName: two classes are annotated default, the newer one (local, WaitForFirstConsumer,
   * with one static PV on n-2) is the default the admission plugin or the PV controller gives it.
   */
  private static String defaultClassCluster(String localAnnotation) {
    return """
        apiVersion: v1
        kind: Node
        metadata: {name: n-1, labels: {kubernetes.io/hostname: n-1}}
        status: {allocatable: {cpu: "64", memory: 256Gi, pods: "110"}}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: n-2, labels: {kubernetes.io/hostname: n-2}}
        status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
        ---
        apiVersion: storage.k8s.io/v1
        kind: StorageClass
        metadata:
          name: old-default
          creationTimestamp: "2026-01-01T00:00:00Z"
          annotations: {storageclass.kubernetes.io/is-default-class: "true"}
        provisioner: kubernetes.io/no-provisioner
        volumeBindingMode: Immediate
        ---
        apiVersion: storage.k8s.io/v1
        kind: StorageClass
        metadata:
          name: local
          creationTimestamp: "2026-06-01T00:00:00Z"
          annotations: {storageclass.kubernetes.io/is-default-class: "%s"}
        provisioner: kubernetes.io/no-provisioner
        volumeBindingMode: WaitForFirstConsumer
        ---
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: local-n-2}
        spec:
          storageClassName: local
          capacity: {storage: 1Ti}
          accessModes: [ReadWriteOnce]
          local: {path: /mnt/disks/ssd1}
          nodeAffinity:
            required:
              nodeSelectorTerms:
              - matchExpressions:
                - {key: kubernetes.io/hostname, operator: In, values: [n-2]}
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data, namespace: ml}
        spec:
          accessModes: [ReadWriteOnce]
          resources: {requests: {storage: 100Gi}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: reader, namespace: ml}
        spec:
          schedulerName: basalt-scheduler
          containers:
          - {name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}
          volumes:
          - {name: data, persistentVolumeClaim: {claimName: data}}
        """.formatted(localAnnotation);
  }

  private static SimulationReport runText(String cluster) throws Exception {
    io.basalt.sim.Simulator sim = new io.basalt.sim.Simulator(
        Scenarios.compile(io.basalt.config.ConfLoader.defaultConf()), java.util.Set.of("basalt-scheduler"), false);
    return sim.run(io.basalt.sim.FixtureSource.fromText("default-class", cluster));
  }

  @Test
  void aClaimOfNoClassGetsTheNewestDefaultClassAndBindsItsStaticPv() throws Exception {
    SimulationReport r = runText(defaultClassCluster("true"));
    assertEquals("n-2", nodeOf(r, "ml/reader"), r.pending().toString());
    assertEquals("local-n-2 (bound)", volumes(r).get("ml/reader data"));
    // The control: with only the Immediate class default, the claim is unbound Immediate and the pod waits.
    SimulationReport control = runText(defaultClassCluster("false"));
    assertEquals(null, nodeOf(control, "ml/reader"));
    assertEquals("0/2 nodes are available: 2 pod has unbound immediate PersistentVolumeClaims.",
        control.pendingPod("ml/reader").reason());
  }
}
