package io.basalt.model;

import java.util.List;

/**
 * A StorageClass: who provisions its volumes, when claims of it bind, and where it may provision.
 *
 * @param allowedTopologies {@code allowedTopologies} as node selector terms (OR'ed); empty allows every node
 * @param isDefault annotated {@value #DEFAULT_ANNOTATION} {@code "true"} (or its beta form)
 * @param createdMillis {@code metadata.creationTimestamp} in epoch milliseconds, 0 when absent: of several default
 *     classes the newest is the default, as kube's admission and PV controller choose it
 */
public record StorageClass(String name, String provisioner, String volumeBindingMode,
    List<NodeSelectorTerm> allowedTopologies, boolean isDefault, long createdMillis) {
  public static final String DEFAULT_ANNOTATION = "storageclass.kubernetes.io/is-default-class";
  public static final String BETA_DEFAULT_ANNOTATION = "storageclass.beta.kubernetes.io/is-default-class";
  public static final String WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer";
  /** The provisioner of classes whose volumes are created by hand (local static PVs): nothing is provisioned. */
  public static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";

  public StorageClass {
    allowedTopologies = allowedTopologies == null ? List.of() : List.copyOf(allowedTopologies);
  }

  /** A class that is not the default. */
  public StorageClass(String name, String provisioner, String volumeBindingMode,
      List<NodeSelectorTerm> allowedTopologies) {
    this(name, provisioner, volumeBindingMode, allowedTopologies, false, 0);
  }

  /** Whether claims of this class wait for their pod's node before binding ({@code WaitForFirstConsumer}). */
  public boolean waitsForFirstConsumer() {
    return WAIT_FOR_FIRST_CONSUMER.equals(volumeBindingMode);
  }

  /** Whether the class provisions volumes at all. */
  public boolean provisions() {
    return provisioner != null && !provisioner.isEmpty() && !NO_PROVISIONER.equals(provisioner);
  }

  /** Whether the class may provision a volume reachable from {@code node}. */
  public boolean allowsTopologyOf(Node node) {
    if (allowedTopologies.isEmpty()) {
      return true;
    }
    for (int i = 0, n = allowedTopologies.size(); i < n; i++) {
      if (allowedTopologies.get(i).matches(node)) {
        return true;
      }
    }
    return false;
  }
}
