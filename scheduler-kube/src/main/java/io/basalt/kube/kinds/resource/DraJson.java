package io.basalt.kube.kinds.resource;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.basalt.dra.AllocatedDevice;
import io.basalt.dra.Allocation;
import io.basalt.dra.ClaimSpec;
import io.basalt.dra.Device;
import io.basalt.dra.DeviceClass;
import io.basalt.dra.DeviceId;
import io.basalt.dra.DeviceRequest;
import io.basalt.dra.MatchConstraint;
import io.basalt.dra.ResourceClaim;
import io.basalt.dra.ResourceSlice;
import io.basalt.kube.kinds.KubeConversionException;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Quantities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the fields of {@code resource.k8s.io/v1} objects Basalt uses into {@code io.basalt.dra} records; a field of
 * the wrong type fails naming it, as the API server would have refused the object. Fields not read: device taints
 * and tolerations, partitionable devices' counters, consumable capacity, opaque configs.
 */
final class DraJson {
  private final String kind;
  private final String object;

  DraJson(String kind, String object) {
    this.kind = kind;
    this.object = object;
  }

  DeviceClass deviceClass(String name, JsonObject spec) {
    return new DeviceClass(name, selectors(spec, "spec"));
  }

  ResourceSlice slice(String name, JsonObject spec) {
    if (spec == null) {
      throw fail("spec", "missing");
    }
    String driver = string(spec, "driver", "spec.driver", true);
    JsonObject pool = object(spec, "pool", "spec.pool");
    if (pool == null) {
      throw fail("spec.pool", "missing");
    }
    String poolName = string(pool, "name", "spec.pool.name", true);
    long generation = number(pool, "generation", "spec.pool.generation", 0);
    long count = number(pool, "resourceSliceCount", "spec.pool.resourceSliceCount", 1);
    String nodeName = string(spec, "nodeName", "spec.nodeName", false);
    boolean allNodes = bool(spec, "allNodes", "spec.allNodes");
    List<NodeSelectorTerm> selector = nodeSelector(object(spec, "nodeSelector", "spec.nodeSelector"),
        "spec.nodeSelector");
    if ((nodeName != null ? 1 : 0) + (allNodes ? 1 : 0) + (selector.isEmpty() ? 0 : 1) != 1) {
      throw fail("spec", "exactly one of nodeName, nodeSelector and allNodes must be set");
    }
    List<Device> devices = new ArrayList<>();
    JsonArray list = array(spec, "devices", "spec.devices");
    for (int i = 0; list != null && i < list.size(); i++) {
      devices.add(device(driver, element(list, i, "spec.devices"), "spec.devices[" + i + "]"));
    }
    return new ResourceSlice(name, driver, poolName, generation, count, nodeName, selector, allNodes, devices);
  }

  private Device device(String driver, JsonObject d, String at) {
    String name = string(d, "name", at + ".name", true);
    Map<String, Object> attributes = new LinkedHashMap<>();
    JsonObject attrs = object(d, "attributes", at + ".attributes");
    if (attrs != null) {
      for (Map.Entry<String, JsonElement> e : attrs.entrySet()) {
        String path = at + ".attributes[" + e.getKey() + "]";
        attributes.put(Device.qualify(driver, e.getKey()), attribute(asObject(e.getValue(), path), path));
      }
    }
    Map<String, Long> capacity = new LinkedHashMap<>();
    JsonObject caps = object(d, "capacity", at + ".capacity");
    if (caps != null) {
      for (Map.Entry<String, JsonElement> e : caps.entrySet()) {
        String path = at + ".capacity[" + e.getKey() + "].value";
        String value = string(asObject(e.getValue(), path), "value", path, true);
        try {
          BigDecimal v = Quantities.parseDecimal(e.getKey(), value);
          capacity.put(Device.qualify(driver, e.getKey()), v.setScale(0, RoundingMode.CEILING).longValueExact());
        } catch (ArithmeticException | IllegalArgumentException x) {
          throw fail(path, "bad quantity '" + value + "'");
        }
      }
    }
    return new Device(name, attributes, capacity);
  }

  /** One of {@code int}, {@code bool}, {@code string}, {@code version}. */
  private Object attribute(JsonObject a, String at) {
    if (a.has("int")) {
      return number(a, "int", at + ".int", 0);
    }
    if (a.has("bool")) {
      return bool(a, "bool", at + ".bool");
    }
    if (a.has("string")) {
      return string(a, "string", at + ".string", true);
    }
    if (a.has("version")) {
      return string(a, "version", at + ".version", true);
    }
    throw fail(at, "one of int, bool, string or version must be set");
  }

  ClaimSpec claimSpec(JsonObject spec, String at) {
    JsonObject devices = spec == null ? null : object(spec, "devices", at + ".devices");
    List<DeviceRequest> requests = new ArrayList<>();
    List<MatchConstraint> constraints = new ArrayList<>();
    if (devices != null) {
      JsonArray rs = array(devices, "requests", at + ".devices.requests");
      for (int i = 0; rs != null && i < rs.size(); i++) {
        String p = at + ".devices.requests[" + i + "]";
        requests.add(request(element(rs, i, at + ".devices.requests"), p));
      }
      JsonArray cs = array(devices, "constraints", at + ".devices.constraints");
      for (int i = 0; cs != null && i < cs.size(); i++) {
        String p = at + ".devices.constraints[" + i + "]";
        JsonObject c = element(cs, i, at + ".devices.constraints");
        constraints.add(new MatchConstraint(strings(c, "requests", p + ".requests"),
            string(c, "matchAttribute", p + ".matchAttribute", false)));
      }
    }
    return new ClaimSpec(requests, constraints);
  }

  private DeviceRequest request(JsonObject r, String at) {
    String name = string(r, "name", at + ".name", true);
    JsonObject exactly = object(r, "exactly", at + ".exactly");
    JsonArray first = array(r, "firstAvailable", at + ".firstAvailable");
    if ((exactly == null) == (first == null)) {
      throw fail(at, "exactly one of exactly and firstAvailable must be set");
    }
    if (exactly != null) {
      return exact(name, exactly, at + ".exactly");
    }
    List<DeviceRequest> subs = new ArrayList<>();
    for (int i = 0; i < first.size(); i++) {
      String p = at + ".firstAvailable[" + i + "]";
      JsonObject s = element(first, i, at + ".firstAvailable");
      subs.add(exact(string(s, "name", p + ".name", true), s, p));
    }
    return new DeviceRequest(name, null, List.of(), null, 0, false, subs);
  }

  private DeviceRequest exact(String name, JsonObject e, String at) {
    String mode = string(e, "allocationMode", at + ".allocationMode", false);
    if (mode != null && !mode.equals(DeviceRequest.EXACT_COUNT) && !mode.equals(DeviceRequest.ALL)) {
      throw fail(at + ".allocationMode", "'" + mode + "' is neither ExactCount nor All");
    }
    long count = number(e, "count", at + ".count", 1);
    if (count < 1) {
      throw fail(at + ".count", "must be at least 1");
    }
    return new DeviceRequest(name, string(e, "deviceClassName", at + ".deviceClassName", true), selectors(e, at),
        mode, count, bool(e, "adminAccess", at + ".adminAccess"), List.of());
  }

  ResourceClaim claim(String namespace, String name, String uid, JsonObject spec, JsonObject status) {
    ClaimSpec s = claimSpec(spec, "spec");
    Allocation allocation = null;
    List<String> reserved = new ArrayList<>();
    if (status != null) {
      JsonObject a = object(status, "allocation", "status.allocation");
      if (a != null) {
        allocation = allocation(a, "status.allocation");
      }
      JsonArray rf = array(status, "reservedFor", "status.reservedFor");
      for (int i = 0; rf != null && i < rf.size(); i++) {
        String p = "status.reservedFor[" + i + "]";
        JsonObject ref = element(rf, i, "status.reservedFor");
        String refUid = string(ref, "uid", p + ".uid", false);
        reserved.add(refUid != null ? refUid : namespace + "/" + string(ref, "name", p + ".name", true));
      }
    }
    return new ResourceClaim(namespace, name, uid == null || uid.isEmpty() ? namespace + "/" + name : uid, s,
        allocation, reserved);
  }

  private Allocation allocation(JsonObject a, String at) {
    List<AllocatedDevice> results = new ArrayList<>();
    JsonObject devices = object(a, "devices", at + ".devices");
    JsonArray rs = devices == null ? null : array(devices, "results", at + ".devices.results");
    for (int i = 0; rs != null && i < rs.size(); i++) {
      String p = at + ".devices.results[" + i + "]";
      JsonObject r = element(rs, i, at + ".devices.results");
      results.add(new AllocatedDevice(string(r, "request", p + ".request", true),
          new DeviceId(string(r, "driver", p + ".driver", true), string(r, "pool", p + ".pool", true),
              string(r, "device", p + ".device", true)), bool(r, "adminAccess", p + ".adminAccess")));
    }
    return new Allocation(results, allocatedNode(object(a, "nodeSelector", at + ".nodeSelector")));
  }

  /** The node an allocation's {@code nodeSelector} names by {@code metadata.name}, as allocators write it; or null. */
  private static String allocatedNode(JsonObject selector) {
    if (selector == null || !selector.has("nodeSelectorTerms")) {
      return null;
    }
    for (JsonElement t : selector.getAsJsonArray("nodeSelectorTerms")) {
      JsonElement fields = t.getAsJsonObject().get("matchFields");
      if (fields != null && fields.isJsonArray()) {
        for (JsonElement f : fields.getAsJsonArray()) {
          JsonObject r = f.getAsJsonObject();
          if ("metadata.name".equals(r.get("key").getAsString()) && "In".equals(r.get("operator").getAsString())
              && r.getAsJsonArray("values").size() == 1) {
            return r.getAsJsonArray("values").get(0).getAsString();
          }
        }
      }
    }
    return null;
  }

  private List<NodeSelectorTerm> nodeSelector(JsonObject s, String at) {
    List<NodeSelectorTerm> out = new ArrayList<>();
    JsonArray terms = s == null ? null : array(s, "nodeSelectorTerms", at + ".nodeSelectorTerms");
    for (int i = 0; terms != null && i < terms.size(); i++) {
      String p = at + ".nodeSelectorTerms[" + i + "]";
      JsonObject t = element(terms, i, at + ".nodeSelectorTerms");
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      requirements(t, "matchExpressions", p, false, reqs);
      requirements(t, "matchFields", p, true, reqs);
      out.add(new NodeSelectorTerm(reqs));
    }
    return out;
  }

  private void requirements(JsonObject t, String field, String at, boolean fields, List<NodeSelectorRequirement> out) {
    JsonArray list = array(t, field, at + "." + field);
    for (int i = 0; list != null && i < list.size(); i++) {
      String p = at + "." + field + "[" + i + "]";
      JsonObject r = element(list, i, at + "." + field);
      out.add(new NodeSelectorRequirement(string(r, "key", p + ".key", true),
          string(r, "operator", p + ".operator", true), strings(r, "values", p + ".values"), fields));
    }
  }

  /** {@code selectors[].cel.expression} of a class or request. */
  private List<String> selectors(JsonObject parent, String at) {
    List<String> out = new ArrayList<>();
    JsonArray list = parent == null ? null : array(parent, "selectors", at + ".selectors");
    for (int i = 0; list != null && i < list.size(); i++) {
      String p = at + ".selectors[" + i + "]";
      JsonObject cel = object(element(list, i, at + ".selectors"), "cel", p + ".cel");
      if (cel == null) {
        throw fail(p + ".cel", "missing");
      }
      out.add(string(cel, "expression", p + ".cel.expression", true));
    }
    return out;
  }

  // ---- typed field access, failing with the field's path ----

  JsonObject object(JsonObject parent, String key, String at) {
    JsonElement e = parent.get(key);
    return e == null || e.isJsonNull() ? null : asObject(e, at);
  }

  private JsonObject asObject(JsonElement e, String at) {
    if (!e.isJsonObject()) {
      throw fail(at, "not an object");
    }
    return e.getAsJsonObject();
  }

  private JsonArray array(JsonObject parent, String key, String at) {
    JsonElement e = parent.get(key);
    if (e == null || e.isJsonNull()) {
      return null;
    }
    if (!e.isJsonArray()) {
      throw fail(at, "not a list");
    }
    return e.getAsJsonArray();
  }

  private JsonObject element(JsonArray list, int i, String at) {
    return asObject(list.get(i), at + "[" + i + "]");
  }

  private String string(JsonObject parent, String key, String at, boolean required) {
    JsonElement e = parent.get(key);
    if (e == null || e.isJsonNull()) {
      if (required) {
        throw fail(at, "missing");
      }
      return null;
    }
    if (!e.isJsonPrimitive()) {
      throw fail(at, "not a string");
    }
    return e.getAsString();
  }

  private long number(JsonObject parent, String key, String at, long absent) {
    JsonElement e = parent.get(key);
    if (e == null || e.isJsonNull()) {
      return absent;
    }
    try {
      if (e.isJsonPrimitive() && ((JsonPrimitive) e).isNumber()) {
        return new BigDecimal(e.getAsString()).longValueExact();
      }
    } catch (ArithmeticException | NumberFormatException x) {
      // falls through to the failure
    }
    throw fail(at, "not an integer: " + e);
  }

  private boolean bool(JsonObject parent, String key, String at) {
    JsonElement e = parent.get(key);
    if (e == null || e.isJsonNull()) {
      return false;
    }
    if (!e.isJsonPrimitive() || !((JsonPrimitive) e).isBoolean()) {
      throw fail(at, "not a bool: " + e);
    }
    return e.getAsBoolean();
  }

  private List<String> strings(JsonObject parent, String key, String at) {
    JsonArray list = array(parent, key, at);
    List<String> out = new ArrayList<>();
    for (int i = 0; list != null && i < list.size(); i++) {
      if (!list.get(i).isJsonPrimitive()) {
        throw fail(at + "[" + i + "]", "not a string");
      }
      out.add(list.get(i).getAsString());
    }
    return out;
  }

  private KubeConversionException fail(String field, String problem) {
    return new KubeConversionException(kind, object, field, problem);
  }
}
