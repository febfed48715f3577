package io.basalt.kube.kinds.storage;

import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.model.LabelSelector;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The fields the storage kinds share: byte quantities, label selectors, node selector terms. */
final class StorageConversion {
  private static final Set<String> LABEL_OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

  private StorageConversion() {}

  /** {@code storage} of a resource list in bytes, rounded up; 0 when absent. */
  static long storage(Map<String, Quantity> list, String field, Ctx ctx) {
    Quantity q = list == null ? null : list.get("storage");
    return q == null ? 0 : bytes(q, field + ".storage", ctx);
  }

  static long bytes(Quantity q, String field, Ctx ctx) {
    BigDecimal n = q.getNumber();
    if (n.signum() < 0) {
      throw ctx.fail(field, "negative quantity '" + q.toSuffixedString() + "'");
    }
    BigDecimal up = n.setScale(0, java.math.RoundingMode.CEILING);
    return up.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : up.longValue();
  }

  /** Null for an absent selector. */
  static LabelSelector selector(V1LabelSelector s, String at, Ctx ctx) {
    if (s == null) {
      return null;
    }
    List<LabelSelector.Requirement> reqs = new ArrayList<>();
    List<V1LabelSelectorRequirement> exprs = s.getMatchExpressions();
    if (exprs != null) {
      for (int i = 0; i < exprs.size(); i++) {
        V1LabelSelectorRequirement r = exprs.get(i);
        String e = at + ".matchExpressions[" + i + "]";
        if (r == null || Conversion.isBlank(r.getKey())) {
          throw ctx.fail(e + ".key", "missing");
        }
        if (!LABEL_OPERATORS.contains(r.getOperator())) {
          throw ctx.fail(e + ".operator", "must be one of In, NotIn, Exists, DoesNotExist, got " + r.getOperator());
        }
        reqs.add(new LabelSelector.Requirement(r.getKey(), r.getOperator(), r.getValues()));
      }
    }
    return new LabelSelector(s.getMatchLabels() == null ? Map.of() : s.getMatchLabels(), reqs);
  }

  /** Node selector terms (matchExpressions and matchFields) as the engine matches them. */
  static List<NodeSelectorTerm> terms(List<V1NodeSelectorTerm> in, String path, Ctx ctx) {
    if (in == null) {
      return List.of();
    }
    List<NodeSelectorTerm> out = new ArrayList<>();
    for (int t = 0; t < in.size(); t++) {
      V1NodeSelectorTerm term = in.get(t);
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      if (term != null) {
        add(reqs, term.getMatchExpressions(), false, path + "[" + t + "].matchExpressions", ctx);
        add(reqs, term.getMatchFields(), true, path + "[" + t + "].matchFields", ctx);
      }
      out.add(new NodeSelectorTerm(reqs));
    }
    return out;
  }

  private static void add(List<NodeSelectorRequirement> out, List<V1NodeSelectorRequirement> in, boolean field,
      String path, Ctx ctx) {
    if (in == null) {
      return;
    }
    for (int i = 0; i < in.size(); i++) {
      V1NodeSelectorRequirement r = in.get(i);
      if (r == null || Conversion.isBlank(r.getKey())) {
        throw ctx.fail(path + "[" + i + "].key", "missing");
      }
      if (Conversion.isBlank(r.getOperator())) {
        throw ctx.fail(path + "[" + i + "].operator", "missing");
      }
      out.add(new NodeSelectorRequirement(r.getKey(), r.getOperator(), r.getValues(), field));
    }
  }
}
