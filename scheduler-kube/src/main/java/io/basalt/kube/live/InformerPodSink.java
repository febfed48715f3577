package io.basalt.kube.live;

import io.basalt.cache.ClusterCache;
import io.basalt.kube.KubeConverter;
import io.basalt.model.Pod;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Pods into the cache, which keys them by uid while informers key them by {@code namespace/name}. Remembering the uid
 * per name lets a tombstone without a uid still remove, and a pod re-created under the same name (seen as an update
 * after a re-list) replace the old one instead of leaving its resources counted.
 */
final class InformerPodSink implements InformerHandler.Sink<V1Pod> {
  private final ClusterCache cache;
  private final Predicate<String> bindInFlight;
  private final Map<String, String> uids = new ConcurrentHashMap<>();

  /** @param bindInFlight whether a pod uid's bind is in flight: its cache entry is then our assumption */
  InformerPodSink(ClusterCache cache, Predicate<String> bindInFlight) {
    this.cache = cache;
    this.bindInFlight = bindInFlight;
  }

  /**
   * An update of a pod whose bind is in flight (its status written, a label added) still shows it unbound; it must
   * not undo the assumption, or the room the pod is being bound into would look free for a cycle. So while the bind
   * is in flight the pod keeps its assumed node and annotations (the chosen GPUs); the bind's outcome, or the
   * informer reporting the pod bound, settles it.
   */
  @Override
  public void put(V1Pod obj) {
    Pod pod = KubeConverter.toPod(obj);
    String previous = uids.put(pod.key(), pod.uid());
    if (previous != null && !previous.equals(pod.uid())) {
      cache.removePod(previous);
    }
    synchronized (cache) {
      Pod current = cache.pod(pod.uid());
      if (!pod.isAssigned() && current != null && current.isAssigned() && bindInFlight.test(pod.uid())) {
        Map<String, String> annotations = new HashMap<>(pod.annotations());
        annotations.putAll(current.annotations());
        pod = pod.withAnnotations(annotations).withNodeName(current.nodeName());
      }
      cache.putPod(pod);
    }
  }

  @Override
  public void remove(V1Pod obj, String key) {
    String uid = uids.remove(key);
    if (uid == null && obj.getMetadata() != null) {
      uid = obj.getMetadata().getUid();
    }
    if (uid != null) {
      cache.removePod(uid);
    }
  }
}
