package io.basalt.kube.kinds.kueue;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;

/**
 * Kueue's {@code kueue.x-k8s.io} objects Basalt reads, one class per kind only because client-java's informer factory
 * keeps one informer per class. Spec and status stay JSON trees: v1beta1 and v1beta2 differ in a few field names
 * ({@code cohort} / {@code cohortName}, a Cohort's {@code parent} / {@code parentName}), which {@link KueueParse}
 * reads both of, naming every field it does not act on.
 */
public final class KueueObjects {
  public static final String GROUP = "kueue.x-k8s.io";

  private KueueObjects() {}

  /** {@code ResourceFlavor} (cluster-scoped): node labels, taints and tolerations of one kind of node. */
  public static final class ResourceFlavor extends CustomObject<ResourceFlavor, JsonObject, JsonObject> {}

  /** {@code ClusterQueue} (cluster-scoped): quota per flavor and resource, cohort, admission policies. */
  public static final class ClusterQueue extends CustomObject<ClusterQueue, JsonObject, JsonObject> {}

  /** {@code LocalQueue} (namespaced): where a namespace's workloads enter their ClusterQueue. */
  public static final class LocalQueue extends CustomObject<LocalQueue, JsonObject, JsonObject> {}

  /** {@code Cohort} (cluster-scoped): a node of the cohort tree, with quota of its own. */
  public static final class Cohort extends CustomObject<Cohort, JsonObject, JsonObject> {}

  /**
   * {@code WorkloadPriorityClass} (cluster-scoped): {@code value} and {@code description} at the top level, no spec
   * (Gson reads them here).
   */
  public static final class WorkloadPriorityClass
      extends CustomObject<WorkloadPriorityClass, JsonObject, JsonObject> {
    @com.google.gson.annotations.SerializedName("value")
    private Integer value;

    public Integer getValue() {
      return value;
    }

    public WorkloadPriorityClass value(Integer v) {
      this.value = v;
      return this;
    }
  }

  /** {@code Topology} (cluster-scoped): the node label of each level of the network, widest first. */
  public static final class Topology extends CustomObject<Topology, JsonObject, JsonObject> {}

  public static final class TopologyList extends CustomObjectList<Topology> {}

  /** {@code AdmissionCheck} (cluster-scoped): a check a ClusterQueue's workloads pass before admission. */
  public static final class AdmissionCheck extends CustomObject<AdmissionCheck, JsonObject, JsonObject> {}

  public static final class AdmissionCheckList extends CustomObjectList<AdmissionCheck> {}

  /** {@code ProvisioningRequestConfig} (cluster-scoped): what Kueue's provisioning check asks the autoscaler. */
  public static final class ProvisioningRequestConfig
      extends CustomObject<ProvisioningRequestConfig, JsonObject, JsonObject> {}

  public static final class ProvisioningRequestConfigList extends CustomObjectList<ProvisioningRequestConfig> {}

  public static final class ResourceFlavorList extends CustomObjectList<ResourceFlavor> {}

  public static final class ClusterQueueList extends CustomObjectList<ClusterQueue> {}

  public static final class LocalQueueList extends CustomObjectList<LocalQueue> {}

  public static final class CohortList extends CustomObjectList<Cohort> {}

  public static final class WorkloadPriorityClassList extends CustomObjectList<WorkloadPriorityClass> {}
}
