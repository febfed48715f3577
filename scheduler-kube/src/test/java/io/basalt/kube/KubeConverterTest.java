package io.basalt.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.kinds.KubeConversionException;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.model.Node;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeConverterTest {
  private static final String GPU = "nvidia.com/gpu";
  private static final String METAX = "metax-tech.com/gpu";

  // ------------------------------------------------------------------------------------------------ pod requests

  @Test
  void requestSumsAppContainersAndAddsOnePod() {
    V1Pod pod = pod("team-a", "p1",
        container(Map.of("cpu", "500m", "memory", "1Gi"), Map.of()),
        container(Map.of("cpu", "250m", "memory", "512Mi"), Map.of()));

    Pod p = KubeConverter.toPod(pod);

    assertEquals(750, p.request().get("cpu"));
    assertEquals((1L << 30) + (512L << 20), p.request().get("memory"));
    assertEquals(1, p.request().get("pods"));
  }

  @Test
  void limitOnlyResourceRequestsItsLimitButAnExplicitRequestWins() {
    V1Pod pod = pod("team-a", "trainer",
        container(Map.of("cpu", "2"), Map.of("cpu", "4", GPU, "8", "memory", "8Gi")));

    Pod p = KubeConverter.toPod(pod);

    assertEquals(2000, p.request().get("cpu"), "explicit request, not the 4-cpu limit");
    assertEquals(8, p.request().get(GPU), "limit-only GPU defaults its request to the limit");
    assertEquals(8L << 30, p.request().get("memory"));
  }

  @Test
  void metaxGpuLimitsOnlyPodFromTheVendorGuide() {
    V1Pod pod = pod("default", "sample-pod", container(Map.of(), Map.of(METAX, "2")));

    Pod p = KubeConverter.toPod(pod);

    assertEquals(2, p.request().get(METAX));
    assertEquals(0, p.request().get("cpu"));
    assertFalse(p.request().isBestEffort());
  }

  @Test
  void initContainersAreMaxedPerResourceWithTheAppSum() {
    V1Pod pod = pod("team-a", "p", container(Map.of("cpu", "1", "memory", "1Gi"), Map.of()));
    pod.getSpec().setInitContainers(List.of(
        container(Map.of("cpu", "3", "memory", "256Mi"), Map.of()),
        container(Map.of("cpu", "500m"), Map.of(GPU, "2"))));

    ResourceVector r = KubeConverter.toPod(pod).request();

    assertEquals(3000, r.get("cpu"), "init container's 3 cpu exceeds the app's 1");
    assertEquals(1L << 30, r.get("memory"), "app memory exceeds the init container's");
    assertEquals(2, r.get(GPU), "a resource only an init container asks for still counts");
    assertEquals(1, r.get("pods"));
  }

  @Test
  void sidecarInitContainersAddToTheSumAndToLaterInitContainers() {
    V1Pod pod = pod("team-a", "p", container(Map.of("cpu", "1"), Map.of()));
    V1Container sidecar = container(Map.of("cpu", "200m"), Map.of());
    sidecar.setRestartPolicy("Always");
    pod.getSpec().setInitContainers(List.of(sidecar, container(Map.of("cpu", "2"), Map.of())));

    // app 1 + sidecar 0.2 = 1.2; the later init container runs next to the sidecar: 2 + 0.2 = 2.2
    assertEquals(2200, KubeConverter.toPod(pod).request().get("cpu"));

    pod.getSpec().setInitContainers(List.of(sidecar, container(Map.of("cpu", "500m"), Map.of())));
    assertEquals(1200, KubeConverter.toPod(pod).request().get("cpu"));
  }

  @Test
  void overheadIsAddedAfterTheInitMax() {
    V1Pod pod = pod("team-a", "kata", container(Map.of("cpu", "1", "memory", "1Gi"), Map.of()));
    pod.getSpec().setInitContainers(List.of(container(Map.of("cpu", "2"), Map.of())));
    pod.getSpec().setOverhead(Map.of("cpu", new Quantity("250m"), "memory", new Quantity("120Mi")));

    ResourceVector r = KubeConverter.toPod(pod).request();

    assertEquals(2250, r.get("cpu"));
    assertEquals((1L << 30) + (120L << 20), r.get("memory"));
  }

  @Test
  void quantitiesConvertExactlyToModelUnits() {
    Map<String, String> requests = new LinkedHashMap<>();
    requests.put("cpu", "1.5");
    requests.put("memory", "4Gi");
    requests.put("ephemeral-storage", "10G");
    requests.put("hugepages-2Mi", "1.5Gi");
    requests.put(GPU, "8");
    V1Pod pod = pod("team-a", "q", container(requests, Map.of()));

    ResourceVector r = KubeConverter.toPod(pod).request();

    assertEquals(1500, r.get("cpu"));
    assertEquals(4294967296L, r.get("memory"));
    assertEquals(10_000_000_000L, r.get("ephemeral-storage"));
    assertEquals(1610612736L, r.get("hugepages-2Mi"));
    assertEquals(8, r.get(GPU));
  }

  @Test
  void cpuRoundsUpToWholeMillicoresAndMemoryToWholeBytes() {
    assertEquals(500, KubeConverter.toAmount("cpu", new Quantity("500m")));
    assertEquals(1, KubeConverter.toAmount("cpu", new Quantity("100u")));
    assertEquals(1001, KubeConverter.toAmount("cpu", new Quantity("1.0000001")));
    assertEquals(1000, KubeConverter.toAmount("cpu", new Quantity("1e0")));
    assertEquals(3, KubeConverter.toAmount("cpu", new Quantity("2.5e-3")));
    assertEquals(2, KubeConverter.toAmount("memory", new Quantity("1.5")));
    assertEquals(128L * 1_000_000, KubeConverter.toAmount("memory", new Quantity("128M")));
    assertEquals(1000, KubeConverter.toAmount(GPU, new Quantity("1k")));
  }

  @Test
  void negativeQuantityNamesThePodAndField() {
    V1Pod pod = pod("team-a", "p1", container(Map.of("cpu", "-1"), Map.of()));

    KubeConversionException e = assertThrows(KubeConversionException.class, () -> KubeConverter.toPod(pod));

    assertEquals("Pod team-a/p1: spec.containers[0].resources.requests.cpu: negative quantity '-1'", e.getMessage());
    assertEquals("spec.containers[0].resources.requests.cpu", e.field());
    assertEquals("team-a/p1", e.object());
  }

  @Test
  void negativeLimitInAnInitContainerNamesItsIndex() {
    V1Pod pod = pod("team-a", "p1", container(Map.of("cpu", "1"), Map.of()));
    pod.getSpec().setInitContainers(List.of(container(Map.of(), Map.of()), container(Map.of(), Map.of(GPU, "-2"))));

    KubeConversionException e = assertThrows(KubeConversionException.class, () -> KubeConverter.toPod(pod));

    assertEquals("Pod team-a/p1: spec.initContainers[1].resources.limits.nvidia.com/gpu: negative quantity '-2'",
        e.getMessage());
  }

  @Test
  void quantityTooLargeForTheModelIsClampedAboveAnyNodeNotDropped() {
    V1Pod pod = pod("team-a", "big", container(Map.of("cpu", "1E"), Map.of()));

    Pod p = KubeConverter.toPod(pod);

    assertEquals(io.basalt.kube.kinds.Conversion.MAX_REQUEST, p.request().get(io.basalt.model.ResourceNames.CPU));
  }

  @Test
  void missingPodNameIsAnError() {
    V1Pod pod = pod("team-a", null, container(Map.of(), Map.of()));

    KubeConversionException e = assertThrows(KubeConversionException.class, () -> KubeConverter.toPod(pod));

    assertEquals("Pod team-a/<unnamed>: metadata.name: missing", e.getMessage());
  }

  // ------------------------------------------------------------------------------------------------- pod fields

  @Test
  void podDefaultsForFixtures() {
    V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("p"))
        .spec(new V1PodSpec().containers(List.of(container(Map.of("cpu", "1"), Map.of()))));

    Pod p = KubeConverter.toPod(pod);

    assertEquals("default", p.namespace());
    assertEquals("default/p", p.uid());
    assertEquals("default-scheduler", p.schedulerName());
    assertEquals("Pending", p.phase());
    assertNull(p.nodeName());
    assertNull(p.priority());
    assertNull(p.creationTimestamp());
    assertFalse(p.terminating());
    assertTrue(p.labels().isEmpty());
    assertTrue(p.requiredNodeAffinity().isEmpty());
  }

  @Test
  void podFieldsAreCopied() {
    OffsetDateTime created = OffsetDateTime.parse("2024-05-01T10:00:00+08:00");
    Map<String, String> labels = new HashMap<>();
    labels.put("app", "trainer");
    labels.put("empty", null);
    V1Pod pod = new V1Pod()
        .metadata(new V1ObjectMeta().name("w-0").namespace("ml").uid("1234-abcd").labels(labels)
            .annotations(Map.of(Pod.GROUP_NAME_ANNOTATION, "job-a", Pod.TASK_SPEC_ANNOTATION, "worker"))
            .creationTimestamp(created).deletionTimestamp(created.plusMinutes(5)))
        .spec(new V1PodSpec().schedulerName("volcano").nodeName("gpu-node1").priority(100000)
            .priorityClassName("ml-high").preemptionPolicy("Never").nodeSelector(Map.of("pool", "a100"))
            .containers(List.of(container(Map.of("cpu", "1"), Map.of()))))
        .status(new V1PodStatus().phase("Running"));

    Pod p = KubeConverter.toPod(pod);

    assertEquals("1234-abcd", p.uid());
    assertEquals("ml/w-0", p.key());
    assertEquals("volcano", p.schedulerName());
    assertEquals("gpu-node1", p.nodeName());
    assertEquals("Running", p.phase());
    assertTrue(p.terminating());
    assertEquals(100000, p.priority());
    assertEquals("ml-high", p.priorityClassName());
    assertEquals("Never", p.preemptionPolicy());
    assertEquals(Map.of("app", "trainer", "empty", ""), p.labels());
    assertEquals("job-a", p.groupName());
    assertEquals("worker", p.taskSpec());
    assertEquals(Map.of("pool", "a100"), p.nodeSelector());
    assertEquals(Instant.parse("2024-05-01T02:00:00Z"), p.creationTimestamp());
  }

  @Test
  void requiredNodeAffinityKeepsTermsExpressionsAndFields() {
    V1Pod pod = pod("ml", "p", container(Map.of(), Map.of()));
    V1NodeSelectorTerm t1 = new V1NodeSelectorTerm()
        .matchExpressions(List.of(
            new V1NodeSelectorRequirement().key("gpu.product").operator("In").values(List.of("C500", "A100")),
            new V1NodeSelectorRequirement().key("maintenance").operator("DoesNotExist")))
        .matchFields(List.of(
            new V1NodeSelectorRequirement().key("metadata.name").operator("NotIn").values(List.of("bad-node"))));
    V1NodeSelectorTerm t2 = new V1NodeSelectorTerm()
        .matchFields(List.of(
            new V1NodeSelectorRequirement().key("metadata.name").operator("In").values(List.of("gpu-node9"))));
    pod.getSpec().setAffinity(new V1Affinity().nodeAffinity(new V1NodeAffinity()
        .requiredDuringSchedulingIgnoredDuringExecution(new V1NodeSelector().nodeSelectorTerms(List.of(t1, t2)))));

    List<NodeSelectorTerm> terms = KubeConverter.toPod(pod).requiredNodeAffinity();

    assertEquals(List.of(
        new NodeSelectorTerm(List.of(
            new NodeSelectorRequirement("gpu.product", "In", List.of("C500", "A100"), false),
            new NodeSelectorRequirement("maintenance", "DoesNotExist", List.of(), false),
            new NodeSelectorRequirement("metadata.name", "NotIn", List.of("bad-node"), true))),
        new NodeSelectorTerm(List.of(
            new NodeSelectorRequirement("metadata.name", "In", List.of("gpu-node9"), true)))), terms);
    Node node9 = Node.of("gpu-node9", ResourceVector.ZERO);
    assertTrue(terms.get(1).matches(node9), "matchFields compares metadata.name");
  }

  @Test
  void affinityRequirementWithoutOperatorNamesTheField() {
    V1Pod pod = pod("ml", "p", container(Map.of(), Map.of()));
    pod.getSpec().setAffinity(new V1Affinity().nodeAffinity(new V1NodeAffinity()
        .requiredDuringSchedulingIgnoredDuringExecution(new V1NodeSelector().nodeSelectorTerms(List.of(
            new V1NodeSelectorTerm().matchExpressions(List.of(new V1NodeSelectorRequirement().key("zone"))))))));

    KubeConversionException e = assertThrows(KubeConversionException.class, () -> KubeConverter.toPod(pod));

    assertEquals("Pod ml/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
        + ".nodeSelectorTerms[0].matchExpressions[0].operator: missing", e.getMessage());
  }

  @Test
  void tolerationsAreCopiedAndBehave() {
    V1Pod pod = pod("ml", "p", container(Map.of(), Map.of()));
    pod.getSpec().setTolerations(List.of(
        new V1Toleration().key(METAX).operator("Exists").effect("NoSchedule"),
        new V1Toleration().key("dedicated").value("ml").effect("NoExecute").tolerationSeconds(30L)));

    List<Toleration> tolerations = KubeConverter.toPod(pod).tolerations();

    assertEquals(List.of(new Toleration(METAX, "Exists", null, "NoSchedule"),
        new Toleration("dedicated", null, "ml", "NoExecute")), tolerations);
    assertTrue(tolerations.get(1).tolerates(new Taint("dedicated", "ml", "NoExecute")),
        "an unset operator means Equal");
  }

  // ------------------------------------------------------------------------------------------------------- node

  @Test
  void nodeUsesAllocatableAndKeepsTaintsLabelsAnnotations() {
    V1Node n = new V1Node()
        .metadata(new V1ObjectMeta().name("gpu-node1").labels(Map.of("zone", "a")).annotations(Map.of("x", "y")))
        .spec(new V1NodeSpec().taints(List.of(new V1Taint().key(METAX).value("present").effect("NoSchedule"))))
        .status(new V1NodeStatus()
            .capacity(quantities(Map.of("cpu", "128", "memory", "1Ti", METAX, "8", "pods", "250")))
            .allocatable(quantities(Map.of("cpu", "127500m", "memory", "1000Gi", METAX, "8", "pods", "250"))));

    Node node = KubeConverter.toNode(n);

    assertEquals("gpu-node1", node.name());
    assertEquals(127500, node.allocatable().get("cpu"));
    assertEquals(1000L << 30, node.allocatable().get("memory"));
    assertEquals(8, node.allocatable().get(METAX));
    assertEquals(250, node.allocatable().get("pods"));
    assertEquals(List.of(new Taint(METAX, "present", "NoSchedule")), node.taints());
    assertEquals(Map.of("zone", "a"), node.labels());
    assertEquals(Map.of("x", "y"), node.annotations());
    assertTrue(node.ready(), "no conditions: a fixture, taken as ready");
    assertFalse(node.unschedulable());
  }

  @Test
  void nodeFallsBackToCapacityAndDefaultsPodsTo110() {
    V1Node n = new V1Node().metadata(new V1ObjectMeta().name("n"))
        .status(new V1NodeStatus().capacity(quantities(Map.of("cpu", "8", GPU, "4"))));

    Node node = KubeConverter.toNode(n);

    assertEquals(8000, node.allocatable().get("cpu"));
    assertEquals(4, node.allocatable().get(GPU));
    assertEquals(110, node.allocatable().get("pods"));
  }

  @Test
  void nodeWithExplicitZeroPodsKeepsZero() {
    V1Node n = new V1Node().metadata(new V1ObjectMeta().name("n"))
        .status(new V1NodeStatus().allocatable(quantities(Map.of("cpu", "8", "pods", "0"))));

    assertEquals(0, KubeConverter.toNode(n).allocatable().get("pods"));
  }

  @Test
  void nodeWithoutStatusOffersOnlyPods() {
    Node node = KubeConverter.toNode(new V1Node().metadata(new V1ObjectMeta().name("bare")));

    assertEquals(110, node.allocatable().get("pods"));
    assertEquals(0, node.allocatable().get("cpu"));
  }

  @Test
  void nodeReadinessFollowsTheReadyCondition() {
    assertTrue(readyWith(List.of(condition("MemoryPressure", "False"), condition("Ready", "True"))));
    assertFalse(readyWith(List.of(condition("Ready", "False"))));
    assertFalse(readyWith(List.of(condition("Ready", "Unknown"))));
    assertFalse(readyWith(List.of(condition("DiskPressure", "False"))), "conditions without Ready: not ready");
    assertTrue(readyWith(List.of()), "an empty list is as good as absent");
  }

  @Test
  void cordonedNodeIsUnschedulable() {
    V1Node n = new V1Node().metadata(new V1ObjectMeta().name("n")).spec(new V1NodeSpec().unschedulable(true));

    assertTrue(KubeConverter.toNode(n).unschedulable());
  }

  @Test
  void nodeWithNegativeAllocatableNamesTheField() {
    V1Node n = new V1Node().metadata(new V1ObjectMeta().name("n"))
        .status(new V1NodeStatus().allocatable(quantities(Map.of("memory", "-1Gi"))));

    KubeConversionException e = assertThrows(KubeConversionException.class, () -> KubeConverter.toNode(n));

    // client-java prints a negative binary quantity in plain bytes
    assertEquals("Node n: status.allocatable.memory: negative quantity '-1073741824'", e.getMessage());
  }

  // ---------------------------------------------------------------------------------------------- PriorityClass

  @Test
  void priorityClassDefaultsAndValues() {
    PriorityClass low = KubeConverter.toPriorityClass(new V1PriorityClass()
        .metadata(new V1ObjectMeta().name("ml-low")).value(1000).preemptionPolicy("Never"));
    PriorityClass dflt = KubeConverter.toPriorityClass(new V1PriorityClass()
        .metadata(new V1ObjectMeta().name("normal")).value(0).globalDefault(true));

    assertEquals(new PriorityClass("ml-low", 1000, false, "Never"), low);
    assertEquals(new PriorityClass("normal", 0, true, "PreemptLowerPriority"), dflt);
  }

  @Test
  void priorityClassWithoutValueIsAnError() {
    V1PriorityClass pc = new V1PriorityClass().metadata(new V1ObjectMeta().name("x"));

    KubeConversionException e = assertThrows(KubeConversionException.class, () -> KubeConverter.toPriorityClass(pc));

    assertEquals("PriorityClass x: value: missing", e.getMessage());
  }

  // --------------------------------------------------------------------------------------------------- PodGroup

  @Test
  void podGroupDefaults() {
    V1beta1PodGroup pg = new V1beta1PodGroup().metadata(new V1ObjectMeta().name("job-a"));

    PodGroup g = KubeConverter.toPodGroup(pg);

    assertEquals("default", g.namespace());
    assertEquals(1, g.minMember());
    assertEquals(Map.of(), g.minTaskMember());
    assertEquals("default", g.queue());
    assertNull(g.priorityClassName());
    assertNull(g.minResources(), "unset minResources stays null, not zero");
    assertEquals("Pending", g.phase());
    assertNull(g.creationTimestamp());
  }

  @Test
  void podGroupFields() {
    V1beta1PodGroup pg = new V1beta1PodGroup()
        .metadata(new V1ObjectMeta().name("pytorch").namespace("ml")
            .creationTimestamp(OffsetDateTime.parse("2024-01-01T00:00:07Z")))
        .spec(new V1beta1PodGroup.Spec().minMember(8).minTaskMember(Map.of("master", 1, "worker", 7))
            .queue("research").priorityClassName("ml-high")
            .minResources(quantities(Map.of(METAX, "64", "cpu", "16"))))
        .status(new V1beta1PodGroup.Status().phase("Inqueue").running(0));

    PodGroup g = KubeConverter.toPodGroup(pg);

    assertEquals("ml/pytorch", g.key());
    assertEquals(8, g.minMember());
    assertEquals(Map.of("master", 1, "worker", 7), g.minTaskMember());
    assertEquals("research", g.queue());
    assertEquals("ml-high", g.priorityClassName());
    assertEquals(64, g.minResources().get(METAX));
    assertEquals(16000, g.minResources().get("cpu"));
    assertEquals("Inqueue", g.phase());
    assertEquals(Instant.parse("2024-01-01T00:00:07Z"), g.creationTimestamp());
  }

  @Test
  void podGroupExplicitZeroMinMemberIsKept() {
    V1beta1PodGroup pg = new V1beta1PodGroup().metadata(new V1ObjectMeta().name("g"))
        .spec(new V1beta1PodGroup.Spec().minMember(0));

    assertEquals(0, KubeConverter.toPodGroup(pg).minMember());
  }

  @Test
  void podGroupNegativeMinMemberIsAnError() {
    V1beta1PodGroup pg = new V1beta1PodGroup().metadata(new V1ObjectMeta().name("g").namespace("ml"))
        .spec(new V1beta1PodGroup.Spec().minMember(-1));

    KubeConversionException e = assertThrows(KubeConversionException.class, () -> KubeConverter.toPodGroup(pg));

    assertEquals("PodGroup ml/g: spec.minMember: negative value -1", e.getMessage());
  }

  // ------------------------------------------------------------------------------------------------------ Queue

  @Test
  void queueDefaults() {
    Queue q = KubeConverter.toQueue(new V1beta1Queue().metadata(new V1ObjectMeta().name("research")));

    assertEquals(Queue.implicitDefault("research"), q);
  }

  @Test
  void queueWeightZeroMeansUnsetLikeGo() {
    Queue q = KubeConverter.toQueue(new V1beta1Queue().metadata(new V1ObjectMeta().name("q"))
        .spec(new V1beta1Queue.Spec().weight(0)));

    assertEquals(1, q.weight());
  }

  @Test
  void queueFields() {
    V1beta1Queue vq = new V1beta1Queue()
        .metadata(new V1ObjectMeta().name("team-a").annotations(Map.of("owner", "alice")))
        .spec(new V1beta1Queue.Spec().weight(4).reclaimable(false).priority(10).parent("root")
            .capability(quantities(Map.of("cpu", "64", METAX, "16")))
            .guarantee(new V1beta1Queue.Guarantee().resource(quantities(Map.of(METAX, "8"))))
            .deserved(quantities(Map.of(METAX, "12"))))
        .status(new V1beta1Queue.Status().state("Closing"));

    Queue q = KubeConverter.toQueue(vq);

    assertEquals(4, q.weight());
    assertEquals(64000, q.capability().get("cpu"));
    assertEquals(16, q.capability().get(METAX));
    assertEquals(8, q.guarantee().get(METAX));
    assertEquals(12, q.deserved().get(METAX));
    assertFalse(q.reclaimable());
    assertEquals(10, q.priority());
    assertEquals("root", q.parent());
    assertEquals("Closing", q.state());
    assertFalse(q.isOpen());
    assertEquals(Map.of("owner", "alice"), q.annotations());
  }

  @Test
  void queueEmptyResourceListsAreUnset() {
    V1beta1Queue vq = new V1beta1Queue().metadata(new V1ObjectMeta().name("q"))
        .spec(new V1beta1Queue.Spec().capability(Map.of()).guarantee(new V1beta1Queue.Guarantee())
            .deserved(Map.of()));

    Queue q = KubeConverter.toQueue(vq);

    assertNull(q.capability(), "an empty capability is unlimited, as unset");
    assertNull(q.guarantee());
    assertNull(q.deserved());
  }

  @Test
  void queueNegativeCapabilityNamesQueueAndField() {
    V1beta1Queue vq = new V1beta1Queue().metadata(new V1ObjectMeta().name("q"))
        .spec(new V1beta1Queue.Spec().capability(quantities(Map.of(GPU, "-4"))));

    KubeConversionException e = assertThrows(KubeConversionException.class, () -> KubeConverter.toQueue(vq));

    assertEquals("Queue q: spec.capability.nvidia.com/gpu: negative quantity '-4'", e.getMessage());
  }

  // ---------------------------------------------------------------------------------------------------- helpers

  private static boolean readyWith(List<V1NodeCondition> conditions) {
    return KubeConverter.toNode(new V1Node().metadata(new V1ObjectMeta().name("n"))
        .status(new V1NodeStatus().conditions(conditions))).ready();
  }

  private static V1NodeCondition condition(String type, String status) {
    return new V1NodeCondition().type(type).status(status);
  }

  private static V1Pod pod(String namespace, String name, V1Container... containers) {
    return new V1Pod().metadata(new V1ObjectMeta().namespace(namespace).name(name))
        .spec(new V1PodSpec().containers(List.of(containers)));
  }

  private static V1Container container(Map<String, String> requests, Map<String, String> limits) {
    return new V1Container().name("c").resources(new V1ResourceRequirements()
        .requests(requests.isEmpty() ? null : quantities(requests))
        .limits(limits.isEmpty() ? null : quantities(limits)));
  }

  private static Map<String, Quantity> quantities(Map<String, String> in) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    in.forEach((k, v) -> out.put(k, new Quantity(v)));
    return out;
  }
}
