package io.basalt.kube.kueue;

import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * What one Kueue object means to Basalt, as its adapter hands it to {@link io.basalt.kube.kinds.Records#kueue}.
 * Quantities are in the engine's units ({@link io.basalt.model.ResourceVector}'s). Every record lists the fields its
 * object sets that Basalt does not act on ({@code unsupported}), so they are named in a warning, never dropped unseen.
 */
public sealed interface KueueRecord {
  /** The object's name (a LocalQueue's without its namespace). */
  String name();

  /** Fields set on the object that Basalt does not act on, as paths ({@code spec.admissionChecks}). */
  List<String> unsupported();

  /** {@code Kind name} or {@code Kind namespace/name}, as warnings name the object. */
  String display();

  /** A ResourceFlavor: the nodes it stands for (labels, taints) and the tolerations its workloads get. */
  record Flavor(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations,
      List<String> unsupported) implements KueueRecord {
    public Flavor {
      nodeLabels = Map.copyOf(nodeLabels);
      nodeTaints = List.copyOf(nodeTaints);
      tolerations = List.copyOf(tolerations);
      unsupported = List.copyOf(unsupported);
    }

    @Override
    public String display() {
      return "ResourceFlavor " + name;
    }
  }

  /**
   * One resource's quota in one flavor.
   *
   * @param borrowingLimit null when unset: unlimited within the cohort
   * @param lendingLimit null when unset: all of the nominal quota may be lent
   */
  record Quota(String resource, long nominal, Long borrowingLimit, Long lendingLimit) {}

  /** A flavor of a resource group, with a quota per covered resource. */
  record FlavorQuotas(String flavor, List<Quota> resources) {
    public FlavorQuotas {
      resources = List.copyOf(resources);
    }

    public Quota quota(String resource) {
      for (Quota q : resources) {
        if (q.resource().equals(resource)) {
          return q;
        }
      }
      return null;
    }
  }

  /** {@code resourceGroups[]}: the resources covered together, the flavors in the order a workload tries them. */
  record ResourceGroup(List<String> coveredResources, List<FlavorQuotas> flavors) {
    public ResourceGroup {
      coveredResources = List.copyOf(coveredResources);
      flavors = List.copyOf(flavors);
    }
  }

  /**
   * A ClusterQueue.
   *
   * @param cohort null when it borrows from and lends to nobody
   * @param strictFifo {@code queueingStrategy: StrictFIFO} (the head blocks its queue) rather than BestEffortFIFO
   * @param tryNextFlavorBeforeBorrowing {@code flavorFungibility.whenCanBorrow: TryNextFlavor}: a later flavor that
   *     fits without borrowing wins over borrowing in an earlier one
   * @param weight {@code fairSharing.weight}, 1 when unset
   * @param stopped {@code stopPolicy} Hold or HoldAndDrain: admits nothing new
   * @param admissionChecks the AdmissionChecks every workload must pass ({@code spec.admissionChecks}, or the names
   *     in {@code spec.admissionChecksStrategy})
   */
  record ClusterQueue(String name, String cohort, List<ResourceGroup> resourceGroups, boolean strictFifo,
      boolean tryNextFlavorBeforeBorrowing, int weight, boolean stopped, Map<String, String> annotations,
      List<String> unsupported, List<String> admissionChecks) implements KueueRecord {
    public ClusterQueue {
      resourceGroups = List.copyOf(resourceGroups);
      annotations = Map.copyOf(annotations);
      unsupported = List.copyOf(unsupported);
      admissionChecks = List.copyOf(admissionChecks);
    }

    /** A ClusterQueue naming no admission check. */
    public ClusterQueue(String name, String cohort, List<ResourceGroup> resourceGroups, boolean strictFifo,
        boolean tryNextFlavorBeforeBorrowing, int weight, boolean stopped, Map<String, String> annotations,
        List<String> unsupported) {
      this(name, cohort, resourceGroups, strictFifo, tryNextFlavorBeforeBorrowing, weight, stopped, annotations,
          unsupported, List.of());
    }

    @Override
    public String display() {
      return "ClusterQueue " + name;
    }
  }

  /** A LocalQueue: its namespace's door to {@code clusterQueue}. */
  record LocalQueue(String namespace, String name, String clusterQueue, boolean stopped, List<String> unsupported)
      implements KueueRecord {
    public LocalQueue {
      unsupported = List.copyOf(unsupported);
    }

    public String key() {
      return namespace + "/" + name;
    }

    @Override
    public String display() {
      return "LocalQueue " + key();
    }
  }

  /** A Cohort object: its parent cohort and quota of its own, lent to its members. */
  record Cohort(String name, String parent, List<ResourceGroup> resourceGroups, int weight, List<String> unsupported)
      implements KueueRecord {
    public Cohort {
      resourceGroups = List.copyOf(resourceGroups);
      unsupported = List.copyOf(unsupported);
    }

    @Override
    public String display() {
      return "Cohort " + name;
    }
  }

  /** A WorkloadPriorityClass: the priority of workloads labelled {@code kueue.x-k8s.io/priority-class}. */
  record PriorityClass(String name, int value, List<String> unsupported) implements KueueRecord {
    public PriorityClass {
      unsupported = List.copyOf(unsupported);
    }

    @Override
    public String display() {
      return "WorkloadPriorityClass " + name;
    }
  }

  /**
   * A Topology (topology-aware scheduling): node label keys, widest level first, whose values group nodes into the
   * network fabric's domains.
   */
  record Topology(String name, List<String> levels, List<String> unsupported) implements KueueRecord {
    public Topology {
      levels = List.copyOf(levels);
      unsupported = List.copyOf(unsupported);
    }

    @Override
    public String display() {
      return "Topology " + name;
    }
  }

  /**
   * An AdmissionCheck: which controller runs it and, for Kueue's provisioning controller
   * ({@value #PROVISIONING_CONTROLLER}), the ProvisioningRequestConfig it names.
   *
   * @param config the name of the {@code ProvisioningRequestConfig} in {@code spec.parameters}, or null
   */
  record AdmissionCheck(String name, String controllerName, String config, List<String> unsupported)
      implements KueueRecord {
    public static final String PROVISIONING_CONTROLLER = "kueue.x-k8s.io/provisioning-request";

    public AdmissionCheck {
      unsupported = List.copyOf(unsupported);
    }

    /** Whether Basalt runs this check: Kueue's provisioning check with its config named. */
    public boolean provisioning() {
      return PROVISIONING_CONTROLLER.equals(controllerName) && config != null;
    }

    @Override
    public String display() {
      return "AdmissionCheck " + name;
    }
  }

  /**
   * A ProvisioningRequestConfig: what the ProvisioningRequest made for a workload asks of the autoscaler, and how a
   * failed one is retried ({@code retryStrategy}, Kueue's defaults when unset: 3 retries, 60 s doubling up to 1800 s).
   *
   * @param managedResources the resources the request is for; empty: every resource
   */
  record ProvisioningConfig(String name, String provisioningClassName, Map<String, String> parameters,
      List<String> managedResources, int backoffLimitCount, long backoffBaseSeconds, long backoffMaxSeconds,
      List<String> unsupported) implements KueueRecord {
    public ProvisioningConfig {
      parameters = Map.copyOf(parameters);
      managedResources = List.copyOf(managedResources);
      unsupported = List.copyOf(unsupported);
    }

    @Override
    public String display() {
      return "ProvisioningRequestConfig " + name;
    }
  }

  /**
   * A ProvisioningRequest ({@code autoscaling.x-k8s.io}), as the cluster autoscaler's status states it. Not one of
   * Kueue's kinds, but read with them: Kueue's provisioning check makes them, and pods consuming one wait for it.
   *
   * @param state {@link io.basalt.kube.provisioning.ProvisioningState} of its conditions
   * @param message the deciding condition's message, or null
   */
  record ProvisioningRequest(String namespace, String name, String provisioningClassName, io.basalt.kube.provisioning.ProvisioningState state,
      String message, List<String> unsupported) implements KueueRecord {
    public ProvisioningRequest {
      unsupported = List.copyOf(unsupported);
    }

    public String key() {
      return namespace + "/" + name;
    }

    @Override
    public String display() {
      return "ProvisioningRequest " + key();
    }
  }
}
