package io.basalt.kube.kinds.resource;

import com.google.gson.JsonObject;
import io.basalt.dra.ClaimTemplate;
import io.basalt.kube.kinds.Records;

/** {@code resource.k8s.io/v1} ResourceClaimTemplate: {@code spec.spec} is the claims' spec. */
public final class ResourceClaimTemplateKind extends ResourceKind<ResourceClaimTemplateObject> {
  public ResourceClaimTemplateKind() {
    super(ResourceClaimTemplateObject.KIND, ResourceClaimTemplateObject.PLURAL, ResourceClaimTemplateObject.NAMESPACED,
        ResourceClaimTemplateObject.class, ResourceClaimTemplateObject.List.class);
  }

  @Override
  public void put(ResourceClaimTemplateObject o, Records out) {
    DraJson json = new DraJson(kind(), key(o));
    JsonObject spec = o.getSpec() == null ? null : json.object(o.getSpec(), "spec", "spec");
    out.claimTemplate(new ClaimTemplate(namespace(o.getMetadata()), o.getMetadata().getName(),
        json.claimSpec(spec, "spec.spec")));
  }

  @Override
  void gone(String key, Records.Removals out) {
    out.claimTemplateGone(key);
  }
}
