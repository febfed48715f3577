package io.basalt.app.chart;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The Kubernetes API calls {@code basalt run} makes, which the chart's RBAC must grant exactly (least privilege).
 * {@link #GRANTED} is the list with the reason for each call; ChartTest checks the rendered roles against it, and
 * RunCommandRbacTest checks it against the requests a live run really sends, so the roles follow the code.
 */
public final class ApiCalls {
  private ApiCalls() {
  }

  /** Where a granted API call applies. */
  public enum Scope {
    /** Everywhere: a ClusterRole bound by a ClusterRoleBinding. */
    CLUSTER,
    /** The release namespace, where the leader-election Lease lives: a Role. */
    LEASE_NAMESPACE,
    /** The namespace of the ConfigMap holding volcano-scheduler.conf (the release's by default): a Role. */
    CONFIG_NAMESPACE
  }

  /**
   * One API call: {@code verb} on {@code resource} (with subresource, e.g. {@code pods/binding}) in {@code apiGroup};
   * {@code named} when it is on the one object the flags name (the ConfigMap of --config-map, the Lease of
   * --lease-name), so the Role can grant it with {@code resourceNames}.
   */
  public record ApiCall(String apiGroup, String resource, String verb, Scope scope, boolean named) {
    @Override
    public String toString() {
      return (apiGroup.isEmpty() ? "core" : apiGroup) + " " + resource + " " + verb + (named ? " (named)" : "")
          + " (" + scope + ")";
    }
  }

  /** Every API call the live scheduler makes, and so exactly what the chart grants its ServiceAccount. */
  public static final List<ApiCall> GRANTED = Stream.of(
      // One informer over all non-terminal pods.
      calls(Scope.CLUSTER, "", "pods", "list", "watch"),
      // A 409 on a binding is checked by reading the pod back.
      calls(Scope.CLUSTER, "", "pods", "get"),
      // Binding (the chosen GPUs ride on the binding's annotations); evicting preemption and reclaim victims.
      calls(Scope.CLUSTER, "", "pods/binding", "create"),
      calls(Scope.CLUSTER, "", "pods/eviction", "create"),
      // The PodScheduled=False condition, as a strategic merge patch.
      calls(Scope.CLUSTER, "", "pods/status", "patch"),
      calls(Scope.CLUSTER, "", "nodes", "list", "watch"),
      // HAMi's device protocol: the node lock (hami.io/mutex.lock) is read, then set or removed with a merge patch
      // carrying the node's resourceVersion.
      calls(Scope.CLUSTER, "", "nodes", "get", "patch"),
      // Scheduled / FailedScheduling on pods, InvalidConfig on the ConfigMap.
      calls(Scope.CLUSTER, "", "events", "create"),
      calls(Scope.CLUSTER, "scheduling.k8s.io", "priorityclasses", "list", "watch"),
      // PodGroup status goes to podgroups/status first (a CRD may define the subresource); Volcano's CRD does not
      // (404), so from then on it is written by patching the PodGroup itself. Without the first grant the server
      // would answer 403, not 404, and status would never be written.
      calls(Scope.CLUSTER, "scheduling.volcano.sh", "podgroups", "list", "watch", "patch"),
      calls(Scope.CLUSTER, "scheduling.volcano.sh", "podgroups/status", "patch"),
      calls(Scope.CLUSTER, "scheduling.volcano.sh", "queues", "list", "watch"),
      calls(Scope.CLUSTER, "scheduling.volcano.sh", "queues/status", "patch"),
      // Gangs without a Volcano PodGroup: the workloads owning pods (Jobs; Kubeflow jobs and JobSets where their
      // CRDs are installed), coscheduling PodGroups (read only).
      calls(Scope.CLUSTER, "batch", "jobs", "list", "watch"),
      calls(Scope.CLUSTER, "kubeflow.org", "pytorchjobs", "list", "watch"),
      calls(Scope.CLUSTER, "kubeflow.org", "mpijobs", "list", "watch"),
      calls(Scope.CLUSTER, "kubeflow.org", "tfjobs", "list", "watch"),
      calls(Scope.CLUSTER, "jobset.x-k8s.io", "jobsets", "list", "watch"),
      calls(Scope.CLUSTER, "scheduling.x-k8s.io", "podgroups", "list", "watch"),
      // Namespaces' ResourceQuotas (read only): a gang its quota cannot admit is told so.
      calls(Scope.CLUSTER, "", "resourcequotas", "list", "watch"),
      // Kueue's objects where its CRDs are installed (read only).
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "resourceflavors", "list", "watch"),
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "clusterqueues", "list", "watch"),
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "localqueues", "list", "watch"),
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "cohorts", "list", "watch"),
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "workloadpriorityclasses", "list", "watch"),
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "topologies", "list", "watch"),
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "admissionchecks", "list", "watch"),
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "provisioningrequestconfigs", "list", "watch"),
      // The autoscaler's ProvisioningRequests (read only): pods consuming one wait until it is Provisioned.
      calls(Scope.CLUSTER, "autoscaling.x-k8s.io", "provisioningrequests", "list", "watch"),
      // The network fabric from Volcano HyperNodes (read only; not watched when a --topology* flag names the source).
      calls(Scope.CLUSTER, "topology.volcano.sh", "hypernodes", "list", "watch"),
      // Volumes (kube-scheduler's volume-scheduler role): claims, PVs, classes, CSINodes and CSIStorageCapacities
      // watched for the volume filters; a claim read and annotated volume.kubernetes.io/selected-node, a PV read and
      // its claimRef set, each guarded by its resourceVersion, before a pod with unbound claims is bound.
      calls(Scope.CLUSTER, "", "persistentvolumeclaims", "list", "watch", "get", "patch"),
      calls(Scope.CLUSTER, "", "persistentvolumes", "list", "watch", "get", "patch"),
      calls(Scope.CLUSTER, "storage.k8s.io", "storageclasses", "list", "watch"),
      calls(Scope.CLUSTER, "storage.k8s.io", "csinodes", "list", "watch"),
      calls(Scope.CLUSTER, "storage.k8s.io", "csistoragecapacities", "list", "watch"),
      // VolumeAttachments: attach limits count the volumes attached to a node, as kube-scheduler's NodeVolumeLimits.
      calls(Scope.CLUSTER, "storage.k8s.io", "volumeattachments", "list", "watch"),
      // DRA (resource.k8s.io/v1): devices, classes, claims and templates read; a claim is read and its status
      // (allocation, reservedFor) merge-patched before a pod using it is bound.
      calls(Scope.CLUSTER, "resource.k8s.io", "deviceclasses", "list", "watch"),
      calls(Scope.CLUSTER, "resource.k8s.io", "resourceslices", "list", "watch"),
      calls(Scope.CLUSTER, "resource.k8s.io", "resourceclaims", "list", "watch", "get"),
      calls(Scope.CLUSTER, "resource.k8s.io", "resourceclaimtemplates", "list", "watch"),
      calls(Scope.CLUSTER, "resource.k8s.io", "resourceclaims/status", "patch"),
      // Leader election (--leader-elect --lease-namespace --lease-name): only that Lease, except create (RBAC cannot
      // name an object that does not exist yet).
      calls(Scope.LEASE_NAMESPACE, "coordination.k8s.io", "leases", "create"),
      named(Scope.LEASE_NAMESPACE, "coordination.k8s.io", "leases", "get", "update"),
      // --config-map NS/NAME, watched for edits with a metadata.name field selector, which RBAC matches against
      // resourceNames: only that ConfigMap.
      named(Scope.CONFIG_NAMESPACE, "", "configmaps", "list", "watch"))
      .flatMap(List::stream).toList();

  /**
   * What {@code --create-podgroups} (chart value {@code scheduler.createPodGroups}) adds to {@link #GRANTED}: a
   * Volcano PodGroup created for each inferred gang.
   */
  public static final List<ApiCall> CREATE_PODGROUPS = calls(Scope.CLUSTER, "scheduling.volcano.sh", "podgroups",
      "create");

  /**
   * What {@code --kueue instead} (chart value {@code scheduler.kueue: instead}) adds to {@link #GRANTED}: an admitted
   * Job unsuspended by a merge patch, queue status, ProvisioningRequests made.
   */
  public static final List<ApiCall> KUEUE_INSTEAD = Stream.of(
      calls(Scope.CLUSTER, "batch", "jobs", "patch"),
      // ClusterQueue and LocalQueue status, as Kueue writes it.
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "clusterqueues/status", "patch"),
      calls(Scope.CLUSTER, "kueue.x-k8s.io", "localqueues/status", "patch"),
      // Kueue's provisioning check: a ProvisioningRequest and its PodTemplate for a Job the cluster cannot hold.
      calls(Scope.CLUSTER, "autoscaling.x-k8s.io", "provisioningrequests", "create"),
      calls(Scope.CLUSTER, "", "podtemplates", "create"))
      .flatMap(List::stream).toList();

  /** {@link #GRANTED}, plus {@link #CREATE_PODGROUPS} and {@link #KUEUE_INSTEAD} when those are on. */
  public static List<ApiCall> granted(boolean createPodGroups, boolean kueueInstead) {
    List<ApiCall> base = granted(createPodGroups);
    return kueueInstead ? Stream.concat(base.stream(), KUEUE_INSTEAD.stream()).toList() : base;
  }

  /** {@link #GRANTED}, plus {@link #CREATE_PODGROUPS} when that is on. */
  public static List<ApiCall> granted(boolean createPodGroups) {
    return createPodGroups ? Stream.concat(GRANTED.stream(), CREATE_PODGROUPS.stream()).toList() : GRANTED;
  }

  private static List<ApiCall> calls(Scope scope, String group, String resource, String... verbs) {
    return Stream.of(verbs).map(v -> new ApiCall(group, resource, v, scope, false)).toList();
  }

  private static List<ApiCall> named(Scope scope, String group, String resource, String... verbs) {
    return Stream.of(verbs).map(v -> new ApiCall(group, resource, v, scope, true)).toList();
  }

  /**
   * The RBAC attributes of one request, as the API server's authorizer derives them (group, resource/subresource,
   * verb from the method, with GET split into get/list/watch, the object's name from the path or a metadata.name field
   * selector); empty for non-resource paths such as discovery. The lease and config namespace and name tell which
   * namespaced calls fall under which Role, and which are on the one object the Role names.
   */
  public static Optional<ApiCall> of(String method, String path, String fieldSelector, boolean watch, String leaseNs,
      String leaseName, String configNs, String configName) {
    String[] p = path.replaceAll("^/+|/+$", "").split("/");
    int i;
    String group;
    if (p.length >= 3 && p[0].equals("api")) {
      group = "";
      i = 2;
    } else if (p.length >= 4 && p[0].equals("apis")) {
      group = p[1];
      i = 3;
    } else {
      return Optional.empty();
    }
    String namespace = null;
    if (p[i].equals("namespaces") && p.length > i + 2) {
      namespace = p[i + 1];
      i += 2;
    }
    String resource = p[i];
    String name = p.length > i + 1 ? p[i + 1] : null;
    String sub = p.length > i + 2 ? p[i + 2] : null;
    String verb = switch (method) {
      case "GET" -> watch ? "watch" : name == null ? "list" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> name == null ? "deletecollection" : "delete";
      default -> method.toLowerCase(java.util.Locale.ROOT);
    };
    // For list and watch the authorizer takes the name from a metadata.name field selector.
    String objectName = name;
    if (objectName == null && fieldSelector != null && fieldSelector.startsWith("metadata.name=")
        && !fieldSelector.contains(",")) {
      objectName = fieldSelector.substring("metadata.name=".length());
    }
    Scope scope = Scope.CLUSTER;
    boolean named = false;
    if (resource.equals("leases") && leaseNs.equals(namespace)) {
      scope = Scope.LEASE_NAMESPACE;
      named = leaseName.equals(objectName);
    } else if (resource.equals("configmaps") && configNs.equals(namespace)) {
      scope = Scope.CONFIG_NAMESPACE;
      named = configName.equals(objectName);
    }
    return Optional.of(new ApiCall(group, sub == null ? resource : resource + "/" + sub, verb, scope, named));
  }
}
