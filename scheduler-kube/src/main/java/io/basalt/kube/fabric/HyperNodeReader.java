package io.basalt.kube.fabric;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.basalt.fabric.DomainSpec;
import io.basalt.fabric.FabricBuilder;
import io.basalt.model.Node;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Volcano {@code topology.volcano.sh/v1alpha1 HyperNode} objects to a {@link io.basalt.fabric.Fabric}: each HyperNode
 * is a domain of {@code spec.tier} (named {@code spec.tierName}), its {@code spec.members} resolved against the
 * cluster's nodes and the other HyperNodes. A member has {@code type: Node} or {@code HyperNode} and a selector with
 * exactly one of {@code exactMatch.name}, {@code regexMatch.pattern} (matched anywhere in the name, as Go's
 * {@code regexp.MatchString} does: anchor it with {@code ^...$} for whole names) or {@code labelMatch} (Node members
 * only: {@code matchLabels} and {@code matchExpressions} with In, NotIn, Exists, DoesNotExist, as a Kubernetes label
 * selector; an empty one matches every node).
 *
 * <p>Why the JSON trees and not a client-java model: HyperNode has none, and a wrong field must become a problem
 * naming the object and field ({@code HyperNode s0: spec.members[1].selector: exactly one of ...}), never an
 * exception. A bad member is dropped; a HyperNode without a name or a whole-number tier is ignored. The tree's own
 * rules (overlaps, cycles, tiers) are {@link FabricBuilder}'s.
 */
public final class HyperNodeReader {
  public static final String KIND = "HyperNode";

  private HyperNodeReader() {}

  /**
   * Builds the fabric of {@code hyperNodes} (HyperNode documents, as read) over {@code nodes}; the problems are this
   * reader's (one per bad object or member, in order) followed by {@link FabricBuilder}'s.
   */
  public static FabricBuilder.Result read(List<JsonObject> hyperNodes, List<Node> nodes) {
    List<String> problems = new ArrayList<>();
    Set<String> names = new TreeSet<>();
    for (JsonObject h : hyperNodes) {
      String name = name(h);
      if (name != null) {
        names.add(name);
      }
    }
    List<DomainSpec> specs = new ArrayList<>();
    for (JsonObject h : hyperNodes) {
      DomainSpec s = spec(h, names, nodes, problems);
      if (s != null) {
        specs.add(s);
      }
    }
    List<String> clusterNodes = nodes.stream().map(Node::name).toList();
    FabricBuilder.Result built = FabricBuilder.build(KIND, specs, clusterNodes, List.of());
    problems.addAll(built.problems());
    return new FabricBuilder.Result(built.fabric(), problems);
  }

  private static String name(JsonObject h) {
    JsonElement meta = h.get("metadata");
    JsonElement name = meta != null && meta.isJsonObject() ? meta.getAsJsonObject().get("name") : null;
    return name != null && name.isJsonPrimitive() && !name.getAsString().isEmpty() ? name.getAsString() : null;
  }

  private static DomainSpec spec(JsonObject h, Set<String> hyperNodes, List<Node> nodes, List<String> problems) {
    String name = name(h);
    if (name == null) {
      problems.add(KIND + " <unnamed>: metadata.name: missing, ignored");
      return null;
    }
    String at = KIND + " " + name + ": ";
    int tier;
    String tierName;
    JsonArray members;
    try {
      JsonObject spec = Json.object(h, "spec", "spec");
      Integer t = Json.integer(spec, "tier", "spec.tier");
      if (t == null) {
        throw new Json.Bad("spec.tier", "missing");
      }
      tier = t;
      tierName = Json.string(spec, "tierName", "spec.tierName");
      members = Json.array(spec, "members", "spec.members");
    } catch (Json.Bad e) {
      problems.add(at + e.field + ": " + e.getMessage() + ", ignored");
      return null;
    }
    Set<String> children = new LinkedHashSet<>();
    Set<String> memberNodes = new LinkedHashSet<>();
    for (int i = 0; members != null && i < members.size(); i++) {
      String field = "spec.members[" + i + "]";
      try {
        JsonObject m = Json.item(members, i, field);
        String type = Json.string(m, "type", field + ".type");
        if (!"Node".equals(type) && !KIND.equals(type)) {
          throw new Json.Bad(field + ".type", type == null ? "missing (Node or HyperNode)"
              : "'" + type + "' is neither Node nor HyperNode");
        }
        boolean isNode = "Node".equals(type);
        List<String> found = isNode ? select(m, field, nodes.stream().map(Node::name).sorted().toList(), nodes, true)
            : select(m, field, hyperNodes.stream().filter(n -> !n.equals(name)).toList(), nodes, false);
        (isNode ? memberNodes : children).addAll(found);
      } catch (Json.Bad e) {
        problems.add(at + e.field + ": " + e.getMessage());
      }
    }
    return new DomainSpec(name, tier, tierName, List.copyOf(children), List.copyOf(memberNodes));
  }

  /** The names among {@code candidates} (node or HyperNode names) that member {@code m}'s selector picks. */
  private static List<String> select(JsonObject m, String field, List<String> candidates, List<Node> nodes,
      boolean isNode) {
    String sel = field + ".selector";
    JsonObject selector = Json.object(m, "selector", sel);
    if (selector == null) {
      throw new Json.Bad(sel, "missing");
    }
    int given = (Json.present(selector, "exactMatch") ? 1 : 0) + (Json.present(selector, "regexMatch") ? 1 : 0)
        + (Json.present(selector, "labelMatch") ? 1 : 0);
    if (given != 1) {
      throw new Json.Bad(sel, "exactly one of exactMatch, regexMatch, labelMatch");
    }
    String what = isNode ? "node" : KIND;
    JsonObject exact = Json.object(selector, "exactMatch", sel + ".exactMatch");
    if (exact != null) {
      String name = Json.string(exact, "name", sel + ".exactMatch.name");
      if (name == null || name.isEmpty()) {
        throw new Json.Bad(sel + ".exactMatch.name", "missing");
      }
      if (!candidates.contains(name)) {
        throw new Json.Bad(sel + ".exactMatch.name", "no " + what + " '" + name + "'");
      }
      return List.of(name);
    }
    JsonObject regex = Json.object(selector, "regexMatch", sel + ".regexMatch");
    if (regex != null) {
      String text = Json.string(regex, "pattern", sel + ".regexMatch.pattern");
      if (text == null || text.isEmpty()) {
        throw new Json.Bad(sel + ".regexMatch.pattern", "missing");
      }
      String tooCostly = RegexBounds.problem(text);
      if (tooCostly != null) {
        throw new Json.Bad(sel + ".regexMatch.pattern", tooCostly + ": '" + text + "'");
      }
      Pattern p;
      try {
        // RE2: Go's syntax, as Volcano reads it, and linear time, so no pattern can backtrack forever.
        p = Pattern.compile(text);
      } catch (PatternSyntaxException e) {
        throw new Json.Bad(sel + ".regexMatch.pattern", "'" + text + "' is not a regular expression: "
            + e.getDescription());
      }
      List<String> found = candidates.stream().filter(n -> p.matcher(n).find()).toList();
      if (found.isEmpty()) {
        throw new Json.Bad(sel + ".regexMatch.pattern", "'" + text + "' matches no " + what);
      }
      return found;
    }
    String lm = sel + ".labelMatch";
    if (!isNode) {
      throw new Json.Bad(lm, "only for Node members");
    }
    Predicate<Map<String, String>> matches = labelSelector(Json.object(selector, "labelMatch", lm), lm);
    List<String> found = nodes.stream().filter(n -> matches.test(n.labels())).map(Node::name).sorted().toList();
    if (found.isEmpty()) {
      throw new Json.Bad(lm, "matches no node");
    }
    return found;
  }

  /** A Kubernetes label selector: every matchLabels pair and every matchExpressions requirement must hold. */
  private static Predicate<Map<String, String>> labelSelector(JsonObject s, String field) {
    List<Predicate<Map<String, String>>> all = new ArrayList<>();
    JsonObject labels = Json.object(s, "matchLabels", field + ".matchLabels");
    if (labels != null) {
      for (String key : labels.keySet()) {
        String value = Json.string(labels, key, field + ".matchLabels." + key);
        all.add(l -> value != null && value.equals(l.get(key)));
      }
    }
    JsonArray exprs = Json.array(s, "matchExpressions", field + ".matchExpressions");
    for (int i = 0; exprs != null && i < exprs.size(); i++) {
      String f = field + ".matchExpressions[" + i + "]";
      JsonObject e = Json.item(exprs, i, f);
      String key = Json.string(e, "key", f + ".key");
      String op = Json.string(e, "operator", f + ".operator");
      if (key == null || key.isEmpty()) {
        throw new Json.Bad(f + ".key", "missing");
      }
      JsonArray vs = Json.array(e, "values", f + ".values");
      Set<String> values = new TreeSet<>();
      for (int j = 0; vs != null && j < vs.size(); j++) {
        if (!vs.get(j).isJsonPrimitive()) {
          throw new Json.Bad(f + ".values[" + j + "]", "expected text, got " + vs.get(j));
        }
        values.add(vs.get(j).getAsString());
      }
      if (!List.of("In", "NotIn", "Exists", "DoesNotExist").contains(op)) {
        throw new Json.Bad(f + ".operator", op == null ? "missing" : "'" + op + "' is not In, NotIn, Exists or "
            + "DoesNotExist");
      }
      boolean needsValues = "In".equals(op) || "NotIn".equals(op);
      if (needsValues == values.isEmpty()) {
        throw new Json.Bad(f + ".values", needsValues ? "required for operator " + op
            : "must be empty for operator " + op);
      }
      all.add(switch (op) {
        case "In" -> l -> l.containsKey(key) && values.contains(l.get(key));
        case "NotIn" -> l -> !l.containsKey(key) || !values.contains(l.get(key));
        case "Exists" -> l -> l.containsKey(key);
        case "DoesNotExist" -> l -> !l.containsKey(key);
        default -> throw new IllegalStateException(op);
      });
    }
    return l -> all.stream().allMatch(p -> p.test(l));
  }
}
