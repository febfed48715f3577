package io.basalt.kube.fake;

import static io.basalt.kube.fake.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.PatchUtils;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code status.nominatedNodeName} as a real API server keeps it: written and cleared by a patch of the status
 * subresource (which leaves the spec alone), selectable by field, cleared by the binding.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PodNominationTest {
  private FakeApiServer server;
  private ApiClient client;
  private CoreV1Api core;

  @BeforeEach
  void start() throws Exception {
    server = FakeApiServer.start();
    client = server.apiClient();
    core = new CoreV1Api(client);
    core.createNamespacedPod("ml", pod("ml", "p1")).execute();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private V1Pod patchStatus(String body) throws Exception {
    return PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPodStatus("p1", "ml", new V1Patch(body))
        .buildCall(null), V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);
  }

  @Test
  void aStatusPatchWritesAndClearsItAndLeavesTheSpec() throws Exception {
    V1Pod written = patchStatus("{\"spec\":{\"nodeName\":\"n9\"},\"status\":{\"nominatedNodeName\":\"n1\"}}");
    assertEquals("n1", written.getStatus().getNominatedNodeName());
    assertNull(written.getSpec().getNodeName(), "the status subresource ignores the spec");
    assertEquals(1, core.listNamespacedPod("ml").fieldSelector("status.nominatedNodeName=n1").execute()
        .getItems().size());
    V1Pod cleared = patchStatus("{\"status\":{\"nominatedNodeName\":null}}");
    assertNull(cleared.getStatus().getNominatedNodeName());
    assertEquals(0, core.listNamespacedPod("ml").fieldSelector("status.nominatedNodeName=n1").execute()
        .getItems().size());
  }

  @Test
  void theBindingClearsIt() throws Exception {
    patchStatus("{\"status\":{\"nominatedNodeName\":\"n1\"}}");
    V1Binding binding = new V1Binding().apiVersion("v1").kind("Binding")
        .metadata(new V1ObjectMeta().name("p1").namespace("ml"))
        .target(new V1ObjectReference().apiVersion("v1").kind("Node").name("n2"));
    core.createNamespacedPodBinding("p1", "ml", binding).buildCall(null).execute().close();
    V1Pod bound = core.readNamespacedPod("p1", "ml").execute();
    assertEquals("n2", bound.getSpec().getNodeName());
    assertNull(bound.getStatus().getNominatedNodeName(), "kube-apiserver 1.34+ clears it at the bind");
  }
}
