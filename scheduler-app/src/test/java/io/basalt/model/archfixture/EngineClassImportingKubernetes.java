package io.basalt.model.archfixture;

import io.kubernetes.client.openapi.models.V1Pod;

/** Breaks the engine rule on purpose (an engine package using client-java), for ArchitectureTest's own test. */
public final class EngineClassImportingKubernetes {
  public String name(V1Pod pod) {
    return pod.getMetadata().getName();
  }
}
