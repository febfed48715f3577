package io.basalt.kube.live;

import io.basalt.cache.ClusterCache;
import io.basalt.kube.KubeConverter;
import io.basalt.kube.gang.InferredGroups;
import io.basalt.model.Pod;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pods into the cache, which keys them by uid while informers key them by {@code namespace/name}. Remembering the uid
 * per name lets a tombstone without a uid still remove, and a pod re-created under the same name (seen as an update
 * after a re-list) replace the old one instead of leaving its resources counted. Gang inference sees every pod too.
 */
final class InformerPodSink implements InformerHandler.Sink<V1Pod> {
  private final ClusterCache cache;
  private final InferredGroups inferred;
  private final Map<String, String> uids = new ConcurrentHashMap<>();

  InformerPodSink(ClusterCache cache, InferredGroups inferred) {
    this.cache = cache;
    this.inferred = inferred;
  }

  /** Through {@link ClusterCache#observe}, which keeps an assumption whose bind is still in flight. */
  @Override
  public void put(V1Pod obj) {
    Pod pod = KubeConverter.toPod(obj);
    String previous = uids.put(pod.key(), pod.uid());
    if (previous != null && !previous.equals(pod.uid())) {
      cache.removePod(previous);
      inferred.removePod(previous);
    }
    cache.observe(pod);
    inferred.putPod(pod);
  }

  @Override
  public void remove(V1Pod obj, String key) {
    String uid = uids.remove(key);
    if (uid == null && obj.getMetadata() != null) {
      uid = obj.getMetadata().getUid();
    }
    if (uid != null) {
      cache.removePod(uid);
      inferred.removePod(uid);
    }
  }
}
