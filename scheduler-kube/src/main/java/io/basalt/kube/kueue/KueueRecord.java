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
   */
  record ClusterQueue(String name, String cohort, List<ResourceGroup> resourceGroups, boolean strictFifo,
      boolean tryNextFlavorBeforeBorrowing, int weight, boolean stopped, Map<String, String> annotations,
      List<String> unsupported) implements KueueRecord {
    public ClusterQueue {
      resourceGroups = List.copyOf(resourceGroups);
      annotations = Map.copyOf(annotations);
      unsupported = List.copyOf(unsupported);
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
}
