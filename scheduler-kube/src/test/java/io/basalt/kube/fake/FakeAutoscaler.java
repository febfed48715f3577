package io.basalt.kube.fake;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the cluster autoscaler's ProvisioningRequest support against a {@link FakeApiServer}: a request
 * without a verdict gets, for each pod set, {@code count} new nodes each holding one pod of its PodTemplate (its
 * requests, labelled with its node selector), then {@code Provisioned=True}; or, while {@link #failNext} says so,
 * {@code Failed=True} and no nodes. Runs on its own thread until closed.
 */
public final class FakeAutoscaler extends PollingController {
  private final FakeApiServer server;
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicInteger nodes = new AtomicInteger();
  private final List<String> provisioned = new java.util.concurrent.CopyOnWriteArrayList<>();

  private FakeAutoscaler(FakeApiServer server) {
    super("fake-autoscaler");
    this.server = server;
  }

  public static FakeAutoscaler start(FakeApiServer server) {
    FakeAutoscaler a = new FakeAutoscaler(server);
    a.startPolling();
    return a;
  }

  /** The next {@code n} requests fail ({@code Failed=True}, reason {@code QuotaExceeded}). */
  public FakeAutoscaler failNext(int n) {
    failures.set(n);
    return this;
  }

  /** {@code namespace/name} of each request provisioned, in order. */
  public List<String> provisioned() {
    return List.copyOf(provisioned);
  }

  @Override
  public void once() {
    for (JsonObject req : server.list(Resources.PROVISIONING_REQUESTS, null)) {
      JsonObject meta = req.getAsJsonObject("metadata");
      String ns = meta.get("namespace").getAsString();
      String name = meta.get("name").getAsString();
      if (decided(req)) {
        continue;
      }
      if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        condition(ns, name, "Failed", "QuotaExceeded", "Quota 'NVIDIA_A100_GPUS' exceeded. Limit: 0.0");
        continue;
      }
      List<JsonObject> templates = new ArrayList<>();
      for (JsonElement e : req.getAsJsonObject("spec").getAsJsonArray("podSets")) {
        String template = e.getAsJsonObject().getAsJsonObject("podTemplateRef").get("name").getAsString();
        JsonObject pt = server.get(Resources.POD_TEMPLATES, ns, template);
        if (pt == null) {
          templates = null; // not there yet: look again next round
          break;
        }
        for (int i = 0; i < e.getAsJsonObject().get("count").getAsInt(); i++) {
          templates.add(pt.getAsJsonObject("template").getAsJsonObject("spec"));
        }
      }
      if (templates == null) {
        continue;
      }
      for (JsonObject spec : templates) {
        addNode(spec);
      }
      condition(ns, name, "Provisioned", "Provisioned", "Provisioned " + templates.size() + " nodes");
      provisioned.add(ns + "/" + name);
    }
  }

  private static boolean decided(JsonObject req) {
    JsonObject status = req.getAsJsonObject("status");
    if (status == null || !status.has("conditions")) {
      return false;
    }
    for (JsonElement c : status.getAsJsonArray("conditions")) {
      String type = c.getAsJsonObject().get("type").getAsString();
      if (type.equals("Provisioned") || type.equals("Failed")) {
        return true;
      }
    }
    return false;
  }

  private void addNode(JsonObject podSpec) {
    String name = "provisioned-" + nodes.incrementAndGet();
    JsonObject allocatable = new JsonObject();
    allocatable.addProperty("cpu", "8");
    allocatable.addProperty("memory", "64Gi");
    allocatable.addProperty("pods", "110");
    for (JsonElement c : podSpec.getAsJsonArray("containers")) {
      JsonObject res = c.getAsJsonObject().getAsJsonObject("resources");
      JsonObject requests = res == null ? null : res.getAsJsonObject("requests");
      if (requests != null && requests.has("nvidia.com/gpu")) {
        allocatable.add("nvidia.com/gpu", requests.get("nvidia.com/gpu"));
      }
    }
    JsonObject labels = podSpec.has("nodeSelector") ? podSpec.getAsJsonObject("nodeSelector").deepCopy()
        : new JsonObject();
    labels.addProperty("kubernetes.io/hostname", name);
    JsonObject meta = new JsonObject();
    meta.addProperty("name", name);
    meta.add("labels", labels);
    JsonObject status = new JsonObject();
    status.add("allocatable", allocatable);
    status.add("capacity", allocatable.deepCopy());
    JsonObject ready = new JsonObject();
    ready.addProperty("type", "Ready");
    ready.addProperty("status", "True");
    JsonArray conditions = new JsonArray();
    conditions.add(ready);
    status.add("conditions", conditions);
    JsonObject node = new JsonObject();
    node.addProperty("apiVersion", "v1");
    node.addProperty("kind", "Node");
    node.add("metadata", meta);
    node.add("status", status);
    server.seed(node);
  }

  private void condition(String ns, String name, String type, String reason, String message) {
    server.mergePatch(Resources.PROVISIONING_REQUESTS, ns, name, "{\"status\":{\"conditions\":[{\"type\":\"" + type
        + "\",\"status\":\"True\",\"reason\":\"" + reason + "\",\"message\":\"" + message
        + "\",\"lastTransitionTime\":\"2026-11-27T00:00:00Z\"}]}}");
  }
}
