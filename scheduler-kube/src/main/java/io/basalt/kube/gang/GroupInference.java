package io.basalt.kube.gang;

import io.basalt.model.NetworkTopology;
import io.basalt.model.OwnerReference;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import java.util.Map;
import java.util.Set;

/**
 * Which gang a pod belongs to when it names no Volcano PodGroup, from what users of other schedulers already write.
 * First match wins:
 *
 * <ol>
 *   <li>Volcano's {@code scheduling.k8s.io/group-name} annotation: the PodGroup object it names (not inferred);
 *   <li>the scheduler-plugins coscheduling label {@code scheduling.x-k8s.io/pod-group}: its {@code PodGroup};
 *   <li>Kueue's pod-group label {@code kueue.x-k8s.io/pod-group-name};
 *   <li>JobSet's {@code jobset.sigs.k8s.io/jobset-name} label: one gang per JobSet (all its Jobs);
 *   <li>LeaderWorkerSet's {@code leaderworkerset.sigs.k8s.io/name} and {@code group-index} labels: one per group;
 *   <li>a controlling owner of a batch kind (Job, Kubeflow's PyTorchJob, MPIJob, TFJob, ...): one gang per owner,
 *       named {@code podgroup-<owner uid>} as Volcano's podgroup controller names it.
 * </ol>
 *
 * Anything else (a Deployment's pods, a bare pod) is scheduled on its own, as before.
 */
public final class GroupInference {
  public static final String COSCHEDULING_LABEL = "scheduling.x-k8s.io/pod-group";
  public static final String KUEUE_GROUP_LABEL = "kueue.x-k8s.io/pod-group-name";
  public static final String KUEUE_TOTAL_COUNT_ANNOTATION = "kueue.x-k8s.io/pod-group-total-count";
  public static final String JOBSET_LABEL = "jobset.sigs.k8s.io/jobset-name";
  public static final String LWS_NAME_LABEL = "leaderworkerset.sigs.k8s.io/name";
  public static final String LWS_GROUP_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/group-index";
  public static final String LWS_SIZE_ANNOTATION = "leaderworkerset.sigs.k8s.io/size";
  /** The JobSet API a JobSet-wide group's owner reference names. */
  public static final String JOBSET_API_VERSION = "jobset.x-k8s.io/v1alpha2";
  /** How a coscheduling group's {@link Inferred#source()} starts: it has an object of its own. */
  private static final String COSCHEDULING_SOURCE = "coscheduling PodGroup ";
  /** Volcano's convention for a gang's size on pods (their template) or on the owner. */
  public static final String MIN_MEMBER_ANNOTATION = "scheduling.volcano.sh/group-min-member";

  /** Owner kinds whose pods run as one batch: their pods form one gang per owner. */
  static final Set<String> BATCH_OWNER_KINDS =
      Set.of("Job", "PyTorchJob", "MPIJob", "TFJob", "XGBoostJob", "PaddleJob", "JAXJob", "TrainJob");

  /** How a group was inferred; decides where its size comes from. */
  public enum Basis { VOLCANO, COSCHEDULING, KUEUE, JOBSET, LEADER_WORKER_SET, OWNER }

  /**
   * A pod's group.
   *
   * @param name the PodGroup name in the pod's namespace
   * @param source for messages, e.g. {@code Job ml/train}, {@code coscheduling PodGroup ml/g}
   */
  public record Inferred(String name, Basis basis, String source) {}

  private GroupInference() {}

  /** The group of a pod with these labels, annotations and controller, or null for a pod on its own. */
  public static Inferred of(String namespace, Map<String, String> labels, Map<String, String> annotations,
      OwnerReference controller) {
    String volcano = annotations.get(Pod.GROUP_NAME_ANNOTATION);
    if (notBlank(volcano)) {
      return new Inferred(volcano, Basis.VOLCANO, "PodGroup " + namespace + "/" + volcano);
    }
    String cosched = labels.get(COSCHEDULING_LABEL);
    if (notBlank(cosched)) {
      return new Inferred(cosched, Basis.COSCHEDULING, COSCHEDULING_SOURCE + namespace + "/" + cosched);
    }
    String kueue = labels.get(KUEUE_GROUP_LABEL);
    if (notBlank(kueue)) {
      return new Inferred(kueue, Basis.KUEUE, "Kueue pod group " + namespace + "/" + kueue);
    }
    String jobSet = labels.get(JOBSET_LABEL);
    if (notBlank(jobSet)) {
      return new Inferred("jobset-" + jobSet, Basis.JOBSET, "JobSet " + namespace + "/" + jobSet);
    }
    String lws = labels.get(LWS_NAME_LABEL);
    String lwsGroup = labels.get(LWS_GROUP_INDEX_LABEL);
    if (notBlank(lws) && notBlank(lwsGroup)) {
      return new Inferred("lws-" + lws + "-" + lwsGroup, Basis.LEADER_WORKER_SET,
          "LeaderWorkerSet " + namespace + "/" + lws + " group " + lwsGroup);
    }
    if (controller != null && BATCH_OWNER_KINDS.contains(controller.kind()) && notBlank(controller.uid())) {
      return new Inferred("podgroup-" + controller.uid(), Basis.OWNER,
          controller.kind() + " " + namespace + "/" + controller.name());
    }
    return null;
  }

  /** {@link #of} for a converted pod. */
  public static Inferred of(Pod pod) {
    return of(pod.namespace(), pod.labels(), pod.annotations(), pod.controller());
  }

  /**
   * Whether a Volcano PodGroup object may be written for this inferred group ({@code --create-podgroups}): every
   * basis but coscheduling, whose own {@code scheduling.x-k8s.io} PodGroup already stands for it.
   */
  public static boolean wantsPodGroupObject(PodGroup group) {
    return group.inferred() && !group.inferredFrom().startsWith(COSCHEDULING_SOURCE);
  }

  /** Kueue's TAS: every pod of the pod set in one domain of this level (a node label key of the Topology). */
  public static final String KUEUE_REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology";
  /** Kueue's TAS: in one domain of this level if possible, else as close as the fabric allows. */
  public static final String KUEUE_PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology";

  /**
   * The network-topology ask of a pod's Kueue TAS annotations: required is a hard ask for one domain of the level's
   * tier (a Topology's levels name their tiers, see {@code kube.kueue.KueueTopology}), preferred a soft one; null
   * when it has neither.
   */
  public static NetworkTopology kueueTopology(Map<String, String> annotations) {
    String required = annotations.get(KUEUE_REQUIRED_TOPOLOGY);
    if (notBlank(required)) {
      return new NetworkTopology(NetworkTopology.Mode.HARD, null, required.trim(), null);
    }
    String preferred = annotations.get(KUEUE_PREFERRED_TOPOLOGY);
    if (notBlank(preferred)) {
      return new NetworkTopology(NetworkTopology.Mode.SOFT, null, preferred.trim(), null);
    }
    return null;
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }
}
