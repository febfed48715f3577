package io.basalt.kube.fabric;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.basalt.fabric.DomainSpec;
import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * MetaX topo-master {@code node_group} JSON to a {@link Fabric}: a list of entries {@code {name, kind, status,
 * child[]}} nesting switchboxes (tier 2), dragonflies (tier 1) and nodes ({@code kind: node}); a bare list of
 * dragonflies, or the list under a {@code node_group} key, is fine too. The kind is the tier name, so Volcano's
 * {@code highestTierName: switchbox} works.
 *
 * <p>A node whose {@code status} is given and is not {@code Ready} is marked {@link Fabric#unready unready} (it stays
 * in its domain, but takes no new pods); an absent status is taken as Ready. A dragonfly's or switchbox's own status
 * is not used. An entry of an unknown kind, without a name, or of the wrong shape is one problem naming its place
 * ({@code node_group[0].child[1].kind: ...}) and is left out with everything below it; malformed JSON is one problem
 * and an empty fabric.
 */
public final class NodeGroupReader {
  /** The tier of each domain kind; {@code node} entries are the leaves. */
  public static final Map<String, Integer> TIERS = Map.of("dragonfly", 1, "switchbox", 2);

  private static final String NODE = "node";
  private static final String KIND = "node_group";

  private NodeGroupReader() {}

  /** Reads {@code file} (UTF-8); problems name it. */
  public static FabricBuilder.Result read(Path file, Collection<String> clusterNodes) throws IOException {
    return read(Files.readString(file, StandardCharsets.UTF_8), clusterNodes);
  }

  /**
   * @param json the node_group text
   * @param clusterNodes the cluster's node names, to report nodes the cluster does not have; null to take every node
   */
  public static FabricBuilder.Result read(String json, Collection<String> clusterNodes) {
    JsonElement root;
    try {
      root = JsonParser.parseString(json);
    } catch (JsonParseException e) {
      String m = String.valueOf((e.getCause() != null ? e.getCause() : e).getMessage());
      int see = m.indexOf("\nSee ");
      m = see >= 0 ? m.substring(0, see) : m;
      int path = m.indexOf(" path $"); // Gson's JSON path: 255 "[0]"s for a document nested too deep
      m = path >= 0 ? m.substring(0, path) : m;
      m = m.length() <= 200 ? m : m.substring(0, 200) + "...";
      return new FabricBuilder.Result(Fabric.EMPTY, List.of(KIND + ": malformed JSON: " + m));
    }
    if (root.isJsonObject() && root.getAsJsonObject().has(KIND)) {
      root = root.getAsJsonObject().get(KIND);
    }
    if (!root.isJsonArray()) {
      return new FabricBuilder.Result(Fabric.EMPTY, List.of(KIND + ": expected a list of switchboxes or dragonflies"));
    }
    Walk w = new Walk();
    w.entries(root.getAsJsonArray(), KIND);
    FabricBuilder.Result built = FabricBuilder.build(KIND, w.specs, clusterNodes, w.unready);
    w.problems.addAll(built.problems());
    return new FabricBuilder.Result(built.fabric(), w.problems);
  }

  private static final class Walk {
    final List<DomainSpec> specs = new ArrayList<>();
    final List<String> unready = new ArrayList<>();
    final List<String> problems = new ArrayList<>();

    /** Reads {@code entries}; returns the domain names among them, and puts their node names in {@code nodes}. */
    List<String> entries(JsonArray entries, String field, List<String> nodes) {
      List<String> domains = new ArrayList<>();
      for (int i = 0; i < entries.size(); i++) {
        String f = field + "[" + i + "]";
        try {
          JsonObject e = Json.item(entries, i, f);
          String name = Json.string(e, "name", f + ".name");
          String kind = Json.string(e, "kind", f + ".kind");
          if (name == null || name.isEmpty()) {
            throw new Json.Bad(f + ".name", "missing");
          }
          String status = Json.string(e, "status", f + ".status");
          JsonArray child = Json.array(e, "child", f + ".child");
          if (NODE.equals(kind)) {
            if (child != null && !child.isEmpty()) {
              problems.add(f + ".child: node '" + name + "' holds nothing, its child list ignored");
            }
            nodes.add(name);
            if (status != null && !"Ready".equals(status)) {
              unready.add(name);
            }
            continue;
          }
          Integer tier = kind == null ? null : TIERS.get(kind); // Map.of refuses a null key
          if (tier == null) {
            throw new Json.Bad(f + ".kind", kind == null ? "missing" : "unknown kind '" + kind + "' of '" + name
                + "' (expected switchbox, dragonfly or node), left out with everything below it");
          }
          List<String> own = new ArrayList<>();
          List<String> children = child == null ? List.of() : entries(child, f + ".child", own);
          specs.add(new DomainSpec(name, tier, kind, children, own));
          domains.add(name);
        } catch (Json.Bad b) {
          problems.add(b.field + ": " + b.getMessage());
        }
      }
      return domains;
    }

    void entries(JsonArray top, String field) {
      List<String> loose = new ArrayList<>();
      entries(top, field, loose); // top-level nodes belong to no domain: only their status counts
    }
  }
}
