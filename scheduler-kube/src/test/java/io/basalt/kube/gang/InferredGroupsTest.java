package io.basalt.kube.gang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.cache.ClusterCache;
import io.basalt.kube.KubeConverter;
import io.basalt.model.OwnerReference;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InferredGroupsTest {
  private static final String JOB_UID = "0b6f-job";
  private static final String GROUP = "ml/podgroup-" + JOB_UID;

  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), Queue.DEFAULT);
  private final List<String> warnings = new ArrayList<>();

  private InferredGroups groups(Set<String> awaited) {
    return new InferredGroups(cache, Queue.DEFAULT, awaited, warnings::add);
  }

  @Test
  void podsOfOneJobFormOneGroupSizedByTheirTemplateAnnotation() {
    InferredGroups g = groups(Set.of());
    for (int i = 0; i < 3; i++) {
      g.putPod(pod("train-" + i).owner("Job", "train", JOB_UID)
          .annotation(GroupInference.MIN_MEMBER_ANNOTATION, "4").build());
    }
    PodGroup pg = cache.podGroup(GROUP);
    assertNotNull(pg);
    assertEquals(4, pg.minMember());
    assertEquals("Job ml/train", pg.inferredFrom());
    assertEquals(Queue.DEFAULT, pg.queue());
    assertEquals(4 * 8, pg.minResources().get("nvidia.com/gpu"), "minMember pods' GPUs");
    assertEquals(0, pg.minResources().get("pods"), "the pod slot is a node limit, not admitted against");
  }

  @Test
  void theOwnersAnnotationSizesTheGroupWhenThePodsSayNothing() {
    InferredGroups g = groups(Set.of());
    g.putOwner(job(Map.of(GroupInference.MIN_MEMBER_ANNOTATION, "4"), Map.of()));
    g.putPod(pod("train-0").owner("Job", "train", JOB_UID).build());
    assertEquals(4, cache.podGroup(GROUP).minMember());
  }

  @Test
  void withoutAnySizeAJobsPodsAreAGroupOfOneAsBefore() {
    InferredGroups g = groups(Set.of());
    g.putPod(pod("train-0").owner("Job", "train", JOB_UID).build());
    assertEquals(1, cache.podGroup(GROUP).minMember());
  }

  @Test
  void anAwaitedOwnerKindHoldsTheGroupUntilTheOwnerIsSeen() {
    InferredGroups g = groups(Set.of("Job"));
    g.putPod(pod("train-0").owner("Job", "train", JOB_UID).build());
    assertNull(cache.podGroup(GROUP), "the Job (and its gang size) is not known yet: its pods must wait");
    g.putOwner(job(Map.of(GroupInference.MIN_MEMBER_ANNOTATION, "2"), Map.of()));
    assertEquals(2, cache.podGroup(GROUP).minMember());
    g.removeOwner(JOB_UID);
    assertNull(cache.podGroup(GROUP));
  }

  @Test
  void ownersOfOtherKindsAreNotGrouped() {
    InferredGroups g = groups(Set.of());
    Pod p = pod("web-0").owner("ReplicaSet", "web-5d4f", "rs-uid").build();
    assertNull(p.groupName());
    g.putPod(p);
    assertNull(cache.podGroup("ml/podgroup-rs-uid"));
  }

  @Test
  void aCoschedulingGroupFormsOnceItsPodGroupIsSeen() {
    InferredGroups g = groups(Set.of());
    Pod p = pod("w-0").label(GroupInference.COSCHEDULING_LABEL, "nginx").build();
    assertEquals("nginx", p.groupName());
    g.putPod(p);
    assertNull(cache.podGroup("ml/nginx"));
    ResourceVector min = ResourceVector.parse(Map.of("cpu", "3"));
    g.putCoscheduling(new CoschedulingGroup("ml", "nginx", 3, min, 10, Instant.EPOCH));
    PodGroup pg = cache.podGroup("ml/nginx");
    assertEquals(3, pg.minMember());
    assertEquals(min, pg.minResources());
    assertEquals("coscheduling PodGroup ml/nginx", pg.inferredFrom());
    g.removeCoscheduling("ml/nginx");
    assertNull(cache.podGroup("ml/nginx"));
  }

  @Test
  void kueuePodGroupsTakeTheirSizeAndTheirQueueFromKueuesLabels() {
    InferredGroups g = groups(Set.of());
    cache.putQueue(Queue.implicitDefault("team-a"));
    g.putPod(pod("k-0").label(GroupInference.KUEUE_GROUP_LABEL, "grp").label("kueue.x-k8s.io/queue-name", "team-a")
        .annotation(GroupInference.KUEUE_TOTAL_COUNT_ANNOTATION, "3").build());
    PodGroup pg = cache.podGroup("ml/grp");
    assertEquals(3, pg.minMember());
    assertEquals("team-a", pg.queue());
    assertTrue(warnings.isEmpty(), warnings.toString());
  }

  @Test
  void aKueueQueueThatDoesNotExistFallsBackToDefaultWithAWarningUntilItAppears() {
    InferredGroups g = groups(Set.of());
    g.putOwner(job(Map.of(), Map.of("kueue.x-k8s.io/queue-name", "team-b")));
    g.putPod(pod("train-0").owner("Job", "train", JOB_UID).build());
    assertEquals(Queue.DEFAULT, cache.podGroup(GROUP).queue());
    assertEquals(List.of("Job ml/train: label kueue.x-k8s.io/queue-name=team-b names no queue: scheduled in queue "
        + "default"), warnings);
    g.putPod(pod("train-1").owner("Job", "train", JOB_UID).build());
    assertEquals(1, warnings.size(), "said once per group");
    cache.putQueue(Queue.implicitDefault("team-b"));
    g.queuesChanged();
    assertEquals("team-b", cache.podGroup(GROUP).queue());
  }

  @Test
  void volcanosQueueAnnotationWinsOverKueuesLabel() {
    InferredGroups g = groups(Set.of());
    cache.putQueue(Queue.implicitDefault("team-a"));
    g.putPod(pod("train-0").owner("Job", "train", JOB_UID).annotation("scheduling.volcano.sh/queue-name", "research")
        .label("kueue.x-k8s.io/queue-name", "team-a").build());
    assertEquals("research", cache.podGroup(GROUP).queue());
  }

  @Test
  void aBadSizeIsNamedAndIgnored() {
    InferredGroups g = groups(Set.of());
    g.putPod(pod("train-0").owner("Job", "train", JOB_UID).annotation(GroupInference.MIN_MEMBER_ANNOTATION, "four")
        .build());
    assertEquals(1, cache.podGroup(GROUP).minMember());
    assertEquals(List.of("pod ml/train-0 annotation scheduling.volcano.sh/group-min-member: 'four' is not a positive "
        + "integer; ignored"), warnings);
  }

  @Test
  void aVolcanoGroupNameIsNotInferredAndOtherSchedulersPodsAreLeftAlone() {
    InferredGroups g = groups(Set.of());
    g.putPod(pod("v-0").owner("Job", "train", JOB_UID).annotation(Pod.GROUP_NAME_ANNOTATION, "pg").build());
    assertNull(cache.podGroup(GROUP));
    assertNull(cache.podGroup("ml/pg"), "a Volcano PodGroup object is read, never made up");
    g.putPod(pod("o-0").scheduler("default-scheduler").owner("Job", "other", "other-uid").build());
    assertNull(cache.podGroup("ml/podgroup-other-uid"));
  }

  @Test
  void theGroupGoesWithItsLastPodAndAPodObjectOfTheSameNameWins() {
    InferredGroups g = groups(Set.of());
    Pod a = pod("train-0").owner("Job", "train", JOB_UID).build();
    Pod b = pod("train-1").owner("Job", "train", JOB_UID).build();
    g.putPod(a);
    g.putPod(b);
    cache.putPodGroup(new PodGroup("ml", "podgroup-" + JOB_UID, 2, Map.of(), "q", null, null, "Inqueue", null));
    assertEquals("q", cache.podGroup(GROUP).queue(), "the Volcano object (e.g. made by --create-podgroups) wins");
    cache.removePodGroup(GROUP);
    assertEquals(Queue.DEFAULT, cache.podGroup(GROUP).queue());
    g.removePod(a.uid());
    assertNotNull(cache.podGroup(GROUP));
    g.removePod(b.uid());
    assertNull(cache.podGroup(GROUP));
  }

  @Test
  void jobSetAndLeaderWorkerSetPodsAreGroupedByTheirLabels() {
    Pod js = pod("js-0").label(GroupInference.JOBSET_LABEL, "trainer").owner("Job", "trainer-workers-0", "j1").build();
    assertEquals("jobset-trainer", js.groupName(), "one gang per JobSet, not per child Job");
    InferredGroups g = groups(Set.of());
    g.putPod(pod("lws-0").label(GroupInference.LWS_NAME_LABEL, "llm").label(GroupInference.LWS_GROUP_INDEX_LABEL, "1")
        .annotation(GroupInference.LWS_SIZE_ANNOTATION, "4").build());
    assertEquals(4, cache.podGroup("ml/lws-llm-1").minMember());
  }

  @Test
  void aJobSetsAnnotationSizesItsGroupAndTheGroupIsOwnedByTheJobSet() {
    InferredGroups g = groups(Set.of("Job", "JobSet"));
    g.putOwner(new OwnerObject("Job", "ml", "trainer-workers-0", "j1", Map.of(), Map.of(), Instant.EPOCH));
    g.putPod(pod("js-0").label(GroupInference.JOBSET_LABEL, "trainer").owner("Job", "trainer-workers-0", "j1")
        .build());
    assertNull(cache.podGroup("ml/jobset-trainer"), "the JobSet (and its size) not seen yet: its pods wait");
    g.putOwner(new OwnerObject("JobSet", "ml", "trainer", "js-uid",
        Map.of(), Map.of(GroupInference.MIN_MEMBER_ANNOTATION, "3"), Instant.EPOCH));
    PodGroup pg = cache.podGroup("ml/jobset-trainer");
    assertEquals(3, pg.minMember());
    assertEquals(new OwnerReference(GroupInference.JOBSET_API_VERSION, "JobSet", "trainer", "js-uid"), pg.owner());
    g.removeOwner("js-uid");
    assertNull(cache.podGroup("ml/jobset-trainer"));
  }

  @Test
  void anOwnersGroupIsOwnedByThePodsControllerAndOthersByNothing() {
    InferredGroups g = groups(Set.of());
    g.putPod(pod("train-0").owner("Job", "train", JOB_UID).build());
    assertEquals("Job", cache.podGroup(GROUP).owner().kind());
    assertEquals(JOB_UID, cache.podGroup(GROUP).owner().uid());
    g.putPod(pod("k-0").label(GroupInference.KUEUE_GROUP_LABEL, "grp").build());
    assertNull(cache.podGroup("ml/grp").owner(), "plain pods: no owner to be collected with");
    assertTrue(GroupInference.wantsPodGroupObject(cache.podGroup("ml/grp")));
    g.putCoscheduling(new CoschedulingGroup("ml", "cg", 1, null, null, Instant.EPOCH));
    g.putPod(pod("c-0").label(GroupInference.COSCHEDULING_LABEL, "cg").build());
    assertFalse(GroupInference.wantsPodGroupObject(cache.podGroup("ml/cg")), "a coscheduling group has its object");
  }

  private static OwnerObject job(Map<String, String> annotations, Map<String, String> labels) {
    return new OwnerObject("Job", "ml", "train", JOB_UID, labels, annotations, Instant.EPOCH);
  }

  private static PodBuilder pod(String name) {
    return new PodBuilder(name);
  }

  /** A V1Pod in namespace ml asking for 8 GPUs, converted as informers convert it. */
  private static final class PodBuilder {
    private final V1ObjectMeta meta = new V1ObjectMeta().namespace("ml").uid("uid-");
    private final Map<String, String> labels = new HashMap<>();
    private final Map<String, String> annotations = new HashMap<>();
    private String scheduler = "basalt-scheduler";

    PodBuilder(String name) {
      meta.name(name).uid("uid-" + name);
    }

    PodBuilder owner(String kind, String name, String uid) {
      meta.addOwnerReferencesItem(new V1OwnerReference().apiVersion("batch/v1").kind(kind).name(name).uid(uid)
          .controller(true));
      return this;
    }

    PodBuilder label(String k, String v) {
      labels.put(k, v);
      return this;
    }

    PodBuilder annotation(String k, String v) {
      annotations.put(k, v);
      return this;
    }

    PodBuilder scheduler(String s) {
      scheduler = s;
      return this;
    }

    Pod build() {
      return KubeConverter.toPod(new V1Pod().metadata(meta.labels(labels).annotations(annotations))
          .spec(new V1PodSpec().schedulerName(scheduler).addContainersItem(new V1Container().name("c")
              .resources(new V1ResourceRequirements().putLimitsItem("nvidia.com/gpu", Quantity.fromString("8"))))));
    }
  }
}
