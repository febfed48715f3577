package io.basalt.kube.fake;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Discovery documents generated from {@link Resources}: {@code /version}, {@code /api} (APIVersions), {@code /apis}
 * (APIGroupList) and {@code /api/v1}, {@code /apis/GROUP/VERSION} (APIResourceList), shaped as apimachinery
 * meta/v1 types.go {@code APIVersions}, {@code APIGroupList}, {@code APIResourceList} and version.Info.
 */
final class Discovery {
  private static final List<String> OBJECT_VERBS = List.of("create", "delete", "get", "list", "patch", "update",
      "watch");

  private Discovery() {
  }

  static Optional<JsonObject> document(String path, String hostPort) {
    String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    if (p.equals("/version")) {
      return Optional.of(version());
    }
    if (p.equals("/api")) {
      JsonObject o = new JsonObject();
      o.addProperty("kind", "APIVersions");
      o.add("versions", Json.array(new JsonPrimitive("v1")));
      JsonObject addr = new JsonObject();
      addr.addProperty("clientCIDR", "0.0.0.0/0");
      addr.addProperty("serverAddress", hostPort);
      o.add("serverAddressByClientCIDRs", Json.array(addr));
      return Optional.of(o);
    }
    if (p.equals("/apis")) {
      return Optional.of(groups());
    }
    for (ResourceType t : Resources.all()) {
      if (p.equals(t.prefix())) {
        return Optional.of(resources(t.group(), t.version()));
      }
    }
    return Optional.empty();
  }

  private static JsonObject version() {
    JsonObject o = new JsonObject();
    o.addProperty("major", "1");
    o.addProperty("minor", "33");
    o.addProperty("gitVersion", "v1.33.0-basalt-fake");
    o.addProperty("gitCommit", "0000000000000000000000000000000000000000");
    o.addProperty("gitTreeState", "clean");
    o.addProperty("buildDate", "2025-01-01T00:00:00Z");
    o.addProperty("goVersion", "go1.24.0");
    o.addProperty("compiler", "gc");
    o.addProperty("platform", "linux/amd64");
    return o;
  }

  private static JsonObject groups() {
    Map<String, String> versions = new LinkedHashMap<>();
    Resources.all().stream().filter(t -> !t.group().isEmpty()).forEach(t -> versions.putIfAbsent(t.group(),
        t.version()));
    JsonArray groups = new JsonArray();
    versions.forEach((group, version) -> {
      JsonObject gv = new JsonObject();
      gv.addProperty("groupVersion", group + "/" + version);
      gv.addProperty("version", version);
      JsonObject g = new JsonObject();
      g.addProperty("name", group);
      g.add("versions", Json.array(gv));
      g.add("preferredVersion", gv.deepCopy());
      groups.add(g);
    });
    JsonObject o = new JsonObject();
    o.addProperty("kind", "APIGroupList");
    o.addProperty("apiVersion", "v1");
    o.add("groups", groups);
    return o;
  }

  private static JsonObject resources(String group, String version) {
    JsonArray list = new JsonArray();
    for (ResourceType t : Resources.all()) {
      if (!t.group().equals(group) || !t.version().equals(version)) {
        continue;
      }
      list.add(resource(t.plural(), t, OBJECT_VERBS));
      if (t.hasStatusSubresource()) {
        list.add(resource(t.plural() + "/status", t, List.of("get", "patch", "update")));
      }
      if (t.equals(Resources.PODS)) {
        JsonObject binding = resource("pods/binding", t, List.of("create"));
        binding.addProperty("kind", "Binding");
        list.add(binding);
        JsonObject eviction = resource("pods/eviction", t, List.of("create"));
        eviction.addProperty("group", "policy");
        eviction.addProperty("version", "v1");
        eviction.addProperty("kind", "Eviction");
        list.add(eviction);
      }
    }
    JsonObject o = new JsonObject();
    o.addProperty("kind", "APIResourceList");
    o.addProperty("apiVersion", "v1");
    o.addProperty("groupVersion", group.isEmpty() ? version : group + "/" + version);
    o.add("resources", list);
    return o;
  }

  private static JsonObject resource(String name, ResourceType t, List<String> verbs) {
    JsonObject r = new JsonObject();
    r.addProperty("name", name);
    r.addProperty("singularName", name.contains("/") ? "" : t.kind().toLowerCase(Locale.ROOT));
    r.addProperty("namespaced", t.namespaced());
    r.addProperty("kind", t.kind());
    JsonArray v = new JsonArray();
    verbs.forEach(v::add);
    r.add("verbs", v);
    return r;
  }
}
