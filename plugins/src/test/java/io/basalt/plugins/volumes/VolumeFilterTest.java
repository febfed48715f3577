package io.basalt.plugins.volumes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.TaskFilter;
import io.basalt.model.CsiNode;
import io.basalt.model.Node;
import io.basalt.model.PersistentVolume;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.PodVolume;
import io.basalt.model.StorageClass;
import io.basalt.model.VolumeAttachment;
import io.basalt.model.VolumeClaim;
import io.basalt.plugins.predicates.PredicatesPlugin;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The volume filters in a real session: their reasons, and the placements of the session they count. */
class VolumeFilterTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(PredicatesPlugin.descriptor());
  private static final String PREDICATES = TestSessions.singlePlugin("predicates", "");
  private static final String RWO = "ReadWriteOnce";

  private final TestSessions cluster = TestSessions.cluster();

  private static Node node(String name, String zone) {
    TestNodes n = TestNodes.node(name).cpu("16").memory("64Gi");
    return (zone == null ? n : n.label("topology.kubernetes.io/zone", zone)).build();
  }

  private static Pod mounting(TestPods pod, String... claims) {
    List<PodVolume> volumes = java.util.Arrays.stream(claims).map(c -> new PodVolume(c, c, false)).toList();
    return pod.cpu("1").build().withConstraints(PodConstraints.NONE.withVolumes(volumes));
  }

  private void claim(String name, String storageClass, String volume, String... modes) {
    cluster.cache().volumes().putClaim(new VolumeClaim("default", name, null, storageClass, volume,
        List.of(modes.length == 0 ? new String[] {RWO} : modes), 10, null, null, null, null, false));
  }

  private void pv(String name, String storageClass, String claim, String driver, Map<String, String> labels) {
    cluster.cache().volumes().putVolume(new PersistentVolume(name, storageClass, 10, List.of(RWO,
        VolumeClaim.READ_WRITE_ONCE_POD), null, List.of(), labels, claim == null ? null : "default", claim,
        claim == null ? "Available" : "Bound", driver));
  }

  private static VolumeFilter filter(Session s) {
    for (TaskFilter f : s.callbacks().filterChain()) {
      if (f instanceof VolumeFilter v) {
        return v;
      }
    }
    throw new AssertionError("no volume filter in " + s.callbacks().filterChain());
  }

  /** Asks both ways a search asks (the whole chain, and the prepared volume filter), which must agree. */
  private static FilterResult ask(Session s, String pod, String node) {
    TaskInfo task = TestSessions.task(s, pod);
    NodeInfo n = TestSessions.nodeInfo(s, node);
    FilterResult asked = s.callbacks().filter(task, n);
    Function<NodeInfo, FilterResult> prepared = filter(s).forTask(task);
    assertEquals(asked, prepared == null ? FilterResult.OK : prepared.apply(n), "prepared filter");
    return asked;
  }

  @Test
  void aPodWithoutClaimsIsSignedAndNeverAskedOneWithClaimsIsNotSigned() {
    claim("data", "", "pv-1");
    pv("pv-1", "", "data", null, Map.of());
    Pod plain = TestPods.pod("plain").cpu("1").build();
    Pod withClaim = mounting(TestPods.pod("with"), "data");
    Session s = cluster.node(node("n1", null)).pod(plain).pod(withClaim).open(REGISTRY, PREDICATES);
    VolumeFilter f = filter(s);
    assertNotNull(f.sign(TestSessions.task(s, plain.key())));
    assertNull(f.forTask(TestSessions.task(s, plain.key())), "never asked");
    assertNull(f.sign(TestSessions.task(s, withClaim.key())), "reads other pods and this cycle's choices");
  }

  @Test
  void oneStaticPvIsTakenByTheFirstPlacementAndGivenBackByItsUndo() {
    cluster.cache().volumes().putClass(new StorageClass("local", StorageClass.NO_PROVISIONER,
        StorageClass.WAIT_FOR_FIRST_CONSUMER, List.of()));
    claim("a", "local", null);
    claim("b", "local", null);
    pv("only", "local", null, null, Map.of());
    Pod first = mounting(TestPods.pod("first"), "a");
    Pod second = mounting(TestPods.pod("second"), "b");
    Session s = cluster.node(node("n1", null)).pod(first).pod(second).open(REGISTRY, PREDICATES);
    assertTrue(ask(s, second.key(), "n1").ok(), "the PV is still free");
    Statement st = s.newStatement();
    st.allocate(TestSessions.task(s, first.key()), TestSessions.nodeInfo(s, "n1"));
    assertEquals("node(s) didn't find available persistent volumes to bind", ask(s, second.key(), "n1").reason());
    st.discard();
    assertTrue(ask(s, second.key(), "n1").ok(), "the discarded placement gave the PV back");
  }

  @Test
  void attachLimitsCountThePodsPlacedThisCycle() {
    cluster.cache().volumes().putCsiNode(new CsiNode("n1", Map.of("ebs", 1)));
    claim("a", "", "pv-a");
    claim("b", "", "pv-b");
    pv("pv-a", "", "a", "ebs", Map.of());
    pv("pv-b", "", "b", "ebs", Map.of());
    Pod first = mounting(TestPods.pod("first"), "a");
    Pod second = mounting(TestPods.pod("second"), "b");
    Session s = cluster.node(node("n1", null)).pod(first).pod(second).open(REGISTRY, PREDICATES);
    assertTrue(ask(s, second.key(), "n1").ok());
    Statement st = s.newStatement();
    st.allocate(TestSessions.task(s, first.key()), TestSessions.nodeInfo(s, "n1"));
    assertEquals("node(s) exceed max volume count", ask(s, second.key(), "n1").reason());
    st.discard();
    assertTrue(ask(s, second.key(), "n1").ok());
  }

  /**
   * A VolumeAttachment on the node counts a volume no pod there uses (a deleted pod's, not yet detached); one of
   * another node does not.
   */
  @Test
  void attachLimitsCountTheNodesVolumeAttachments() {
    cluster.cache().volumes().putCsiNode(new CsiNode("n1", Map.of("ebs", 1)));
    cluster.cache().volumes().putCsiNode(new CsiNode("n2", Map.of("ebs", 1)));
    claim("a", "", "pv-a");
    claim("b", "", "pv-b");
    pv("pv-a", "", "a", "ebs", Map.of());
    pv("pv-b", "", "b", "ebs", Map.of());
    cluster.cache().volumes().putAttachment(new VolumeAttachment("va-1", "ebs", "n1", "pv-a"));
    Pod next = mounting(TestPods.pod("next"), "b");
    Session s = cluster.node(node("n1", null)).node(node("n2", null)).pod(next).open(REGISTRY, PREDICATES);
    assertEquals("node(s) exceed max volume count", ask(s, next.key(), "n1").reason());
    assertTrue(ask(s, next.key(), "n2").ok());
  }

  /** A generic ephemeral volume's claim must be controlled by its pod (kube-scheduler's ephemeral.VolumeIsForPod). */
  @Test
  void anEphemeralVolumesClaimMustBeItsPods() {
    Pod owner = TestPods.pod("owner").cpu("1").build();
    Pod other = TestPods.pod("other").cpu("1").build();
    for (Pod p : List.of(owner, other)) {
      cluster.cache().volumes().putClaim(new VolumeClaim("default", p.name() + "-scratch", null, "", "pv-" + p.name(),
          List.of(RWO), 10, null, null, null, null, false, false, owner.uid()));
      pv("pv-" + p.name(), "", p.name() + "-scratch", null, Map.of());
    }
    Pod owning = owner.withConstraints(PodConstraints.NONE.withVolumes(
        List.of(new PodVolume("scratch", "owner-scratch", true))));
    Pod taking = other.withConstraints(PodConstraints.NONE.withVolumes(
        List.of(new PodVolume("scratch", "other-scratch", true))));
    Session s = cluster.node(node("n1", null)).pod(owning).pod(taking).open(REGISTRY, PREDICATES);
    assertTrue(ask(s, owning.key(), "n1").ok());
    assertEquals("PVC default/other-scratch was not created for pod default/other (pod is not owner)",
        ask(s, taking.key(), "n1").reason());
  }

  @Test
  void aReadWriteOncePodClaimInUseRefusesEveryNode() {
    claim("x", "", "pv-x", VolumeClaim.READ_WRITE_ONCE_POD);
    pv("pv-x", "", "x", null, Map.of());
    Pod running = mounting(TestPods.pod("running").onNode("n1"), "x");
    Pod next = mounting(TestPods.pod("next"), "x");
    Session s = cluster.node(node("n1", null)).node(node("n2", null)).pod(running).pod(next)
        .open(REGISTRY, PREDICATES);
    assertEquals("node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode",
        ask(s, next.key(), "n2").reason());
    Statement st = s.newStatement();
    st.evict(TestSessions.task(s, running.key()), "test");
    FilterResult afterEviction = ask(s, next.key(), "n2");
    assertTrue(afterEviction.ok(), "evicted: the claim is free; " + afterEviction);
  }

  @Test
  void aBoundPvsZoneMustHoldTheNodesZoneAndUnboundImmediateClaimsWait() {
    claim("zonal", "", "pv-z");
    pv("pv-z", "", "zonal", null, Map.of("topology.kubernetes.io/zone", "zone-a__zone-c"));
    claim("later", "standard", null);
    cluster.cache().volumes().putClass(new StorageClass("standard", "ebs", "Immediate", List.of()));
    Pod zonal = mounting(TestPods.pod("zonal"), "zonal");
    Pod waits = mounting(TestPods.pod("waits"), "later");
    Pod missing = mounting(TestPods.pod("missing"), "nosuch");
    Session s = cluster.node(node("a", "zone-a")).node(node("b", "zone-b")).node(node("plain", null))
        .pod(zonal).pod(waits).pod(missing).open(REGISTRY, PREDICATES);
    assertTrue(ask(s, zonal.key(), "a").ok());
    assertEquals("node(s) had no available volume zone", ask(s, zonal.key(), "b").reason());
    assertTrue(ask(s, zonal.key(), "plain").ok(), "a node without zone labels takes any volume");
    assertEquals("pod has unbound immediate PersistentVolumeClaims", ask(s, waits.key(), "a").reason());
    assertEquals("persistentvolumeclaim \"nosuch\" not found", ask(s, missing.key(), "a").reason());
  }

  @Test
  void theArgumentsSwitchTheFiltersOff() {
    claim("later", "standard", null);
    cluster.cache().volumes().putClass(new StorageClass("standard", "ebs", "Immediate", List.of()));
    Pod waits = mounting(TestPods.pod("waits"), "later");
    Session s = cluster.node(node("a", null)).pod(waits).open(REGISTRY, TestSessions.singlePlugin("predicates",
        "predicate.VolumeBindingEnable: false\npredicate.VolumeZoneEnable: false\n"
            + "predicate.NodeVolumeLimitsEnable: false\npredicate.VolumeRestrictionsEnable: false"));
    assertTrue(s.callbacks().filter(TestSessions.task(s, waits.key()), TestSessions.nodeInfo(s, "a")).ok());
    assertTrue(s.callbacks().filterChain().stream().noneMatch(f -> f instanceof VolumeFilter));
  }
}
