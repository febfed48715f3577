package io.basalt.kube.fake;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The pod (and namespace) behaviour of a real API server that a scheduler test can notice: create-time defaulting
 * (k8s.io/kubernetes pkg/apis/core/v1/defaults.go: schedulerName, restartPolicy, terminationGracePeriodSeconds,
 * requests defaulted from limits), status reset to Pending with a QoS class (pkg/registry/core/pod/strategy.go
 * {@code PrepareForCreate}), the Priority admission plugin (priority from the PriorityClass, 403 for an unknown
 * class), spec immutability on update (pkg/apis/core/validation {@code ValidatePodUpdate}: only images,
 * activeDeadlineSeconds, tolerations, terminationGracePeriodSeconds and schedulingGates may change, so nodeName can
 * only be set through pods/binding; scheduling gates may only be removed), the {@code PodScheduled=False} condition
 * with reason {@code SchedulingGated} a pod created with scheduling gates gets ({@code applySchedulingGatedCondition}),
 * and graceful deletion of bound pods.
 */
final class PodRules {
  static final String IMMUTABLE_SPEC = "Forbidden: pod updates may not change fields other than"
      + " `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations`"
      + " (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it"
      + " was previously negative)";

  static final String GATED_REASON = "SchedulingGated";
  static final String GATED_MESSAGE = "Scheduling is blocked due to non-empty scheduling gates";

  private PodRules() {
  }

  /** Create-time preparation; {@code trusted} (test seeding) keeps the given status and skips admission. */
  static void prepareForCreate(ResourceType type, JsonObject obj, ObjectStore store, boolean trusted) {
    if (!trusted && (type.equals(Resources.PODS) || (type.custom() && type.hasStatusSubresource()))) {
      obj.remove("status");
    }
    type.applyDefaults(obj, store);
    if (!trusted && type.equals(Resources.PODS)) {
      admitPriority(obj, store);
    }
    if (type.equals(Resources.PODS)) {
      schedulingGatedCondition(obj);
    }
  }

  /**
   * A new pod with scheduling gates and no PodScheduled condition yet gets {@code PodScheduled=False}, reason
   * {@code SchedulingGated}: the API server sets it, not the scheduler (which never sees the pod until ungated).
   */
  private static void schedulingGatedCondition(JsonObject pod) {
    JsonElement gates = Json.childOrCreate(pod, "spec").get("schedulingGates");
    if (gates == null || !gates.isJsonArray() || gates.getAsJsonArray().isEmpty()) {
      return;
    }
    JsonObject status = Json.childOrCreate(pod, "status");
    JsonElement list = status.get("conditions");
    JsonArray conditions = list != null && list.isJsonArray() ? list.getAsJsonArray() : new JsonArray();
    for (JsonElement c : conditions) {
      if (c.isJsonObject() && Json.str(c.getAsJsonObject(), "type").equals("PodScheduled")) {
        return;
      }
    }
    JsonObject condition = new JsonObject();
    condition.addProperty("type", "PodScheduled");
    condition.addProperty("status", "False");
    condition.addProperty("lastTransitionTime", Json.now());
    condition.addProperty("reason", GATED_REASON);
    condition.addProperty("message", GATED_MESSAGE);
    conditions.add(condition);
    status.add("conditions", conditions);
  }

  static void defaults(JsonObject pod, ObjectStore store) {
    JsonObject spec = Json.childOrCreate(pod, "spec");
    putIfAbsent(spec, "restartPolicy", "Always");
    putIfAbsent(spec, "terminationGracePeriodSeconds", 30);
    putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    putIfAbsent(spec, "schedulerName", "default-scheduler");
    putIfAbsent(spec, "enableServiceLinks", true);
    for (JsonObject c : containers(spec)) {
      putIfAbsent(c, "terminationMessagePath", "/dev/termination-log");
      putIfAbsent(c, "terminationMessagePolicy", "File");
      String image = Json.str(c, "image");
      putIfAbsent(c, "imagePullPolicy", image.endsWith(":latest") || !image.contains(":") ? "Always"
          : "IfNotPresent");
      JsonObject resources = Json.childOrCreate(c, "resources");
      JsonObject limits = Json.child(resources, "limits");
      if (limits != null) {
        JsonObject requests = Json.childOrCreate(resources, "requests");
        limits.entrySet().forEach(e -> {
          if (!requests.has(e.getKey())) {
            requests.add(e.getKey(), e.getValue().deepCopy());
          }
        });
      }
    }
    JsonObject status = Json.childOrCreate(pod, "status");
    putIfAbsent(status, "phase", "Pending");
    putIfAbsent(status, "qosClass", qosClass(spec));
  }

  static void namespaceDefaults(JsonObject ns, ObjectStore store) {
    JsonObject spec = Json.childOrCreate(ns, "spec");
    if (!spec.has("finalizers")) {
      spec.add("finalizers", Json.array(new JsonPrimitive("kubernetes")));
    }
    putIfAbsent(Json.childOrCreate(ns, "status"), "phase", "Active");
  }

  private static void admitPriority(JsonObject pod, ObjectStore store) {
    JsonObject spec = Json.childOrCreate(pod, "spec");
    String className = Json.str(spec, "priorityClassName");
    JsonObject pc = null;
    if (!className.isEmpty()) {
      pc = store.find(Resources.PRIORITY_CLASSES, "", className);
      if (pc == null) {
        throw Statuses.forbidden(Resources.PODS, Json.name(pod), "no PriorityClass with name " + className
            + " was found");
      }
    } else {
      for (JsonObject candidate : store.list(Resources.PRIORITY_CLASSES, "", o -> true, false, 0, null).items()) {
        if (candidate.has("globalDefault") && candidate.get("globalDefault").getAsBoolean()) {
          pc = candidate;
          spec.addProperty("priorityClassName", Json.name(candidate));
        }
      }
    }
    int value = pc == null ? 0 : pc.get("value").getAsInt();
    if (spec.has("priority") && spec.get("priority").getAsInt() != value) {
      throw Statuses.forbidden(Resources.PODS, Json.name(pod), "the integer value of priority ("
          + spec.get("priority").getAsInt() + ") must not be provided in pod spec; priority admission controller"
          + " computed " + value + " from the given PriorityClass name");
    }
    spec.addProperty("priority", value);
    putIfAbsent(spec, "preemptionPolicy", pc != null && pc.has("preemptionPolicy")
        ? pc.get("preemptionPolicy").getAsString() : "PreemptLowerPriority");
  }

  /** Main-resource pod updates may not touch the scheduling-relevant spec. */
  static void validateUpdate(ResourceType type, JsonObject current, JsonObject next) {
    if (!type.equals(Resources.PODS)) {
      return;
    }
    onlyGatesRemoved(type, current, next);
    JsonObject before = mutableStripped(Json.child(current, "spec"));
    JsonObject after = mutableStripped(Json.child(next, "spec"));
    if (!before.equals(after)) {
      List<String> changed = new ArrayList<>();
      for (String k : union(before, after)) {
        if (!Objects.equals(before.get(k), after.get(k))) {
          changed.add(k);
        }
      }
      throw Statuses.invalid(type, Json.name(current), "spec", "FieldValueForbidden",
          IMMUTABLE_SPEC + "\n  changed: spec." + String.join(", spec.", changed));
    }
  }

  /** {@code validateOnlyDeletedSchedulingGates}: an update may remove scheduling gates, never add one. */
  private static void onlyGatesRemoved(ResourceType type, JsonObject current, JsonObject next) {
    Set<String> before = gateNames(Json.child(current, "spec"));
    JsonElement after = Json.childOrCreate(next.deepCopy(), "spec").get("schedulingGates");
    if (after == null || !after.isJsonArray()) {
      return;
    }
    JsonArray gates = after.getAsJsonArray();
    for (int i = 0; i < gates.size(); i++) {
      String name = gates.get(i).isJsonObject() ? Json.str(gates.get(i).getAsJsonObject(), "name") : "";
      if (!before.contains(name)) {
        throw Statuses.invalid(type, Json.name(current), "spec.schedulingGates[" + i + "].name",
            "FieldValueForbidden", "Forbidden: only deletion is allowed, but found new scheduling gate '" + name + "'");
      }
    }
  }

  private static Set<String> gateNames(JsonObject spec) {
    Set<String> names = new TreeSet<>();
    JsonElement gates = spec == null ? null : spec.get("schedulingGates");
    if (gates != null && gates.isJsonArray()) {
      for (JsonElement g : gates.getAsJsonArray()) {
        if (g.isJsonObject()) {
          names.add(Json.str(g.getAsJsonObject(), "name"));
        }
      }
    }
    return names;
  }

  private static Set<String> union(JsonObject a, JsonObject b) {
    Set<String> keys = new TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    return keys;
  }

  private static JsonObject mutableStripped(JsonObject spec) {
    JsonObject s = spec == null ? new JsonObject() : spec.deepCopy();
    for (String f : List.of("activeDeadlineSeconds", "tolerations", "terminationGracePeriodSeconds",
        "schedulingGates")) {
      s.remove(f);
    }
    containers(s).forEach(c -> c.remove("image"));
    return s;
  }

  /**
   * Seconds a DELETE leaves the object in place with a deletionTimestamp; 0 deletes now. Only bound, non-terminal
   * pods are deleted gracefully (pod strategy {@code CheckGracefulDelete}), and only when the server was built with
   * graceful pod deletion; otherwise (the default) every delete is immediate, as if a kubelet confirmed at once.
   */
  static long gracePeriod(ResourceType type, JsonObject obj, Long requested, boolean gracefulPods) {
    if (!type.equals(Resources.PODS) || !gracefulPods) {
      return 0;
    }
    JsonObject spec = Json.child(obj, "spec");
    String phase = Json.str(Json.child(obj, "status"), "phase");
    if (Json.str(spec, "nodeName").isEmpty() || phase.equals("Succeeded") || phase.equals("Failed")) {
      return 0;
    }
    if (requested != null) {
      return Math.max(0, requested);
    }
    return spec != null && spec.has("terminationGracePeriodSeconds")
        ? spec.get("terminationGracePeriodSeconds").getAsLong() : 30;
  }

  /** v1 helper {@code GetPodQOS} over cpu and memory, comparing quantities as written. */
  private static String qosClass(JsonObject spec) {
    boolean any = false;
    boolean guaranteed = true;
    for (JsonObject c : containers(spec)) {
      JsonObject resources = Json.child(c, "resources");
      JsonObject requests = Json.child(resources, "requests");
      JsonObject limits = Json.child(resources, "limits");
      for (String r : List.of("cpu", "memory")) {
        JsonElement req = requests == null ? null : requests.get(r);
        JsonElement lim = limits == null ? null : limits.get(r);
        any |= req != null || lim != null;
        guaranteed &= lim != null && (req == null || req.equals(lim));
      }
    }
    return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
  }

  private static List<JsonObject> containers(JsonObject spec) {
    List<JsonObject> out = new ArrayList<>();
    for (String field : List.of("initContainers", "containers")) {
      JsonElement list = spec == null ? null : spec.get(field);
      if (list != null && list.isJsonArray()) {
        for (JsonElement c : (JsonArray) list) {
          if (c.isJsonObject()) {
            out.add(c.getAsJsonObject());
          }
        }
      }
    }
    return out;
  }

  private static void putIfAbsent(JsonObject o, String field, Object value) {
    if (o.has(field)) {
      return;
    }
    if (value instanceof String s) {
      o.addProperty(field, s);
    } else if (value instanceof Number n) {
      o.addProperty(field, n);
    } else if (value instanceof Boolean b) {
      o.addProperty(field, b);
    }
  }
}
