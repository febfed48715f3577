package io.basalt.kube.kinds.kueue;

import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.KubeConversionException;
import io.basalt.kube.kinds.Records;
import io.basalt.kube.kueue.KueueRecord;
import io.kubernetes.client.common.KubernetesListObject;
import java.util.function.Function;

/**
 * One of Kueue's kinds ({@code kueue.x-k8s.io}): a manifest document of v1beta1 or v1beta2 becomes one
 * {@link KueueRecord} for {@link Records#kueue}. What the records mean for queues, gangs and flavors is
 * {@link io.basalt.kube.kueue.KueueAdmission}'s business.
 *
 * <p>Live mode watches v1beta1 (served by every Kueue release that serves v1beta2 too) when the CRD is installed, and
 * treats the kind as empty when it is not ({@link Watch#IF_SERVED}); the records go to
 * {@link io.basalt.kube.kueue.KueueLive} (see docs/KUEUE.md).
 */
public final class KueueKind<T extends CustomObject<T, ?, ?>> extends KindAdapter<T> {
  static final String V1BETA1 = "v1beta1";
  static final String V1BETA2 = "v1beta2";

  public static final KueueKind<KueueObjects.ResourceFlavor> RESOURCE_FLAVOR = new KueueKind<>("ResourceFlavor",
      "resourceflavors", false, KueueObjects.ResourceFlavor.class, KueueObjects.ResourceFlavorList.class,
      KueueParse::flavor);
  public static final KueueKind<KueueObjects.ClusterQueue> CLUSTER_QUEUE = new KueueKind<>("ClusterQueue",
      "clusterqueues", false, KueueObjects.ClusterQueue.class, KueueObjects.ClusterQueueList.class,
      KueueParse::clusterQueue);
  public static final KueueKind<KueueObjects.LocalQueue> LOCAL_QUEUE = new KueueKind<>("LocalQueue", "localqueues",
      true, KueueObjects.LocalQueue.class, KueueObjects.LocalQueueList.class, KueueParse::localQueue);
  public static final KueueKind<KueueObjects.Cohort> COHORT = new KueueKind<>("Cohort", "cohorts", false,
      KueueObjects.Cohort.class, KueueObjects.CohortList.class, KueueParse::cohort);
  public static final KueueKind<KueueObjects.WorkloadPriorityClass> WORKLOAD_PRIORITY_CLASS = new KueueKind<>(
      "WorkloadPriorityClass", "workloadpriorityclasses", false, KueueObjects.WorkloadPriorityClass.class,
      KueueObjects.WorkloadPriorityClassList.class, KueueParse::priorityClass);

  /** {@code Topology}: v1alpha1 (Kueue 0.9 to 0.13) as well. */
  public static final KueueKind<KueueObjects.Topology> TOPOLOGY = new KueueKind<>("Topology", "topologies", false,
      KueueObjects.Topology.class, KueueObjects.TopologyList.class, KueueParse::topology);

  /** {@code AdmissionCheck}: Kueue's provisioning check is run by Basalt in "instead" mode. */
  public static final KueueKind<KueueObjects.AdmissionCheck> ADMISSION_CHECK = new KueueKind<>("AdmissionCheck",
      "admissionchecks", false, KueueObjects.AdmissionCheck.class, KueueObjects.AdmissionCheckList.class,
      KueueParse::admissionCheck);
  public static final KueueKind<KueueObjects.ProvisioningRequestConfig> PROVISIONING_REQUEST_CONFIG =
      new KueueKind<>("ProvisioningRequestConfig", "provisioningrequestconfigs", false,
          KueueObjects.ProvisioningRequestConfig.class, KueueObjects.ProvisioningRequestConfigList.class,
          KueueParse::provisioningConfig);

  private final Function<T, KueueRecord> parse;

  private KueueKind(String kind, String plural, boolean namespaced, Class<T> type,
      Class<? extends KubernetesListObject> listType, Function<T, KueueRecord> parse) {
    super(KueueObjects.GROUP, V1BETA1, kind, plural, namespaced, type, listType);
    this.parse = parse;
  }

  @Override
  public void put(T object, Records out) {
    KueueRecord r;
    try {
      r = parse.apply(object);
    } catch (KubeConversionException e) {
      throw e;
    } catch (RuntimeException e) { // a shape the parser did not foresee: still one named line, never a crash
      String name = object.getMetadata() == null ? null : object.getMetadata().getName();
      throw new KubeConversionException(kind(), name == null ? "<unnamed>" : name, "spec",
          "cannot read it: a field has an unexpected type");
    }
    out.kueue(r);
  }

  @Override
  public void remove(T object, String key, Records.Removals out) {
    out.kueueGone(kind(), key);
  }

  /** v1beta1 and v1beta2 documents alike: the fields Basalt reads differ only in names it reads both of. */
  @Override
  public boolean readsDocument(String apiVersion, String kind) {
    return kind().equals(kind) && (apiVersion.equals(KueueObjects.GROUP + "/" + V1BETA1)
        || apiVersion.equals(KueueObjects.GROUP + "/" + V1BETA2)
        || kind.equals("Topology") && apiVersion.equals(KueueObjects.GROUP + "/v1alpha1"));
  }

  @Override
  public String project() {
    return "Kueue";
  }
}
