package io.basalt.dra;

/** A {@code resource.k8s.io/v1} ResourceClaimTemplate: the spec of the claims made from it for each pod. */
public record ClaimTemplate(String namespace, String name, ClaimSpec spec) {
  public String key() {
    return namespace + "/" + name;
  }
}
