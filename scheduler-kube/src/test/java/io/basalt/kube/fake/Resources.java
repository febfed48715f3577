package io.basalt.kube.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The kinds the fake API server serves. Adding a kind is one line in the static block below. Behaviour flags follow
 * the real registries: pods answer DELETE with the deleted Pod (kubernetes pkg/registry/core/pod/storage/storage.go,
 * {@code ReturnDeletedObject: true}); other built-ins and custom resources answer with a Success Status
 * (apiserver registry/generic/registry/store.go {@code finalizeDelete}); custom resources reject strategic merge patch
 * with 415 (apiextensions-apiserver only accepts json-patch and merge-patch).
 */
public final class Resources {
  private static final List<ResourceType> ALL = new ArrayList<>();

  /** Strategic-merge keys shared by every built-in kind (apimachinery ObjectMeta patch tags). */
  private static final Map<String, String> META_KEYS = Map.of(
      "metadata.ownerReferences", "uid",
      "metadata.finalizers", Patches.PRIMITIVE_SET);

  /** Pod list merge keys from k8s.io/api core/v1 types.go {@code patchMergeKey} tags. */
  private static final Map<String, String> POD_KEYS = Map.ofEntries(
      Map.entry("metadata.ownerReferences", "uid"),
      Map.entry("metadata.finalizers", Patches.PRIMITIVE_SET),
      Map.entry("spec.containers", "name"),
      Map.entry("spec.initContainers", "name"),
      Map.entry("spec.ephemeralContainers", "name"),
      Map.entry("spec.containers.env", "name"),
      Map.entry("spec.initContainers.env", "name"),
      Map.entry("spec.containers.ports", "containerPort"),
      Map.entry("spec.containers.volumeMounts", "mountPath"),
      Map.entry("spec.initContainers.volumeMounts", "mountPath"),
      Map.entry("spec.volumes", "name"),
      Map.entry("spec.imagePullSecrets", "name"),
      Map.entry("spec.schedulingGates", "name"),
      Map.entry("status.conditions", "type"));

  private static final Map<String, String> NODE_KEYS = Map.of(
      "metadata.ownerReferences", "uid",
      "metadata.finalizers", Patches.PRIMITIVE_SET,
      "spec.taints", "key",
      "status.conditions", "type",
      "status.addresses", "type");

  /** Pod field-selector labels (kubernetes pkg/registry/core/pod/strategy.go {@code ToSelectableFields}). */
  private static final Set<String> POD_FIELDS = Set.of("spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
      "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName");

  private static final Set<String> EVENT_FIELDS = Set.of("involvedObject.kind", "involvedObject.namespace",
      "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
      "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type");

  private static final Set<String> EVENTS_V1_FIELDS = Set.of("regarding.kind", "regarding.namespace",
      "regarding.name", "regarding.uid", "regarding.apiVersion", "regarding.resourceVersion", "regarding.fieldPath",
      "reason", "reportingController", "type");

  public static final ResourceType PODS = register(ResourceType.builtin("", "v1", "pods", "Pod", true)
      .statusSubresource().generation().returnsDeletedObject().mergeKeys(POD_KEYS).fields(POD_FIELDS)
      .defaulter(PodRules::defaults));
  public static final ResourceType NODES = register(ResourceType.builtin("", "v1", "nodes", "Node", false)
      .statusSubresource().mergeKeys(NODE_KEYS).fields(Set.of("spec.unschedulable")));
  public static final ResourceType NAMESPACES = register(ResourceType.builtin("", "v1", "namespaces", "Namespace",
      false).statusSubresource().returnsDeletedObject().mergeKeys(Map.of("status.conditions", "type"))
      .fields(Set.of("status.phase")).defaulter(PodRules::namespaceDefaults));
  public static final ResourceType CONFIGMAPS = register(ResourceType.builtin("", "v1", "configmaps", "ConfigMap",
      true).mergeKeys(META_KEYS));
  public static final ResourceType EVENTS = register(ResourceType.builtin("", "v1", "events", "Event", true)
      .mergeKeys(META_KEYS).fields(EVENT_FIELDS));
  public static final ResourceType EVENTS_V1 = register(ResourceType.builtin("events.k8s.io", "v1", "events", "Event",
      true).mergeKeys(META_KEYS).fields(EVENTS_V1_FIELDS));
  public static final ResourceType PRIORITY_CLASSES = register(ResourceType.builtin("scheduling.k8s.io", "v1",
      "priorityclasses", "PriorityClass", false).mergeKeys(META_KEYS));
  public static final ResourceType LEASES = register(ResourceType.builtin("coordination.k8s.io", "v1", "leases",
      "Lease", true).mergeKeys(META_KEYS));
  /** As Volcano's CRD ({@code subresources: {}}): no status subresource, status is written on the object. */
  public static final ResourceType PODGROUPS = register(ResourceType.custom("scheduling.volcano.sh", "v1beta1",
      "podgroups", "PodGroup", true));
  public static final ResourceType QUEUES = register(ResourceType.custom("scheduling.volcano.sh", "v1beta1",
      "queues", "Queue", false).statusSubresource());
  public static final ResourceType JOBS = register(ResourceType.builtin("batch", "v1", "jobs", "Job", true)
      .statusSubresource().generation().mergeKeys(META_KEYS));
  /** The scheduler-plugins coscheduling PodGroup CRD. */
  public static final ResourceType COSCHEDULING_PODGROUPS = register(ResourceType.custom("scheduling.x-k8s.io",
      "v1alpha1", "podgroups", "PodGroup", true).statusSubresource());
  /** Owner kinds live mode watches when their CRDs are served: Kubeflow's training jobs and JobSets. */
  public static final ResourceType PYTORCHJOBS = register(ResourceType.custom("kubeflow.org", "v1", "pytorchjobs",
      "PyTorchJob", true).statusSubresource());
  public static final ResourceType MPIJOBS = register(ResourceType.custom("kubeflow.org", "v1", "mpijobs", "MPIJob",
      true).statusSubresource());
  public static final ResourceType TFJOBS = register(ResourceType.custom("kubeflow.org", "v1", "tfjobs", "TFJob",
      true).statusSubresource());
  public static final ResourceType JOBSETS = register(ResourceType.custom("jobset.x-k8s.io", "v1alpha2", "jobsets",
      "JobSet", true).statusSubresource());
  /** Volcano's network-topology HyperNode CRD (cluster-scoped). */
  public static final ResourceType HYPERNODES = register(ResourceType.custom("topology.volcano.sh", "v1alpha1",
      "hypernodes", "HyperNode", false));
  /** DRA (resource.k8s.io/v1, Kubernetes 1.34+): claims have a status subresource, the others none. */
  public static final ResourceType DEVICE_CLASSES = register(ResourceType.builtin("resource.k8s.io", "v1",
      "deviceclasses", "DeviceClass", false).generation().mergeKeys(META_KEYS));
  public static final ResourceType RESOURCE_SLICES = register(ResourceType.builtin("resource.k8s.io", "v1",
      "resourceslices", "ResourceSlice", false).mergeKeys(META_KEYS));
  public static final ResourceType RESOURCE_CLAIMS = register(ResourceType.builtin("resource.k8s.io", "v1",
      "resourceclaims", "ResourceClaim", true).statusSubresource().mergeKeys(META_KEYS));
  public static final ResourceType RESOURCE_CLAIM_TEMPLATES = register(ResourceType.builtin("resource.k8s.io", "v1",
      "resourceclaimtemplates", "ResourceClaimTemplate", true).mergeKeys(META_KEYS));

  /** Storage: claims and PVs (with status), classes, CSINodes and CSIStorageCapacities. */
  public static final ResourceType PERSISTENT_VOLUME_CLAIMS = register(ResourceType.builtin("", "v1",
      "persistentvolumeclaims", "PersistentVolumeClaim", true).statusSubresource().mergeKeys(META_KEYS));
  public static final ResourceType PERSISTENT_VOLUMES = register(ResourceType.builtin("", "v1", "persistentvolumes",
      "PersistentVolume", false).statusSubresource().mergeKeys(META_KEYS));
  public static final ResourceType STORAGE_CLASSES = register(ResourceType.builtin("storage.k8s.io", "v1",
      "storageclasses", "StorageClass", false).mergeKeys(META_KEYS));
  public static final ResourceType CSI_NODES = register(ResourceType.builtin("storage.k8s.io", "v1", "csinodes",
      "CSINode", false).mergeKeys(META_KEYS));
  public static final ResourceType CSI_STORAGE_CAPACITIES = register(ResourceType.builtin("storage.k8s.io", "v1",
      "csistoragecapacities", "CSIStorageCapacity", true).mergeKeys(META_KEYS));
  /** VolumeAttachments (the attach/detach controller's; attach limits count them). */
  public static final ResourceType VOLUME_ATTACHMENTS = register(ResourceType.builtin("storage.k8s.io", "v1",
      "volumeattachments", "VolumeAttachment", false).statusSubresource().mergeKeys(META_KEYS));

  /** ResourceQuota (core v1, namespaced, with status). */
  public static final ResourceType RESOURCE_QUOTAS = register(ResourceType.builtin("", "v1", "resourcequotas",
      "ResourceQuota", true).statusSubresource().mergeKeys(META_KEYS));
  /** Kueue's kinds (kueue.x-k8s.io/v1beta1, served by every release serving v1beta2 too). */
  public static final ResourceType KUEUE_RESOURCE_FLAVORS = register(ResourceType.custom("kueue.x-k8s.io", "v1beta1",
      "resourceflavors", "ResourceFlavor", false));
  public static final ResourceType KUEUE_CLUSTER_QUEUES = register(ResourceType.custom("kueue.x-k8s.io", "v1beta1",
      "clusterqueues", "ClusterQueue", false).statusSubresource());
  public static final ResourceType KUEUE_LOCAL_QUEUES = register(ResourceType.custom("kueue.x-k8s.io", "v1beta1",
      "localqueues", "LocalQueue", true).statusSubresource());
  public static final ResourceType KUEUE_COHORTS = register(ResourceType.custom("kueue.x-k8s.io", "v1beta1",
      "cohorts", "Cohort", false).statusSubresource());
  public static final ResourceType KUEUE_WORKLOAD_PRIORITY_CLASSES = register(ResourceType.custom("kueue.x-k8s.io",
      "v1beta1", "workloadpriorityclasses", "WorkloadPriorityClass", false));
  public static final ResourceType KUEUE_TOPOLOGIES = register(ResourceType.custom("kueue.x-k8s.io", "v1beta1",
      "topologies", "Topology", false));
  /** Kueue's provisioning check: its AdmissionCheck (with status) and ProvisioningRequestConfig. */
  public static final ResourceType KUEUE_ADMISSION_CHECKS = register(ResourceType.custom("kueue.x-k8s.io",
      "v1beta1", "admissionchecks", "AdmissionCheck", false).statusSubresource());
  public static final ResourceType KUEUE_PROVISIONING_REQUEST_CONFIGS = register(ResourceType.custom(
      "kueue.x-k8s.io", "v1beta1", "provisioningrequestconfigs", "ProvisioningRequestConfig", false));
  /** The cluster autoscaler's ProvisioningRequest (status written by the autoscaler) and the PodTemplates it reads. */
  public static final ResourceType PROVISIONING_REQUESTS = register(ResourceType.custom("autoscaling.x-k8s.io",
      "v1beta1", "provisioningrequests", "ProvisioningRequest", true).statusSubresource());
  public static final ResourceType POD_TEMPLATES = register(ResourceType.builtin("", "v1", "podtemplates",
      "PodTemplate", true).mergeKeys(META_KEYS));

  /**
   * A kind no real server has and Basalt does not know: tests register their own adapter for it and watch it
   * ({@code KindRegistryTest}), as a new kind's adapter would be.
   */
  public static final ResourceType TEAM_QUEUES = register(ResourceType.custom("example.basalt.io", "v1",
      "teamqueues", "TeamQueue", false));

  private Resources() {
  }

  private static ResourceType register(ResourceType type) {
    ALL.add(type);
    return type;
  }

  public static List<ResourceType> all() {
    return List.copyOf(ALL);
  }

  static Optional<ResourceType> find(String group, String version, String plural) {
    return ALL.stream()
        .filter(t -> t.group().equals(group) && t.version().equals(version) && t.plural().equals(plural))
        .findFirst();
  }

  /** The kind an object's apiVersion and kind name, as a client sends them. */
  public static Optional<ResourceType> forKind(String apiVersion, String kind) {
    return ALL.stream().filter(t -> t.apiVersion().equals(apiVersion) && t.kind().equals(kind)).findFirst();
  }
}
