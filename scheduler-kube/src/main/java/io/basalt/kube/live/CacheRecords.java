package io.basalt.kube.live;

import com.google.gson.JsonObject;
import io.basalt.cache.ClusterCache;
import io.basalt.kube.gang.CoschedulingGroup;
import io.basalt.kube.gang.InferredGroups;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.Records;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live mode's {@link Records}: each informer event's records go straight to the cache, gang inference and the
 * topology feed. The cache keys pods and gang inference keys owners by uid while informers key them by
 * {@code namespace/name}; remembering the uid per name lets a tombstone without a uid still remove, and an object
 * re-created under the same name (seen as an update after a re-list) replace the old one instead of leaving it.
 */
final class CacheRecords implements Records, Records.Removals {
  private final ClusterCache cache;
  private final InferredGroups inferred;
  private final TopologyFeed topology;
  private final io.basalt.kube.kueue.KueueLive kueue;
  private final Map<String, String> podUids = new ConcurrentHashMap<>();
  /** Owner uids by {@code kind namespace/name}: a Job and a JobSet may share a name. */
  private final Map<String, String> ownerUids = new ConcurrentHashMap<>();

  CacheRecords(ClusterCache cache, InferredGroups inferred, TopologyFeed topology) {
    this(cache, inferred, topology, new io.basalt.kube.kueue.KueueLive());
  }

  /** @param kueue where Kueue's objects and Kueue-labelled Jobs go (read by the Kueue admission loop, if any) */
  CacheRecords(ClusterCache cache, InferredGroups inferred, TopologyFeed topology,
      io.basalt.kube.kueue.KueueLive kueue) {
    this.cache = cache;
    this.inferred = inferred;
    this.topology = topology;
    this.kueue = kueue;
  }

  @Override
  public void node(Node node) {
    cache.putNode(node);
    topology.putNode(node);
  }

  @Override
  public void nodeGone(String name) {
    cache.removeNode(name);
    topology.removeNode(name);
  }

  @Override
  public boolean wantsPending(String schedulerName) {
    return cache.schedulerNames().contains(schedulerName);
  }

  @Override
  public void pendingSkipped(String key, String uid) {
    if (podUids.containsKey(key)) { // taken while nominated; most skipped pods never were
      podGone(key, uid);
    }
  }

  /** Through {@link ClusterCache#observe}, which keeps an assumption whose bind is still in flight. */
  @Override
  public void pod(Pod pod) {
    String previous = podUids.put(pod.key(), pod.uid());
    if (previous != null && !previous.equals(pod.uid())) {
      cache.removePod(previous);
      inferred.removePod(previous);
    }
    kueue.observePod(pod, cache::observe); // gated while a ProvisioningRequest it consumes is not provisioned
    inferred.putPod(pod);
  }

  @Override
  public void podGone(String key, String uid) {
    kueue.podGone(key);
    String known = podUids.remove(key);
    String gone = known != null ? known : uid;
    if (gone != null) {
      cache.removePod(gone);
      inferred.removePod(gone);
    }
  }

  @Override
  public void priorityClass(PriorityClass priorityClass) {
    cache.putPriorityClass(priorityClass);
  }

  @Override
  public void priorityClassGone(String name) {
    cache.removePriorityClass(name);
  }

  @Override
  public void volumeClaim(io.basalt.model.VolumeClaim claim) {
    cache.volumes().putClaim(claim);
  }

  @Override
  public void volumeClaimGone(String key) {
    cache.volumes().removeClaim(key);
  }

  @Override
  public void persistentVolume(io.basalt.model.PersistentVolume volume) {
    cache.volumes().putVolume(volume);
  }

  @Override
  public void persistentVolumeGone(String name) {
    cache.volumes().removeVolume(name);
  }

  @Override
  public void storageClass(io.basalt.model.StorageClass storageClass) {
    cache.volumes().putClass(storageClass);
  }

  @Override
  public void storageClassGone(String name) {
    cache.volumes().removeClass(name);
  }

  @Override
  public void csiNode(io.basalt.model.CsiNode csiNode) {
    cache.volumes().putCsiNode(csiNode);
  }

  @Override
  public void csiNodeGone(String name) {
    cache.volumes().removeCsiNode(name);
  }

  @Override
  public void storageCapacity(io.basalt.model.StorageCapacity capacity) {
    cache.volumes().putCapacity(capacity);
  }

  @Override
  public void storageCapacityGone(String key) {
    cache.volumes().removeCapacity(key);
  }

  @Override
  public void volumeAttachment(io.basalt.model.VolumeAttachment attachment) {
    cache.volumes().putAttachment(attachment);
  }

  @Override
  public void volumeAttachmentGone(String name) {
    cache.volumes().removeAttachment(name);
  }

  @Override
  public void namespace(io.basalt.model.Namespace namespace) {
    cache.putNamespace(namespace);
  }

  @Override
  public void namespaceGone(String name) {
    cache.removeNamespace(name);
  }

  @Override
  public void queue(Queue queue) {
    cache.putQueue(queue);
    inferred.queuesChanged();
  }

  @Override
  public void queueGone(String name) {
    cache.removeQueue(name);
    inferred.queuesChanged();
  }

  @Override
  public void podGroup(PodGroup group) {
    cache.putPodGroup(group);
  }

  @Override
  public void podGroupGone(String key) {
    cache.removePodGroup(key);
  }

  @Override
  public void coschedulingGroup(CoschedulingGroup group) {
    inferred.putCoscheduling(group);
  }

  @Override
  public void coschedulingGroupGone(String key) {
    inferred.removeCoscheduling(key);
  }

  @Override
  public void owner(OwnerObject owner) {
    String before = ownerUids.put(owner.kind() + " " + owner.namespace() + "/" + owner.name(), owner.uid());
    if (before != null && !before.equals(owner.uid())) {
      inferred.removeOwner(before);
    }
    inferred.putOwner(owner);
  }

  @Override
  public void resourceQuota(io.basalt.model.NamespaceQuota quota) {
    cache.putNamespaceQuota(quota);
  }

  @Override
  public void resourceQuotaGone(String key) {
    cache.removeNamespaceQuota(key);
  }

  @Override
  public void kueue(io.basalt.kube.kueue.KueueRecord record) {
    kueue.put(record, cache::observe);
  }

  @Override
  public void kueueGone(String kind, String key) {
    kueue.remove(kind, key, cache::observe);
  }

  @Override
  public void kueueJob(String key, io.basalt.kube.kueue.KueueJob job) {
    kueue.putJob(key, job);
  }

  @Override
  public void ownerGone(String kind, String key) {
    if ("Job".equals(kind)) {
      kueue.removeJob(key);
    }
    String uid = ownerUids.remove(kind + " " + key);
    if (uid != null) {
      inferred.removeOwner(uid);
    }
  }

  @Override
  public void hyperNode(String name, JsonObject document) {
    topology.putHyperNode(name == null ? "" : name, document);
  }

  @Override
  public void hyperNodeGone(String name) {
    topology.removeHyperNode(name);
  }

  @Override
  public void deviceClass(io.basalt.dra.DeviceClass deviceClass) {
    cache.putDeviceClass(deviceClass);
  }

  @Override
  public void deviceClassGone(String name) {
    cache.removeDeviceClass(name);
  }

  @Override
  public void resourceSlice(io.basalt.dra.ResourceSlice slice) {
    cache.putResourceSlice(slice);
  }

  @Override
  public void resourceSliceGone(String name) {
    cache.removeResourceSlice(name);
  }

  @Override
  public void resourceClaim(io.basalt.dra.ResourceClaim claim) {
    cache.putResourceClaim(claim);
  }

  @Override
  public void resourceClaimGone(String key) {
    cache.removeResourceClaim(key);
  }

  @Override
  public void claimTemplate(io.basalt.dra.ClaimTemplate template) {
    cache.putClaimTemplate(template);
  }

  @Override
  public void claimTemplateGone(String key) {
    cache.removeClaimTemplate(key);
  }
}
