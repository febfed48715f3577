package io.basalt.kube.kinds;

import com.google.gson.JsonObject;
import io.basalt.kube.gang.CoschedulingGroup;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kueue.KueueRecord;
import io.basalt.model.Namespace;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;

/**
 * Where a {@link KindAdapter} hands what one object means to the engine. The simulator collects the records of every
 * manifest ({@code ClusterObjects}); live mode applies each informer event to the cache, gang inference and the
 * topology feed. A kind of record the engine does not know yet (Kueue's flavors, a provisioning request) is a new
 * method here, implemented by both.
 */
public interface Records {
  void node(Node node);

  void pod(Pod pod);

  /**
   * Whether a pod on no node yet that names {@code schedulerName} matters here. Another scheduler's pending pod holds
   * nothing until it is bound or nominated to a node (those are always converted), so live mode does not even convert
   * it: a tenant's pods of made-up resource names cannot then fill the resource name table.
   */
  default boolean wantsPending(String schedulerName) {
    return true;
  }

  /**
   * A pending pod {@link #wantsPending} turned down was not converted. It may have been taken before, while another
   * scheduler had nominated it to a node ({@code status.nominatedNodeName}, whose room is held for it): live mode
   * forgets it then. {@code key} is {@code namespace/name}.
   */
  default void pendingSkipped(String key, String uid) {
  }

  void priorityClass(PriorityClass priorityClass);

  /** A namespace's labels, which pod affinity's namespace selectors match. */
  void namespace(Namespace namespace);

  /** A queue, whatever object stated it (a Volcano Queue today). */
  void queue(Queue queue);

  void podGroup(PodGroup group);

  /** A coscheduling PodGroup: gang inference reads it for the pods that name it. */
  void coschedulingGroup(CoschedulingGroup group);

  /** A workload owning pods: gang inference reads its size and queue. */
  void owner(OwnerObject owner);

  /**
   * A network-fabric document (a HyperNode, as its JSON tree): its members name other HyperNodes and match nodes, so
   * the fabric is built from all of them and the nodes together ({@code kube.fabric.HyperNodeReader}), not per object.
   */
  void hyperNode(String name, JsonObject document);

  /** A PersistentVolumeClaim, for the volume filters and binder; ignored where nothing holds storage objects. */
  default void volumeClaim(io.basalt.model.VolumeClaim claim) {
  }

  /** A PersistentVolume. */
  default void persistentVolume(io.basalt.model.PersistentVolume volume) {
  }

  /** A StorageClass. */
  default void storageClass(io.basalt.model.StorageClass storageClass) {
  }

  /** A CSINode: its drivers' attach limits. */
  default void csiNode(io.basalt.model.CsiNode csiNode) {
  }

  /** A CSIStorageCapacity. */
  default void storageCapacity(io.basalt.model.StorageCapacity capacity) {
  }

  /** A VolumeAttachment (attach limits count it). */
  default void volumeAttachment(io.basalt.model.VolumeAttachment attachment) {
  }

  /**
   * A Kueue object (ClusterQueue, LocalQueue, ResourceFlavor, Cohort, WorkloadPriorityClass): the simulator applies
   * them all together ({@code kube.kueue.KueueAdmission}); live mode keeps them in {@code kube.kueue.KueueLive}.
   */
  default void kueue(KueueRecord record) {}

  /**
   * A batch/v1 Job naming a Kueue LocalQueue, as Kueue's admission reads it (live mode only: the simulator expands the
   * Job into pods and admits those).
   *
   * @param key the Job's {@code namespace/name}
   * @param job null when the Job names no LocalQueue (any more)
   */
  default void kueueJob(String key, io.basalt.kube.kueue.KueueJob job) {}

  /** A namespace's ResourceQuota, as far as it caps pods. */
  default void resourceQuota(io.basalt.model.NamespaceQuota quota) {}

  /** A DRA DeviceClass ({@code resource.k8s.io/v1}). */
  default void deviceClass(io.basalt.dra.DeviceClass deviceClass) {
  }

  /** A DRA ResourceSlice: devices some nodes reach. */
  default void resourceSlice(io.basalt.dra.ResourceSlice slice) {
  }

  /** A DRA ResourceClaim, with its allocation and reservations. */
  default void resourceClaim(io.basalt.dra.ResourceClaim claim) {
  }

  /** A DRA ResourceClaimTemplate, from which a pod's claims are made. */
  default void claimTemplate(io.basalt.dra.ClaimTemplate template) {
  }

  /** What live mode does when an object is deleted; keys are the informer's ({@code namespace/name} or name). */
  interface Removals {
    void nodeGone(String name);

    /** @param uid the deleted object's uid when known, for a pod the source has not seen under {@code key} */
    void podGone(String key, String uid);

    void priorityClassGone(String name);

    void namespaceGone(String name);

    void queueGone(String name);

    void podGroupGone(String key);

    void coschedulingGroupGone(String key);

    /** @param kind the owner's kind: owners of two kinds may share a name */
    void ownerGone(String kind, String key);

    void hyperNodeGone(String name);

    default void volumeClaimGone(String key) {
    }

    default void persistentVolumeGone(String name) {
    }

    default void storageClassGone(String name) {
    }

    default void csiNodeGone(String name) {
    }

    default void storageCapacityGone(String key) {
    }

    default void volumeAttachmentGone(String name) {
    }

    default void deviceClassGone(String name) {
    }

    default void resourceSliceGone(String name) {
    }

    /** @param key {@code namespace/name} */
    default void resourceClaimGone(String key) {
    }

    /** @param key {@code namespace/name} */
    default void claimTemplateGone(String key) {
    }

    /**
     * A Kueue object was deleted.
     *
     * @param kind its kind ({@code ClusterQueue}, {@code LocalQueue}, ...)
     * @param key the informer's key ({@code namespace/name} for a LocalQueue, the name otherwise)
     */
    default void kueueGone(String kind, String key) {
    }

    /** @param key {@code namespace/name} */
    default void resourceQuotaGone(String key) {
    }
  }
}
