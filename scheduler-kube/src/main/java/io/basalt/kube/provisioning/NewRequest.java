package io.basalt.kube.provisioning;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * A ProvisioningRequest to create for a workload admitted by quota that the cluster cannot hold, as Kueue's
 * provisioning check makes it: one {@code PodTemplate} per pod set ({@code ppt-<request>-<pod set>}: the workload's
 * pod template with its flavor's node selector and tolerations) and the request ({@code <workload>-<check>-<attempt>},
 * the config's class and parameters, one pod set per template with its count), both owned by the workload's object
 * so they go when it goes.
 *
 * @param podTemplate the workload's pod template as JSON (metadata and spec), or null: a template of the request alone
 * @param podRequest one pod's request in quantities, used only when {@code podTemplate} is null
 */
public record NewRequest(String namespace, String requestName, String ownerApiVersion, String ownerKind,
    String ownerName, String ownerUid, String className, Map<String, String> parameters, int count,
    String podTemplate, Map<String, String> podRequest, Map<String, String> nodeSelector,
    List<Toleration> tolerations) {
  public static final String POD_SET = "main";

  public NewRequest {
    parameters = Map.copyOf(parameters);
    podRequest = Map.copyOf(podRequest);
    nodeSelector = Map.copyOf(nodeSelector);
    tolerations = List.copyOf(tolerations);
  }

  /** Kueue's name for the request of attempt {@code attempt} (1 first) of {@code check} for {@code workload}. */
  public static String name(String workload, String check, int attempt) {
    return workload + "-" + check + "-" + attempt;
  }

  public String key() {
    return namespace + "/" + requestName;
  }

  public String podTemplateName() {
    return "ppt-" + requestName + "-" + POD_SET;
  }

  /** The PodTemplate ({@code v1}). */
  public JsonObject podTemplateObject() {
    JsonObject template = podTemplate == null ? new JsonObject()
        : JsonParser.parseString(podTemplate).getAsJsonObject().deepCopy();
    if (!template.has("spec") || !template.get("spec").isJsonObject()) {
      JsonObject container = new JsonObject();
      container.addProperty("name", "main");
      JsonObject requests = new JsonObject();
      podRequest.forEach(requests::addProperty);
      JsonObject resources = new JsonObject();
      resources.add("requests", requests);
      container.add("resources", resources);
      JsonArray containers = new JsonArray();
      containers.add(container);
      JsonObject spec = new JsonObject();
      spec.add("containers", containers);
      template.add("spec", spec);
    }
    JsonObject spec = template.getAsJsonObject("spec");
    if (!nodeSelector.isEmpty()) {
      JsonObject selector = spec.has("nodeSelector") ? spec.getAsJsonObject("nodeSelector") : new JsonObject();
      nodeSelector.forEach(selector::addProperty);
      spec.add("nodeSelector", selector);
    }
    if (!tolerations.isEmpty()) {
      JsonArray list = spec.has("tolerations") ? spec.getAsJsonArray("tolerations") : new JsonArray();
      for (Toleration t : tolerations) {
        JsonObject o = new JsonObject();
        o.addProperty("key", t.key());
        o.addProperty("operator", t.operator());
        o.addProperty("value", t.value());
        o.addProperty("effect", t.effect());
        if (!list.contains(o)) {
          list.add(o);
        }
      }
      spec.add("tolerations", list);
    }
    JsonObject out = new JsonObject();
    out.addProperty("apiVersion", "v1");
    out.addProperty("kind", "PodTemplate");
    out.add("metadata", metadata(podTemplateName()));
    out.add("template", template);
    return out;
  }

  /** The ProvisioningRequest ({@code autoscaling.x-k8s.io/v1beta1}). */
  public JsonObject requestObject() {
    JsonObject ref = new JsonObject();
    ref.addProperty("name", podTemplateName());
    JsonObject podSet = new JsonObject();
    podSet.addProperty("count", count);
    podSet.add("podTemplateRef", ref);
    JsonArray podSets = new JsonArray();
    podSets.add(podSet);
    JsonObject spec = new JsonObject();
    spec.addProperty("provisioningClassName", className);
    if (!parameters.isEmpty()) {
      JsonObject params = new JsonObject();
      parameters.forEach(params::addProperty);
      spec.add("parameters", params);
    }
    spec.add("podSets", podSets);
    JsonObject out = new JsonObject();
    out.addProperty("apiVersion", "autoscaling.x-k8s.io/v1beta1");
    out.addProperty("kind", "ProvisioningRequest");
    out.add("metadata", metadata(requestName));
    out.add("spec", spec);
    return out;
  }

  private JsonObject metadata(String name) {
    JsonObject meta = new JsonObject();
    meta.addProperty("name", name);
    meta.addProperty("namespace", namespace);
    if (ownerUid != null) {
      JsonObject owner = new JsonObject();
      owner.addProperty("apiVersion", ownerApiVersion);
      owner.addProperty("kind", ownerKind);
      owner.addProperty("name", ownerName);
      owner.addProperty("uid", ownerUid);
      owner.addProperty("controller", true);
      JsonArray owners = new JsonArray();
      owners.add(owner);
      meta.add("ownerReferences", owners);
    }
    return meta;
  }
}
