package io.basalt.kube.kinds.core;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.NamespaceQuota;
import io.basalt.model.ResourceNames;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ResourceQuota;
import io.kubernetes.client.openapi.models.V1ResourceQuotaList;
import io.kubernetes.client.openapi.models.V1ScopedResourceSelectorRequirement;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * v1 {@code ResourceQuota}: the part of {@code spec.hard} that caps pods' requests and count ({@code requests.*} and
 * the bare {@code cpu}/{@code memory}, {@code pods}, {@code count/pods}), scoped by a PriorityClass
 * {@code scopeSelector}. Limits, storage, object counts and other scopes are listed as not enforced.
 */
public final class ResourceQuotaKind extends KindAdapter<V1ResourceQuota> {
  private static final Set<String> BARE = Set.of("cpu", "memory", "ephemeral-storage");

  public ResourceQuotaKind() {
    super("", "v1", "ResourceQuota", "resourcequotas", true, V1ResourceQuota.class, V1ResourceQuotaList.class);
  }

  /** The quota as Basalt enforces it; a malformed quantity fails naming its key. */
  public static NamespaceQuota toQuota(V1ResourceQuota q) {
    Ctx ctx = Ctx.namespaced("ResourceQuota", q.getMetadata());
    Map<String, Long> hard = new LinkedHashMap<>();
    List<String> unsupported = new ArrayList<>();
    Map<String, Quantity> spec = q.getSpec() == null || q.getSpec().getHard() == null ? Map.of()
        : q.getSpec().getHard();
    for (Map.Entry<String, Quantity> e : spec.entrySet()) {
      String key = e.getKey();
      String field = "spec.hard[" + key + "]";
      String resource;
      if (key.equals("pods") || key.equals("count/pods")) {
        resource = ResourceNames.PODS_NAME;
      } else if (key.startsWith("requests.") && !key.equals("requests.storage")) {
        resource = key.substring("requests.".length());
      } else if (BARE.contains(key)) {
        resource = key;
      } else {
        unsupported.add(key);
        continue;
      }
      long v = Conversion.amount(resource, e.getValue(), field, ctx);
      hard.merge(resource, v, Math::min);
    }
    NamespaceQuota.PriorityScope scope = NamespaceQuota.PriorityScope.ALL;
    if (q.getSpec() != null && q.getSpec().getScopes() != null) {
      q.getSpec().getScopes().forEach(s -> unsupported.add("spec.scopes " + s));
    }
    if (q.getSpec() != null && q.getSpec().getScopeSelector() != null
        && q.getSpec().getScopeSelector().getMatchExpressions() != null) {
      for (V1ScopedResourceSelectorRequirement r : q.getSpec().getScopeSelector().getMatchExpressions()) {
        if ("PriorityClass".equals(r.getScopeName()) && scope == NamespaceQuota.PriorityScope.ALL) {
          scope = new NamespaceQuota.PriorityScope(r.getOperator(), Set.copyOf(r.getValues() == null ? List.of()
              : r.getValues()));
        } else {
          unsupported.add("spec.scopeSelector " + r.getScopeName());
        }
      }
    }
    return new NamespaceQuota(Conversion.namespaceOf(q.getMetadata()), q.getMetadata().getName(), hard, scope,
        unsupported);
  }

  @Override
  public void put(V1ResourceQuota q, Records out) {
    out.resourceQuota(toQuota(q));
  }

  @Override
  public void remove(V1ResourceQuota q, String key, Records.Removals out) {
    out.resourceQuotaGone(key);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1ResourceQuota.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.IF_LISTABLE;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    CoreV1Api core = new CoreV1Api(client);
    return p -> core.listResourceQuotaForAllNamespaces().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
