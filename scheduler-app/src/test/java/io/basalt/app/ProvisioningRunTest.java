package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.FakeAutoscaler;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * Seed 003's Dynamic Workload Scheduler flows end to end through {@code basalt run} on the fake API server, with a
 * stand-in autoscaler ({@link FakeAutoscaler}) that adds nodes for a ProvisioningRequest and marks it Provisioned:
 * with {@code --kueue instead}, Basalt runs Kueue's provisioning check (seed 003's AdmissionCheck and
 * ProvisioningRequestConfig, unchanged); without Kueue, pods consuming a user-written request wait for it.
 */
@Timeout(120)
class ProvisioningRunTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Gson GSON = new Gson();

  private static List<JsonObject> documents(String fixture) throws Exception {
    List<JsonObject> out = new ArrayList<>();
    for (Object doc : new Yaml().loadAll(Files.readString(Scenarios.fixture(fixture)))) {
      if (doc != null) {
        out.add(GSON.toJsonTree(doc).getAsJsonObject());
      }
    }
    return out;
  }

  /** Seed 003's queues and checks, its suspended sample Job, and one CPU node: no GPU anywhere yet. */
  private static void seedDws(FakeApiServer server, int backoffBaseSeconds) throws Exception {
    for (JsonObject o : documents("kueue/dws/00-dws-queues.yaml")) {
      if (backoffBaseSeconds >= 0 && o.get("kind").getAsString().equals("ProvisioningRequestConfig")) {
        o.getAsJsonObject("spec").add("retryStrategy", GSON.fromJson("{\"backoffLimitCount\":2,"
            + "\"backoffBaseSeconds\":" + backoffBaseSeconds + "}", JsonObject.class));
      }
      server.seed(o);
    }
    JsonObject job = documents("kueue/dws/20-sample-job.yaml").get(0);
    job.getAsJsonObject("metadata").addProperty("uid", "sample-job-uid");
    server.seed(job);
    server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"cpu-1\"},\"status\":{"
        + "\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"}}}");
  }

  private static boolean suspended(FakeApiServer server) {
    JsonObject spec = server.get(Resources.JOBS, "default", "sample-job").getAsJsonObject("spec");
    return spec.has("suspend") && spec.get("suspend").getAsBoolean();
  }

  /** The Job controller's part: the Job's pod from its (patched) template. */
  private static void createPod(FakeApiServer server) {
    JsonObject template = server.get(Resources.JOBS, "default", "sample-job").getAsJsonObject("spec")
        .getAsJsonObject("template");
    JsonObject meta = template.has("metadata") ? template.getAsJsonObject("metadata").deepCopy() : new JsonObject();
    meta.addProperty("name", "sample-job-0");
    meta.addProperty("namespace", "default");
    JsonObject pod = new JsonObject();
    pod.addProperty("apiVersion", "v1");
    pod.addProperty("kind", "Pod");
    pod.add("metadata", meta);
    pod.add("spec", template.getAsJsonObject("spec").deepCopy());
    server.seed(pod);
  }

  private static String nodeOf(FakeApiServer server, String ns, String pod) {
    JsonObject p = server.get(Resources.PODS, ns, pod);
    assertNotNull(p, pod);
    JsonObject spec = p.getAsJsonObject("spec");
    return spec.has("nodeName") ? spec.get("nodeName").getAsString() : null;
  }

  private static String annotation(JsonObject template, String key) {
    JsonObject a = template.getAsJsonObject("metadata").getAsJsonObject("annotations");
    return a == null || !a.has(key) ? null : a.get(key).getAsString();
  }

  @Test
  void insteadOfKueueAGangTheClusterCannotHoldGetsAProvisioningRequestAndStartsOnItsNodes(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seedDws(server, -1);
      try (LiveRun run = LiveRun.start(server, dir, "--kueue", "instead")) {
        Await.until("a ProvisioningRequest made", WAIT,
            () -> server.get(Resources.PROVISIONING_REQUESTS, "default", "sample-job-dws-prov-1") != null);
        Thread.sleep(500);
        assertTrue(suspended(server), "the Job waits until its request is Provisioned");
        JsonObject req = server.get(Resources.PROVISIONING_REQUESTS, "default", "sample-job-dws-prov-1");
        JsonObject spec = req.getAsJsonObject("spec");
        assertEquals("queued-provisioning.gke.io", spec.get("provisioningClassName").getAsString());
        assertEquals("600", spec.getAsJsonObject("parameters").get("maxRunDurationSeconds").getAsString(),
            "the Job's provreq.kueue.x-k8s.io/ annotation passed on");
        JsonObject podSet = spec.getAsJsonArray("podSets").get(0).getAsJsonObject();
        assertEquals(1, podSet.get("count").getAsInt());
        String templateName = podSet.getAsJsonObject("podTemplateRef").get("name").getAsString();
        JsonObject pt = server.get(Resources.POD_TEMPLATES, "default", templateName);
        assertNotNull(pt, templateName);
        assertEquals("NODEPOOL_NAME", pt.getAsJsonObject("template").getAsJsonObject("spec")
            .getAsJsonObject("nodeSelector").get("cloud.google.com/gke-nodepool").getAsString());
        assertEquals("sample-job-uid", req.getAsJsonObject("metadata").getAsJsonArray("ownerReferences").get(0)
            .getAsJsonObject().get("uid").getAsString(), "owned by the Job: gone when it goes");

        try (FakeAutoscaler autoscaler = FakeAutoscaler.start(server)) {
          Await.until("unsuspended once provisioned", WAIT, () -> !suspended(server));
          assertEquals(List.of("default/sample-job-dws-prov-1"), autoscaler.provisioned());
          JsonObject template = server.get(Resources.JOBS, "default", "sample-job").getAsJsonObject("spec")
              .getAsJsonObject("template");
          assertEquals("sample-job-dws-prov-1", annotation(template,
              "cluster-autoscaler.kubernetes.io/consume-provisioning-request"));
          assertEquals("queued-provisioning.gke.io", annotation(template,
              "cluster-autoscaler.kubernetes.io/provisioning-class-name"));
          createPod(server);
          Await.until("bound", WAIT, () -> nodeOf(server, "default", "sample-job-0") != null);
          assertEquals("provisioned-1", nodeOf(server, "default", "sample-job-0"));
          assertEquals(1, server.list(Resources.PROVISIONING_REQUESTS, "default").size(), "one request, once");
        }
        assertEquals(0, run.stop());
      }
    }
  }

  @Test
  void aFailedRequestIsMadeAgainAfterTheConfigsBackoff(@TempDir Path dir) throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      seedDws(server, 1);
      try (FakeAutoscaler autoscaler = FakeAutoscaler.start(server).failNext(1);
          LiveRun run = LiveRun.start(server, dir, "--kueue", "instead")) {
        Await.until("unsuspended", WAIT, () -> !suspended(server));
        JsonObject first = server.get(Resources.PROVISIONING_REQUESTS, "default", "sample-job-dws-prov-1");
        assertEquals("Failed", first.getAsJsonObject("status").getAsJsonArray("conditions").get(0)
            .getAsJsonObject().get("type").getAsString());
        assertEquals(List.of("default/sample-job-dws-prov-2"), autoscaler.provisioned());
        JsonObject template = server.get(Resources.JOBS, "default", "sample-job").getAsJsonObject("spec")
            .getAsJsonObject("template");
        assertEquals("sample-job-dws-prov-2", annotation(template,
            "cluster-autoscaler.kubernetes.io/consume-provisioning-request"), "consumes the attempt provisioned");
        assertEquals(0, run.stop());
      }
    }
  }

  /** Seed 003 without Kueue: a PodTemplate, a ProvisioningRequest and a pod consuming it (placeholders filled). */
  @Test
  void withoutKueueAPodConsumingARequestWaitsForItWithoutBeingReportedUnschedulable(@TempDir Path dir)
      throws Exception {
    try (FakeApiServer server = FakeApiServer.start()) {
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"cpu-1\"},\"status\":{"
          + "\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"1\"}}}");
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"PodTemplate\",\"metadata\":{\"name\":\"pi-template\","
          + "\"namespace\":\"ml\"},\"template\":{\"spec\":{\"nodeSelector\":{\"cloud.google.com/gke-nodepool\":"
          + "\"dws-pool\"},\"containers\":[{\"name\":\"pi\",\"image\":\"perl\",\"resources\":{\"requests\":{"
          + "\"cpu\":\"700m\",\"nvidia.com/gpu\":\"1\"}}}]}}}");
      server.seed("{\"apiVersion\":\"autoscaling.x-k8s.io/v1beta1\",\"kind\":\"ProvisioningRequest\",\"metadata\":{"
          + "\"name\":\"pi-request\",\"namespace\":\"ml\"},\"spec\":{\"provisioningClassName\":"
          + "\"queued-provisioning.gke.io\",\"parameters\":{\"maxRunDurationSeconds\":\"600\"},\"podSets\":[{"
          + "\"count\":1,\"podTemplateRef\":{\"name\":\"pi-template\"}}]}}");
      // Its GPU would fit cpu-1 now: only the request holds it back.
      server.seed("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"pi\",\"namespace\":\"ml\","
          + "\"annotations\":{\"cluster-autoscaler.kubernetes.io/consume-provisioning-request\":\"pi-request\","
          + "\"cluster-autoscaler.kubernetes.io/provisioning-class-name\":\"queued-provisioning.gke.io\"}},"
          + "\"spec\":{\"schedulerName\":\"basalt-scheduler\",\"containers\":[{\"name\":\"pi\",\"image\":\"perl\","
          + "\"resources\":{\"requests\":{\"cpu\":\"700m\",\"nvidia.com/gpu\":\"1\"},\"limits\":{"
          + "\"nvidia.com/gpu\":\"1\"}}}]}}");
      server.seed(LiveRun.pod("plain", "basalt-scheduler", 0, null));
      server.seed(LiveRun.pod("too-big", "basalt-scheduler", 4, null)); // no node has 4 GPUs: the autoscaler's case
      try (LiveRun run = LiveRun.start(server, dir)) {
        Await.until("the plain pod bound", WAIT, () -> LiveRun.nodeOf(server, "plain") != null);
        Await.until("a pod the cluster cannot hold reported Unschedulable", WAIT, () -> unschedulable(server,
            "too-big"));
        Thread.sleep(1000);
        assertNull(LiveRun.nodeOf(server, "pi"), "waits for its ProvisioningRequest");
        assertFalse(unschedulable(server, "pi"), "not reported Unschedulable: the autoscaler must not scale for it "
            + "a second time: " + server.get(Resources.PODS, "ml", "pi").get("status"));
        try (FakeAutoscaler autoscaler = FakeAutoscaler.start(server)) {
          Await.until("bound once provisioned", WAIT, () -> LiveRun.nodeOf(server, "pi") != null);
          assertEquals(List.of("ml/pi-request"), autoscaler.provisioned());
        }
        assertEquals(0, run.stop());
      }
    }
  }

  private static boolean unschedulable(FakeApiServer server, String pod) {
    JsonObject status = server.get(Resources.PODS, "ml", pod).getAsJsonObject("status");
    JsonArray conditions = status == null ? null : status.getAsJsonArray("conditions");
    if (conditions == null) {
      return false;
    }
    for (JsonElement c : conditions) {
      JsonObject o = c.getAsJsonObject();
      if ("PodScheduled".equals(o.get("type").getAsString()) && o.has("reason")
          && "Unschedulable".equals(o.get("reason").getAsString())) {
        return true;
      }
    }
    return false;
  }
}
