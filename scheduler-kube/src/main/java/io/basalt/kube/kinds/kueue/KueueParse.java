package io.basalt.kube.kinds.kueue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kueue.KueueRecord;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's objects (v1beta1 and v1beta2 alike) to {@link KueueRecord}s. A value the API server would reject fails
 * naming its field; a field Basalt does not act on is listed in the record's {@code unsupported}.
 */
final class KueueParse {
  private KueueParse() {}

  static KueueRecord.Flavor flavor(KueueObjects.ResourceFlavor f) {
    Ctx ctx = Ctx.clusterScoped("ResourceFlavor", f.getMetadata());
    JsonObject spec = f.getSpec() == null ? new JsonObject() : f.getSpec();
    List<String> unsupported = unknown(spec, Set.of("nodeLabels", "nodeTaints", "tolerations", "topologyName"));
    Map<String, String> labels = strings(spec, "nodeLabels", ctx);
    List<Taint> taints = new ArrayList<>();
    for (JsonObject t : objects(spec, "nodeTaints", ctx)) {
      taints.add(new Taint(string(t, "key"), string(t, "value"), string(t, "effect")));
    }
    List<Toleration> tolerations = new ArrayList<>();
    for (JsonObject t : objects(spec, "tolerations", ctx)) {
      tolerations.add(new Toleration(string(t, "key"), string(t, "operator") == null ? "Equal"
          : string(t, "operator"), string(t, "value"), string(t, "effect")));
    }
    return new KueueRecord.Flavor(name(f.getMetadata(), ctx), labels, taints, tolerations, unsupported);
  }

  static KueueRecord.ClusterQueue clusterQueue(KueueObjects.ClusterQueue q) {
    Ctx ctx = Ctx.clusterScoped("ClusterQueue", q.getMetadata());
    JsonObject spec = q.getSpec() == null ? new JsonObject() : q.getSpec();
    List<String> unsupported = unknown(spec, Set.of("resourceGroups", "cohort", "cohortName", "queueingStrategy",
        "namespaceSelector", "flavorFungibility", "fairSharing", "stopPolicy", "admissionChecks",
        "admissionChecksStrategy"));
    List<String> checks = new ArrayList<>();
    JsonArray named = array(spec, "admissionChecks", "spec.admissionChecks", ctx);
    for (int i = 0; i < named.size(); i++) {
      if (!named.get(i).isJsonPrimitive()) {
        throw ctx.fail("spec.admissionChecks[" + i + "]", "expected a name");
      }
      checks.add(named.get(i).getAsString());
    }
    JsonObject checkStrategy = object(spec, "admissionChecksStrategy", ctx);
    if (checkStrategy != null) {
      List<JsonObject> rules = objects(checkStrategy, "admissionChecks", ctx);
      for (JsonObject rule : rules) {
        if (string(rule, "name") != null && !checks.contains(string(rule, "name"))) {
          checks.add(string(rule, "name"));
        }
        if (rule.has("onFlavors")) {
          unsupported.add("spec.admissionChecksStrategy.admissionChecks[].onFlavors (every check runs on every "
              + "flavor)");
        }
      }
    }
    JsonElement selector = spec.get("namespaceSelector");
    if (selector != null && selector.isJsonObject() && !selector.getAsJsonObject().isEmpty()) {
      unsupported.add("spec.namespaceSelector (every namespace's LocalQueue is admitted)");
    }
    String strategy = string(spec, "queueingStrategy");
    if (strategy != null && !strategy.equals("StrictFIFO") && !strategy.equals("BestEffortFIFO")) {
      throw ctx.fail("spec.queueingStrategy", "expected StrictFIFO or BestEffortFIFO, got '" + strategy + "'");
    }
    JsonObject fungibility = object(spec, "flavorFungibility", ctx);
    boolean tryNext = fungibility != null && "TryNextFlavor".equals(string(fungibility, "whenCanBorrow"));
    if (fungibility != null && fungibility.has("whenCanPreempt")) {
      unsupported.add("spec.flavorFungibility.whenCanPreempt (admission never preempts)");
    }
    String cohort = string(spec, "cohortName") != null ? string(spec, "cohortName") : string(spec, "cohort");
    return new KueueRecord.ClusterQueue(name(q.getMetadata(), ctx), Conversion.emptyToNull(cohort),
        resourceGroups(spec, ctx), "StrictFIFO".equals(strategy), tryNext, weight(spec, ctx), stopped(spec),
        Conversion.strings(q.getMetadata().getAnnotations()), unsupported, checks);
  }

  static KueueRecord.AdmissionCheck admissionCheck(KueueObjects.AdmissionCheck a) {
    Ctx ctx = Ctx.clusterScoped("AdmissionCheck", a.getMetadata());
    JsonObject spec = a.getSpec() == null ? new JsonObject() : a.getSpec();
    List<String> unsupported = unknown(spec, Set.of("controllerName", "parameters", "retryDelayMinutes"));
    String controller = string(spec, "controllerName");
    if (controller == null || controller.isEmpty()) {
      throw ctx.fail("spec.controllerName", "missing");
    }
    JsonObject parameters = object(spec, "parameters", ctx);
    String config = parameters != null && "ProvisioningRequestConfig".equals(string(parameters, "kind"))
        ? string(parameters, "name") : null;
    return new KueueRecord.AdmissionCheck(name(a.getMetadata(), ctx), controller, config, unsupported);
  }

  static KueueRecord.ProvisioningConfig provisioningConfig(KueueObjects.ProvisioningRequestConfig c) {
    Ctx ctx = Ctx.clusterScoped("ProvisioningRequestConfig", c.getMetadata());
    JsonObject spec = c.getSpec() == null ? new JsonObject() : c.getSpec();
    List<String> unsupported = unknown(spec, Set.of("provisioningClassName", "parameters", "managedResources",
        "retryStrategy"));
    String className = string(spec, "provisioningClassName");
    if (className == null || className.isEmpty()) {
      throw ctx.fail("spec.provisioningClassName", "missing");
    }
    List<String> managed = new ArrayList<>();
    JsonArray m = array(spec, "managedResources", "spec.managedResources", ctx);
    for (int i = 0; i < m.size(); i++) {
      managed.add(m.get(i).getAsString());
    }
    int limit = 3;
    long base = 60;
    long max = 1800;
    JsonObject retry = object(spec, "retryStrategy", ctx);
    if (retry != null) {
      limit = retry.has("backoffLimitCount") ? retry.get("backoffLimitCount").getAsInt() : limit;
      base = retry.has("backoffBaseSeconds") ? retry.get("backoffBaseSeconds").getAsLong() : base;
      max = retry.has("backoffMaxSeconds") ? retry.get("backoffMaxSeconds").getAsLong() : max;
      if (limit < 0 || base < 0 || max < 0) {
        throw ctx.fail("spec.retryStrategy", "counts and seconds must not be negative");
      }
    }
    return new KueueRecord.ProvisioningConfig(name(c.getMetadata(), ctx), className,
        strings(spec, "parameters", ctx), managed, limit, base, max, unsupported);
  }

  static KueueRecord.LocalQueue localQueue(KueueObjects.LocalQueue q) {
    Ctx ctx = Ctx.namespaced("LocalQueue", q.getMetadata());
    JsonObject spec = q.getSpec() == null ? new JsonObject() : q.getSpec();
    List<String> unsupported = unknown(spec, Set.of("clusterQueue", "stopPolicy"));
    String cq = string(spec, "clusterQueue");
    if (cq == null || cq.isEmpty()) {
      throw ctx.fail("spec.clusterQueue", "missing");
    }
    return new KueueRecord.LocalQueue(Conversion.namespaceOf(q.getMetadata()), name(q.getMetadata(), ctx), cq,
        stopped(spec), unsupported);
  }

  static KueueRecord.Cohort cohort(KueueObjects.Cohort c) {
    Ctx ctx = Ctx.clusterScoped("Cohort", c.getMetadata());
    JsonObject spec = c.getSpec() == null ? new JsonObject() : c.getSpec();
    List<String> unsupported = unknown(spec, Set.of("parent", "parentName", "resourceGroups", "fairSharing"));
    String parent = string(spec, "parentName") != null ? string(spec, "parentName") : string(spec, "parent");
    return new KueueRecord.Cohort(name(c.getMetadata(), ctx), Conversion.emptyToNull(parent),
        resourceGroups(spec, ctx), weight(spec, ctx), unsupported);
  }

  static KueueRecord.PriorityClass priorityClass(KueueObjects.WorkloadPriorityClass p) {
    Ctx ctx = Ctx.clusterScoped("WorkloadPriorityClass", p.getMetadata());
    if (p.getValue() == null) {
      throw ctx.fail("value", "missing");
    }
    return new KueueRecord.PriorityClass(name(p.getMetadata(), ctx), p.getValue(), List.of());
  }

  static KueueRecord.Topology topology(KueueObjects.Topology t) {
    Ctx ctx = Ctx.clusterScoped("Topology", t.getMetadata());
    JsonObject spec = t.getSpec() == null ? new JsonObject() : t.getSpec();
    List<String> levels = new ArrayList<>();
    List<JsonObject> ls = objects(spec, "levels", ctx);
    for (int i = 0; i < ls.size(); i++) {
      String label = string(ls.get(i), "nodeLabel");
      if (label == null || label.isEmpty()) {
        throw ctx.fail("spec.levels[" + i + "].nodeLabel", "missing");
      }
      levels.add(label);
    }
    if (levels.isEmpty()) {
      throw ctx.fail("spec.levels", "no levels: a Topology needs at least one");
    }
    return new KueueRecord.Topology(name(t.getMetadata(), ctx), levels, unknown(spec, Set.of("levels")));
  }

  private static List<KueueRecord.ResourceGroup> resourceGroups(JsonObject spec, Ctx ctx) {
    List<KueueRecord.ResourceGroup> groups = new ArrayList<>();
    JsonArray rgs = array(spec, "resourceGroups", "spec.resourceGroups", ctx);
    for (int g = 0; g < rgs.size(); g++) {
      String path = "spec.resourceGroups[" + g + "]";
      JsonObject rg = asObject(rgs.get(g), path, ctx);
      List<String> covered = new ArrayList<>();
      JsonArray cr = array(rg, "coveredResources", path + ".coveredResources", ctx);
      for (int i = 0; i < cr.size(); i++) {
        if (!cr.get(i).isJsonPrimitive()) {
          throw ctx.fail(path + ".coveredResources[" + i + "]", "expected a resource name");
        }
        covered.add(cr.get(i).getAsString());
      }
      List<KueueRecord.FlavorQuotas> flavors = new ArrayList<>();
      JsonArray fs = array(rg, "flavors", path + ".flavors", ctx);
      for (int f = 0; f < fs.size(); f++) {
        String fpath = path + ".flavors[" + f + "]";
        JsonObject fo = asObject(fs.get(f), fpath, ctx);
        String flavor = string(fo, "name");
        if (flavor == null || flavor.isEmpty()) {
          throw ctx.fail(fpath + ".name", "missing");
        }
        List<KueueRecord.Quota> quotas = new ArrayList<>();
        JsonArray rs = array(fo, "resources", fpath + ".resources", ctx);
        for (int r = 0; r < rs.size(); r++) {
          String rpath = fpath + ".resources[" + r + "]";
          JsonObject ro = asObject(rs.get(r), rpath, ctx);
          String res = string(ro, "name");
          if (res == null || res.isEmpty()) {
            throw ctx.fail(rpath + ".name", "missing");
          }
          if (!covered.contains(res)) {
            throw ctx.fail(rpath + ".name", "'" + res + "' is not among the group's coveredResources");
          }
          Long nominal = amount(ro, "nominalQuota", res, rpath, ctx);
          quotas.add(new KueueRecord.Quota(res, nominal == null ? 0 : nominal,
              amount(ro, "borrowingLimit", res, rpath, ctx), amount(ro, "lendingLimit", res, rpath, ctx)));
        }
        flavors.add(new KueueRecord.FlavorQuotas(flavor, quotas));
      }
      groups.add(new KueueRecord.ResourceGroup(covered, flavors));
    }
    return groups;
  }

  private static Long amount(JsonObject o, String key, String resource, String path, Ctx ctx) {
    JsonElement e = o.get(key);
    if (e == null || e.isJsonNull()) {
      return null;
    }
    Quantity q;
    try {
      if (!e.isJsonPrimitive()) {
        throw new IllegalArgumentException();
      }
      q = new Quantity(e.getAsString());
    } catch (RuntimeException ex) {
      throw ctx.fail(path + "." + key, "not a quantity: '" + shown(e) + "'");
    }
    return Conversion.amount(resource, q, path + "." + key, ctx);
  }

  /** {@code fairSharing.weight}, a quantity; Basalt's queue weights are whole numbers, at least 1. */
  private static int weight(JsonObject spec, Ctx ctx) {
    JsonObject fs = object(spec, "fairSharing", ctx);
    JsonElement w = fs == null ? null : fs.get("weight");
    if (w == null || w.isJsonNull()) {
      return 1;
    }
    try {
      if (!w.isJsonPrimitive()) {
        throw new IllegalArgumentException();
      }
      double v = new Quantity(w.getAsString()).getNumber().doubleValue();
      return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(v)));
    } catch (RuntimeException e) {
      throw ctx.fail("spec.fairSharing.weight", "not a quantity: '" + shown(w) + "'");
    }
  }

  /** A value as messages quote it: short, whatever was written. */
  private static String shown(JsonElement e) {
    String s = e.isJsonPrimitive() ? e.getAsString() : e.toString();
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }

  private static boolean stopped(JsonObject spec) {
    String p = string(spec, "stopPolicy");
    return "Hold".equals(p) || "HoldAndDrain".equals(p);
  }

  private static List<String> unknown(JsonObject spec, Set<String> known) {
    List<String> out = new ArrayList<>();
    for (String k : spec.keySet()) {
      if (!known.contains(k)) {
        out.add("spec." + k);
      }
    }
    return out;
  }

  private static String name(V1ObjectMeta meta, Ctx ctx) {
    if (meta == null || Conversion.isBlank(meta.getName())) {
      throw ctx.fail("metadata.name", "missing");
    }
    return meta.getName();
  }

  static String string(JsonObject o, String key) {
    JsonElement e = o == null ? null : o.get(key);
    return e == null || e.isJsonNull() || !e.isJsonPrimitive() ? null : e.getAsString();
  }

  private static JsonObject object(JsonObject o, String key, Ctx ctx) {
    JsonElement e = o.get(key);
    if (e == null || e.isJsonNull()) {
      return null;
    }
    return asObject(e, "spec." + key, ctx);
  }

  private static JsonObject asObject(JsonElement e, String path, Ctx ctx) {
    if (!e.isJsonObject()) {
      throw ctx.fail(path, "expected a mapping");
    }
    return e.getAsJsonObject();
  }

  private static JsonArray array(JsonObject o, String key, String path, Ctx ctx) {
    JsonElement e = o.get(key);
    if (e == null || e.isJsonNull()) {
      return new JsonArray();
    }
    if (!e.isJsonArray()) {
      throw ctx.fail(path, "expected a list");
    }
    return e.getAsJsonArray();
  }

  private static List<JsonObject> objects(JsonObject spec, String key, Ctx ctx) {
    List<JsonObject> out = new ArrayList<>();
    JsonArray a = array(spec, key, "spec." + key, ctx);
    for (int i = 0; i < a.size(); i++) {
      out.add(asObject(a.get(i), "spec." + key + "[" + i + "]", ctx));
    }
    return out;
  }

  private static Map<String, String> strings(JsonObject spec, String key, Ctx ctx) {
    Map<String, String> out = new LinkedHashMap<>();
    JsonObject m = object(spec, key, ctx);
    if (m != null) {
      for (String k : m.keySet()) {
        if (!m.get(k).isJsonPrimitive()) {
          throw ctx.fail("spec." + key + "." + k, "expected a string");
        }
        out.put(k, m.get(k).getAsString());
      }
    }
    return out;
  }
}
