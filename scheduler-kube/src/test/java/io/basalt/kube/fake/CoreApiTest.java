package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.pod;
import static io.basalt.kube.fake.Fixtures.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.PatchUtils;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** CoreV1Api against the fake server: CRUD, selectors, chunking, patches and the Status shapes of failures. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CoreApiTest {
  private FakeApiServer server;
  private ApiClient client;
  private CoreV1Api core;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    client = server.apiClient();
    core = new CoreV1Api(client);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void createGetAndDefaults() throws ApiException {
    long before = server.resourceVersion();
    V1Pod created = core.createNamespacedPod("ml", pod("ml", "p1")).execute();

    assertNotNull(created.getMetadata().getUid());
    assertNotNull(created.getMetadata().getCreationTimestamp());
    assertEquals(Long.toString(before + 1), created.getMetadata().getResourceVersion());
    assertEquals(1L, created.getMetadata().getGeneration());
    assertEquals("Pending", created.getStatus().getPhase());
    assertEquals("Burstable", created.getStatus().getQosClass());
    assertEquals("Always", created.getSpec().getRestartPolicy());
    assertEquals(0, created.getSpec().getPriority());

    V1Pod read = core.readNamespacedPod("p1", "ml").execute();
    assertEquals(created.getMetadata().getUid(), read.getMetadata().getUid());
    assertEquals("Pod", read.getKind());
    assertEquals("v1", read.getApiVersion());
  }

  @Test
  void createTwiceIsAlreadyExistsAndMissingIsNotFound() throws ApiException {
    core.createNamespacedPod("ml", pod("ml", "p1")).execute();

    ApiException dup = assertThrows(ApiException.class, () -> core.createNamespacedPod("ml", pod("ml", "p1"))
        .execute());
    assertEquals(409, dup.getCode());
    JsonObject s = status(dup);
    assertEquals("Status", s.get("kind").getAsString());
    assertEquals("v1", s.get("apiVersion").getAsString());
    assertEquals("Failure", s.get("status").getAsString());
    assertEquals("AlreadyExists", s.get("reason").getAsString());
    assertEquals("pods \"p1\" already exists", s.get("message").getAsString());
    assertEquals("pods", s.getAsJsonObject("details").get("kind").getAsString());
    assertEquals("p1", s.getAsJsonObject("details").get("name").getAsString());
    assertEquals(409, s.get("code").getAsInt());

    ApiException missing = assertThrows(ApiException.class, () -> core.readNamespacedPod("nope", "ml").execute());
    assertEquals(404, missing.getCode());
    assertEquals("pods \"nope\" not found", status(missing).get("message").getAsString());
    assertEquals("NotFound", status(missing).get("reason").getAsString());
  }

  @Test
  void listsFilterByLabelAndFieldSelectors() throws ApiException {
    core.createNamespacedPod("ml", pod("ml", "a")).execute();
    V1Pod other = pod("ml", "b");
    other.getMetadata().setLabels(Map.of("app", "serve"));
    other.getSpec().setSchedulerName("default-scheduler");
    core.createNamespacedPod("ml", other).execute();
    core.createNamespacedPod("dev", pod("dev", "c")).execute();
    server.mergePatch(Resources.PODS, "dev", "c", "{\"spec\":{\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\"}}");

    assertEquals(List.of("a"), names(core.listNamespacedPod("ml").labelSelector("app=train").execute()));
    assertEquals(List.of("b"), names(core.listNamespacedPod("ml").labelSelector("app in (serve,x)").execute()));
    assertEquals(List.of("c", "a"), names(core.listPodForAllNamespaces().labelSelector("app!=serve").execute()));
    assertEquals(List.of("a", "b"),
        names(core.listPodForAllNamespaces().fieldSelector("spec.nodeName=").execute()));
    assertEquals(List.of("c"), names(core.listPodForAllNamespaces().fieldSelector("spec.nodeName!=").execute()));
    assertEquals(List.of("c"),
        names(core.listPodForAllNamespaces().fieldSelector("status.phase==Running").execute()));
    assertEquals(List.of("a"), names(core.listPodForAllNamespaces()
        .fieldSelector("spec.schedulerName=basalt,metadata.name!=c").execute()));

    ApiException bad = assertThrows(ApiException.class,
        () -> core.listPodForAllNamespaces().fieldSelector("spec.priority=3").execute());
    assertEquals(400, bad.getCode());
    assertEquals("field label not supported: spec.priority", status(bad).get("message").getAsString());
  }

  @Test
  void listChunksWithLimitAndContinueAtOneResourceVersion() throws Exception {
    for (String n : List.of("p1", "p2", "p3", "p4", "p5")) {
      core.createNamespacedPod("ml", pod("ml", n)).execute();
    }
    V1PodList first = core.listNamespacedPod("ml").limit(2).execute();
    assertEquals(List.of("p1", "p2"), names(first));
    assertNotNull(first.getMetadata().getContinue());
    assertEquals(3L, first.getMetadata().getRemainingItemCount());

    core.createNamespacedPod("ml", pod("ml", "p0")).execute();
    core.deleteNamespacedPod("p4", "ml").execute();

    V1PodList second = core.listNamespacedPod("ml").limit(2)._continue(first.getMetadata().getContinue()).execute();
    assertEquals(List.of("p3", "p4"), names(second), "pages are read at the first page's resourceVersion");
    assertEquals(first.getMetadata().getResourceVersion(), second.getMetadata().getResourceVersion());
    V1PodList third = core.listNamespacedPod("ml").limit(2)._continue(second.getMetadata().getContinue()).execute();
    assertEquals(List.of("p5"), names(third));
    assertNull(third.getMetadata().getContinue());

    server.compactHistory();
    ApiException expired = assertThrows(ApiException.class,
        () -> core.listNamespacedPod("ml").limit(2)._continue(first.getMetadata().getContinue()).execute());
    assertEquals(410, expired.getCode());
    assertEquals("Expired", status(expired).get("reason").getAsString());

    try (Response raw = client.getHttpClient().newCall(new Request.Builder()
        .url(server.baseUrl() + "/api/v1/namespaces/ml/pods?limit=1").build()).execute()) {
      JsonObject list = Json.parseObject(raw.body().string());
      assertEquals("PodList", list.get("kind").getAsString());
      assertEquals("v1", list.get("apiVersion").getAsString());
      assertTrue(list.getAsJsonObject("metadata").has("resourceVersion"));
      assertTrue(list.getAsJsonObject("metadata").has("continue"));
      JsonObject item = list.getAsJsonArray("items").get(0).getAsJsonObject();
      assertFalse(item.has("kind"), "typed lists carry no kind on items, as a real server encodes them");
    }
  }

  @Test
  void replaceWithStaleResourceVersionIsConflict() throws ApiException {
    V1Pod created = core.createNamespacedPod("ml", pod("ml", "p1")).execute();
    V1Pod fresh = core.replaceNamespacedPod("p1", "ml",
        created.metadata(created.getMetadata().labels(Map.of("app", "train", "v", "2")))).execute();
    assertEquals("2", fresh.getMetadata().getLabels().get("v"));

    created.getMetadata().setResourceVersion(created.getMetadata().getResourceVersion());
    V1Pod stale = created;
    stale.getMetadata().setResourceVersion(Long.toString(Long.parseLong(fresh.getMetadata().getResourceVersion())
        - 1));
    ApiException conflict = assertThrows(ApiException.class,
        () -> core.replaceNamespacedPod("p1", "ml", stale).execute());
    assertEquals(409, conflict.getCode());
    assertEquals("Conflict", status(conflict).get("reason").getAsString());
    assertEquals("Operation cannot be fulfilled on pods \"p1\": " + Statuses.OPTIMISTIC_LOCK,
        status(conflict).get("message").getAsString());
  }

  @Test
  void strategicMergeOnStatusMergesConditionsByType() throws ApiException {
    V1Pod seeded = server.seed(pod("ml", "p1").status(new V1PodStatus().phase("Pending").addConditionsItem(
        new V1PodCondition().type("Ready").status("False"))));
    String patch = "{\"metadata\":{\"labels\":{\"ignored\":\"yes\"}},\"status\":{\"conditions\":["
        + "{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":\"Unschedulable\",\"message\":\"0/3\"}]}}";

    V1Pod patched = PatchUtils.patch(V1Pod.class,
        () -> core.patchNamespacedPodStatus("p1", "ml", new V1Patch(patch)).buildCall(null),
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);

    assertEquals(List.of("Ready", "PodScheduled"),
        patched.getStatus().getConditions().stream().map(V1PodCondition::getType).toList());
    assertFalse(patched.getMetadata().getLabels().containsKey("ignored"), "status writes change only status");

    V1Pod again = PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPodStatus("p1", "ml", new V1Patch(
        "{\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\"}]}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);
    assertEquals(2, again.getStatus().getConditions().size());
    assertEquals("True", again.getStatus().getConditions().get(1).getStatus());
    assertEquals("Unschedulable", again.getStatus().getConditions().get(1).getReason(), "merged, not replaced");
    assertEquals(seeded.getMetadata().getGeneration(), again.getMetadata().getGeneration());

    RecordedRequest sent = server.requests("PATCH", ".*/pods/p1/status").get(0);
    assertEquals("application/strategic-merge-patch+json", sent.contentType().split(";")[0]);
    assertEquals(patch, sent.body());
  }

  @Test
  void mergePatchOnAnnotationsAndJsonPatch() throws ApiException {
    core.createNamespacedPod("ml", pod("ml", "p1")).execute();

    V1Pod patched = PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPod("p1", "ml", new V1Patch(
        "{\"metadata\":{\"annotations\":{\"basalt.io/queue\":\"research\"}},\"status\":{\"phase\":\"Failed\"}}"))
        .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    assertEquals("research", patched.getMetadata().getAnnotations().get("basalt.io/queue"));
    assertEquals("Pending", patched.getStatus().getPhase(), "the main resource ignores status");

    V1Pod removed = PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPod("p1", "ml", new V1Patch(
        "[{\"op\":\"remove\",\"path\":\"/metadata/annotations/basalt.io~1queue\"},"
            + "{\"op\":\"add\",\"path\":\"/metadata/labels/tier\",\"value\":\"gold\"}]")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_PATCH, client);
    assertTrue(removed.getMetadata().getAnnotations() == null
        || removed.getMetadata().getAnnotations().isEmpty());
    assertEquals("gold", removed.getMetadata().getLabels().get("tier"));

    String rv = removed.getMetadata().getResourceVersion();
    V1Pod unchanged = PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPod("p1", "ml",
        new V1Patch("{\"metadata\":{\"labels\":{\"tier\":\"gold\"}}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    assertEquals(rv, unchanged.getMetadata().getResourceVersion(), "a no-op patch does not bump resourceVersion");

    ApiException stale = assertThrows(ApiException.class, () -> PatchUtils.patch(V1Pod.class,
        () -> core.patchNamespacedPod("p1", "ml", new V1Patch(
            "{\"metadata\":{\"resourceVersion\":\"1\",\"labels\":{\"x\":\"y\"}}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client));
    assertEquals(409, stale.getCode());
  }

  @Test
  void podSpecIsImmutableExceptThroughBinding() throws ApiException {
    core.createNamespacedPod("ml", pod("ml", "p1")).execute();
    ApiException invalid = assertThrows(ApiException.class, () -> PatchUtils.patch(V1Pod.class,
        () -> core.patchNamespacedPod("p1", "ml", new V1Patch("{\"spec\":{\"nodeName\":\"n1\"}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client));
    assertEquals(422, invalid.getCode());
    assertEquals("Invalid", status(invalid).get("reason").getAsString());
    assertEquals("Pod", status(invalid).getAsJsonObject("details").get("kind").getAsString());
  }

  @Test
  void deleteAnswersPodForPodsAndStatusForConfigMaps() throws ApiException {
    V1Pod created = core.createNamespacedPod("ml", pod("ml", "p1")).execute();
    V1Pod deleted = core.deleteNamespacedPod("p1", "ml").execute();
    assertEquals(created.getMetadata().getUid(), deleted.getMetadata().getUid());
    assertEquals(404, assertThrows(ApiException.class, () -> core.readNamespacedPod("p1", "ml").execute())
        .getCode());

    V1ConfigMap cm = core.createNamespacedConfigMap("ml", new V1ConfigMap()
        .metadata(new V1ObjectMeta().name("cfg")).data(Map.of("k", "v"))).execute();
    V1Status status = core.deleteNamespacedConfigMap("cfg", "ml").execute();
    assertEquals("Success", status.getStatus());
    assertEquals("configmaps", status.getDetails().getKind());
    assertEquals(cm.getMetadata().getUid(), status.getDetails().getUid());

    ApiException missing = assertThrows(ApiException.class, () -> core.deleteNamespacedPod("p1", "ml").execute());
    assertEquals(404, missing.getCode());
  }

  @Test
  void finalizersHoldDeletionUntilRemoved() throws ApiException {
    core.createNamespacedConfigMap("ml", new V1ConfigMap()
        .metadata(new V1ObjectMeta().name("cfg").finalizers(List.of("basalt.io/cleanup")))).execute();
    core.deleteNamespacedConfigMap("cfg", "ml").execute();
    V1ConfigMap pending = core.readNamespacedConfigMap("cfg", "ml").execute();
    assertNotNull(pending.getMetadata().getDeletionTimestamp());

    PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap("cfg", "ml",
        new V1Patch("{\"metadata\":{\"finalizers\":null}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    assertNull(server.get(Resources.CONFIGMAPS, "ml", "cfg"));
  }

  @Test
  void unknownPathsAndPriorityAdmission() throws Exception {
    try (Response raw = client.getHttpClient().newCall(new Request.Builder()
        .url(server.baseUrl() + "/apis/apps/v1/deployments").build()).execute()) {
      assertEquals(404, raw.code());
      JsonObject s = Json.parseObject(raw.body().string());
      assertEquals("the server could not find the requested resource", s.get("message").getAsString());
    }
    V1Pod withClass = pod("ml", "p1");
    withClass.getSpec().setPriorityClassName("missing");
    ApiException forbidden = assertThrows(ApiException.class,
        () -> core.createNamespacedPod("ml", withClass).execute());
    assertEquals(403, forbidden.getCode());

    server.seed("{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
        + "\"metadata\":{\"name\":\"missing\"},\"value\":1000}");
    assertEquals(1000, core.createNamespacedPod("ml", withClass).execute().getSpec().getPriority());
  }

  private static List<String> names(V1PodList list) {
    return list.getItems().stream().map(p -> p.getMetadata().getName()).toList();
  }
}
