package io.basalt.kube.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1PodGroupList;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.kube.kinds.volcano.V1beta1QueueList;
import io.basalt.testing.Await;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Volcano PodGroups (namespaced) and Queues (cluster-scoped) through GenericKubernetesApi and the CRD classes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class VolcanoCrdApiTest {
  private FakeApiServer server;
  private ApiClient client;
  private GenericKubernetesApi<V1beta1PodGroup, V1beta1PodGroupList> podGroups;
  private GenericKubernetesApi<V1beta1Queue, V1beta1QueueList> queues;

  @BeforeEach
  void start() {
    server = FakeApiServer.start();
    client = server.apiClient();
    podGroups = new GenericKubernetesApi<>(V1beta1PodGroup.class, V1beta1PodGroupList.class,
        V1beta1PodGroup.GROUP, V1beta1PodGroup.VERSION, V1beta1PodGroup.PLURAL, client);
    queues = new GenericKubernetesApi<>(V1beta1Queue.class, V1beta1QueueList.class, V1beta1Queue.GROUP,
        V1beta1Queue.VERSION, V1beta1Queue.PLURAL, client);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static V1beta1PodGroup group(String name) {
    return new V1beta1PodGroup().apiVersion(V1beta1PodGroup.API_VERSION).kind(V1beta1PodGroup.KIND)
        .metadata(new V1ObjectMeta().name(name).namespace("ml"))
        .spec(new V1beta1PodGroup.Spec().minMember(2).queue("research"))
        .status(new V1beta1PodGroup.Status().phase("Running"));
  }

  @Test
  void podGroupCrudStatusAndGeneration() throws Exception {
    V1beta1PodGroup created = podGroups.create(group("pg1")).throwsApiException().getObject();
    assertEquals(1L, created.getMetadata().getGeneration());
    assertEquals("Running", created.getStatus().phase(),
        "Volcano's PodGroup CRD has no status subresource (subresources: {}): status is kept on create");

    CustomObjectsApi custom = new CustomObjectsApi(client);
    ApiException noSubresource = assertThrows(ApiException.class, () -> PatchUtils.patch(Object.class,
        () -> custom.patchNamespacedCustomObjectStatus(V1beta1PodGroup.GROUP, V1beta1PodGroup.VERSION, "ml",
            V1beta1PodGroup.PLURAL, "pg1", new V1Patch("{\"status\":{\"phase\":\"Inqueue\"}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client));
    assertEquals(404, noSubresource.getCode(), "no podgroups/status");
    PatchUtils.patch(Object.class, () -> custom.patchNamespacedCustomObject(V1beta1PodGroup.GROUP,
        V1beta1PodGroup.VERSION, "ml", V1beta1PodGroup.PLURAL, "pg1",
        new V1Patch("{\"status\":{\"phase\":\"Inqueue\",\"running\":0}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    V1beta1PodGroup withStatus = podGroups.get("ml", "pg1").throwsApiException().getObject();
    assertEquals("Inqueue", withStatus.getStatus().phase(), "status is written on the object itself");

    withStatus.setSpec(withStatus.getSpec().minMember(4));
    V1beta1PodGroup resized = podGroups.update(withStatus).throwsApiException().getObject();
    assertEquals(4, resized.getSpec().minMember());
    assertEquals(2L, resized.getMetadata().getGeneration(), "spec writes bump generation");
    assertEquals("Inqueue", resized.getStatus().phase());

    podGroups.create(group("pg2")).throwsApiException();
    V1beta1PodGroupList list = podGroups.list("ml").throwsApiException().getObject();
    assertEquals(2, list.getItems().size());
    assertEquals("PodGroup", list.getItems().get(0).getKind(), "custom resource list items keep their kind");
    assertEquals(2, podGroups.list().throwsApiException().getObject().getItems().size());

    KubernetesApiResponse<V1beta1PodGroup> deleted = podGroups.delete("ml", "pg2");
    assertTrue(deleted.isSuccess());
    assertNull(server.get(Resources.PODGROUPS, "ml", "pg2"));
  }

  @Test
  void podGroupPatchesMergeButNotStrategic() throws Exception {
    podGroups.create(group("pg1")).throwsApiException();
    V1beta1PodGroup patched = podGroups.patch("ml", "pg1", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        new V1Patch("{\"metadata\":{\"annotations\":{\"basalt.io/gang\":\"ready\"}}}")).throwsApiException()
        .getObject();
    assertEquals("ready", patched.getMetadata().getAnnotations().get("basalt.io/gang"));

    KubernetesApiResponse<V1beta1PodGroup> strategic = podGroups.patch("ml", "pg1",
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, new V1Patch("{\"spec\":{\"minMember\":3}}"));
    assertFalse(strategic.isSuccess());
    assertEquals(415, strategic.getHttpStatusCode());
    assertEquals("UnsupportedMediaType", strategic.getStatus().getReason());
  }

  @Test
  void queueStatusSubresourceSeparatesStatusFromSpec() throws Exception {
    V1beta1Queue q = new V1beta1Queue().apiVersion(V1beta1Queue.API_VERSION).kind(V1beta1Queue.KIND)
        .metadata(new V1ObjectMeta().name("q")).spec(new V1beta1Queue.Spec().weight(1))
        .status(new V1beta1Queue.Status().state("Open"));
    V1beta1Queue created = queues.create(q).throwsApiException().getObject();
    assertNull(created.getStatus(), "status is dropped on create when the CRD has a status subresource");
    assertEquals(1L, created.getMetadata().getGeneration());

    created.setStatus(new V1beta1Queue.Status().state("Open"));
    // kubernetes-client/java#3143: updateStatus sends a JSON patch as "application/json", which a real server
    // (and this one) rejects with 415. Status writes go through PatchUtils with an explicit patch format.
    KubernetesApiResponse<V1beta1Queue> refused = queues.updateStatus(created, V1beta1Queue::getStatus);
    assertEquals(415, refused.getHttpStatusCode());
    assertEquals("UnsupportedMediaType", refused.getStatus().getReason());

    CustomObjectsApi custom = new CustomObjectsApi(client);
    PatchUtils.patch(Object.class, () -> custom.patchClusterCustomObjectStatus(V1beta1Queue.GROUP,
        V1beta1Queue.VERSION, V1beta1Queue.PLURAL, "q",
        new V1Patch("{\"spec\":{\"weight\":9},\"status\":{\"state\":\"Closed\"}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    V1beta1Queue after = queues.get("q").throwsApiException().getObject();
    assertEquals("Closed", after.getStatus().state());
    assertEquals(1, after.getSpec().weight(), "a status patch changes only status");
    assertEquals(1L, after.getMetadata().getGeneration(), "status writes leave generation alone");
  }

  @Test
  void queuesAreClusterScoped() throws Exception {
    V1beta1Queue research = new V1beta1Queue().apiVersion(V1beta1Queue.API_VERSION).kind(V1beta1Queue.KIND)
        .metadata(new V1ObjectMeta().name("research")).spec(new V1beta1Queue.Spec().weight(3));
    V1beta1Queue created = queues.create(research).throwsApiException().getObject();
    assertNull(created.getMetadata().getNamespace());

    CustomObjectsApi custom = new CustomObjectsApi(client);
    PatchUtils.patch(Object.class, () -> custom.patchClusterCustomObjectStatus(V1beta1Queue.GROUP,
        V1beta1Queue.VERSION, V1beta1Queue.PLURAL, "research",
        new V1Patch("[{\"op\":\"add\",\"path\":\"/status\",\"value\":{\"state\":\"Open\"}}]")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_PATCH, client);
    V1beta1Queue open = queues.get("research").throwsApiException().getObject();
    assertEquals("Open", open.getStatus().state());
    assertEquals(3, open.getSpec().weight());
    assertEquals(1, queues.list().throwsApiException().getObject().getItems().size());

    RecordedRequest patch = server.requests("PATCH", ".*").get(0);
    assertEquals("/apis/scheduling.volcano.sh/v1beta1/queues/research/status", patch.path());
    assertEquals("application/json-patch+json", patch.contentType().split(";")[0]);
    JsonObject op = patch.json().getAsJsonArray().get(0).getAsJsonObject();
    assertEquals("/status", op.get("path").getAsString());

    assertTrue(queues.delete("research").isSuccess());
    assertEquals(0, queues.list().throwsApiException().getObject().getItems().size());
  }

  @Test
  void podGroupInformer() throws Exception {
    SharedInformerFactory factory = new SharedInformerFactory(client);
    try {
      SharedIndexInformer<V1beta1PodGroup> informer = factory.sharedIndexInformerFor(podGroups,
          V1beta1PodGroup.class, 0);
      factory.startAllRegisteredInformers();
      Await.until("synced", Duration.ofSeconds(10), informer::hasSynced);
      podGroups.create(group("pg1")).throwsApiException();
      server.mergePatch(Resources.PODGROUPS, "ml", "pg1", "{\"status\":{\"phase\":\"Inqueue\"}}");
      Await.until("pg1 Inqueue in cache", Duration.ofSeconds(10), () -> {
        V1beta1PodGroup pg = informer.getIndexer().getByKey("ml/pg1");
        return pg != null && pg.getStatus() != null && "Inqueue".equals(pg.getStatus().phase());
      });
    } finally {
      factory.stopAllRegisteredInformers();
    }
  }
}
