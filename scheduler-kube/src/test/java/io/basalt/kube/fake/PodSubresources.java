package io.basalt.kube.fake;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.kube.fake.ObjectStore.WriteMode;

/**
 * pods/binding and pods/eviction. Both answer 201 with a Success {@code Status}, not the posted object: the binding
 * REST storage returns {@code &metav1.Status{Status: Success}} (kubernetes pkg/registry/core/pod/storage/storage.go
 * {@code BindingREST.Create}) and so does eviction ({@code EvictionREST.Create} in eviction.go); the create handler
 * sets {@code code: 201}. That is why client-java's {@code createNamespacedPodBinding}/{@code createNamespacedBinding},
 * typed to return V1Binding, fail to read a successful reply (kubernetes/kubernetes#80663).
 */
final class PodSubresources {
  private final ObjectStore store;
  private final ResourceOps ops;
  private final BindLedger ledger;

  PodSubresources(ObjectStore store, ResourceOps ops, BindLedger ledger) {
    this.store = store;
    this.ops = ops;
    this.ledger = ledger;
  }

  /**
   * Binds {@code podName} (from the URL, or from the body for the legacy {@code namespaces/NS/bindings} POST) to
   * {@code target.name}: sets spec.nodeName, merges the binding's annotations, sets PodScheduled=True, clears
   * status.nominatedNodeName. A pod already bound, being deleted or still carrying scheduling gates is a 409 on
   * {@code pods/binding} with the registry's messages. The {@link BindLedger} records bindings applied and refused.
   */
  JsonObject bind(String namespace, String podName, String body) {
    JsonObject binding = Json.parseObject(body);
    requireKind(binding, "Binding", "v1");
    String bodyName = Json.name(binding);
    String name = podName == null ? bodyName : podName;
    if (podName != null && !bodyName.isEmpty() && !bodyName.equals(podName)) {
      throw Statuses.badRequest("the name of the object (" + bodyName + ") does not match the name on the URL ("
          + podName + ")");
    }
    JsonObject target = Json.child(binding, "target");
    String node = Json.str(target, "name");
    if (node.isEmpty()) {
      throw Statuses.invalid(Resources.PODS, name, "target.name", "FieldValueRequired", "Required value");
    }
    String targetKind = Json.str(target, "kind");
    if (!targetKind.isEmpty() && !targetKind.equals("Node")) {
      throw Statuses.invalid(Resources.PODS, name, "target.kind", "FieldValueNotSupported",
          "Unsupported value: \"" + targetKind + "\": supported values: \"Node\"");
    }
    JsonObject annotations = Json.child(Json.meta(binding), "annotations");
    store.mutate(Resources.PODS, namespace, name, pod -> {
      JsonObject meta = Json.meta(pod);
      JsonObject spec = Json.childOrCreate(pod, "spec");
      if (meta.has("deletionTimestamp")) {
        throw Statuses.conflict("", "pods/binding", name, "pod " + name
            + " is being deleted, cannot be assigned to a host");
      }
      String bound = Json.str(spec, "nodeName");
      if (!bound.isEmpty()) {
        ledger.refused(ObjectStore.key(namespace, name), node, bound);
        throw Statuses.conflict("", "pods/binding", name, "pod " + name + " is already assigned to node \""
            + bound + "\"");
      }
      JsonElement gates = spec.get("schedulingGates");
      if (gates != null && gates.isJsonArray() && !gates.getAsJsonArray().isEmpty()) {
        // The registry's check before any binding (setPodNodeAndMetadata): a scheduler must never have tried.
        ledger.refusedGated(ObjectStore.key(namespace, name), node);
        throw Statuses.conflict("", "pods/binding", name, "pod " + name + " has non-empty .spec.schedulingGates");
      }
      spec.addProperty("nodeName", node);
      if (annotations != null) {
        JsonObject podAnnotations = Json.childOrCreate(meta, "annotations");
        annotations.entrySet().forEach(e -> podAnnotations.add(e.getKey(), e.getValue().deepCopy()));
      }
      setScheduledCondition(Json.childOrCreate(pod, "status"));
      // kube-apiserver 1.34+ (ClearingNominatedNodeNameAfterBinding, on by default from 1.35): the bind makes any
      // nomination moot, whoever set it.
      Json.childOrCreate(pod, "status").remove("nominatedNodeName");
      return pod;
    }, WriteMode.SYSTEM);
    ledger.applied(ObjectStore.key(namespace, name), node);
    return Statuses.created();
  }

  /**
   * {@link #bind} with {@code ?dryRun=All} on {@code pods/binding}: the same checks and answers (the pod missing,
   * being deleted, already bound, gated), nothing written and nothing in the ledger.
   */
  JsonObject bindDryRun(String namespace, String podName, String body) {
    JsonObject binding = Json.parseObject(body);
    requireKind(binding, "Binding", "v1");
    String node = Json.str(Json.child(binding, "target"), "name");
    if (node.isEmpty()) {
      throw Statuses.invalid(Resources.PODS, podName, "target.name", "FieldValueRequired", "Required value");
    }
    JsonObject pod = store.get(Resources.PODS, namespace, podName);
    if (Json.meta(pod).has("deletionTimestamp")) {
      throw Statuses.conflict("", "pods/binding", podName, "pod " + podName
          + " is being deleted, cannot be assigned to a host");
    }
    JsonObject spec = Json.childOrCreate(pod, "spec");
    String bound = Json.str(spec, "nodeName");
    if (!bound.isEmpty()) {
      throw Statuses.conflict("", "pods/binding", podName, "pod " + podName + " is already assigned to node \""
          + bound + "\"");
    }
    JsonElement gates = spec.get("schedulingGates");
    if (gates != null && gates.isJsonArray() && !gates.getAsJsonArray().isEmpty()) {
      throw Statuses.conflict("", "pods/binding", podName, "pod " + podName + " has non-empty .spec.schedulingGates");
    }
    return Statuses.created();
  }

  /** podutil.UpdatePodCondition: PodScheduled=True, lastTransitionTime moves only when the status changes. */
  private static void setScheduledCondition(JsonObject status) {
    JsonElement list = status.get("conditions");
    JsonArray conditions = list != null && list.isJsonArray() ? list.getAsJsonArray() : new JsonArray();
    status.add("conditions", conditions);
    for (JsonElement c : conditions) {
      JsonObject condition = c.getAsJsonObject();
      if (Json.str(condition, "type").equals("PodScheduled")) {
        if (!Json.str(condition, "status").equals("True")) {
          condition.addProperty("status", "True");
          condition.addProperty("lastTransitionTime", Json.now());
          condition.remove("reason");
          condition.remove("message");
        }
        return;
      }
    }
    JsonObject condition = new JsonObject();
    condition.addProperty("type", "PodScheduled");
    condition.addProperty("status", "True");
    condition.addProperty("lastTransitionTime", Json.now());
    conditions.add(condition);
  }

  /**
   * policy/v1 Eviction: 404 for a missing pod, otherwise deletes it with the eviction's DeleteOptions (graceful if
   * the server deletes pods gracefully). PodDisruptionBudgets are not modelled: inject a 429 with
   * {@link Faults#failNext} to test a blocked eviction.
   */
  JsonObject evict(String namespace, String podName, String body) {
    JsonObject eviction = Json.parseObject(body);
    String kind = Json.str(eviction, "kind");
    if (!kind.isEmpty() && !kind.equals("Eviction")) {
      throw Statuses.badRequest("the kind in the data (" + kind + ") does not match the expected kind (Eviction)");
    }
    String bodyName = Json.name(eviction);
    if (!bodyName.isEmpty() && !bodyName.equals(podName)) {
      throw Statuses.badRequest("name in URL does not match name in Eviction object");
    }
    store.get(Resources.PODS, namespace, podName);
    JsonObject options = Json.child(eviction, "deleteOptions");
    options = options == null ? new JsonObject() : options;
    Long grace = options.has("gracePeriodSeconds") && !options.get("gracePeriodSeconds").isJsonNull()
        ? options.get("gracePeriodSeconds").getAsLong() : null;
    ops.deleteWith(Resources.PODS, namespace, podName, grace, options);
    return Statuses.created();
  }

  private static void requireKind(JsonObject obj, String kind, String apiVersion) {
    String k = Json.str(obj, "kind");
    String v = Json.str(obj, "apiVersion");
    if ((!k.isEmpty() && !k.equals(kind)) || (!v.isEmpty() && !v.equals(apiVersion))) {
      throw Statuses.badRequest("the kind in the data (" + v + "/" + k + ") does not match the expected kind ("
          + apiVersion + "/" + kind + ")");
    }
  }
}
