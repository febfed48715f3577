package io.basalt.kube.live;

import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.KubeConversionException;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.DeltaFIFO.DeletedFinalStateUnknown;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns one kind's informer events, through its {@link KindAdapter}, into {@link CacheRecords} calls. It exists so
 * that no event can escape as an exception into client-java's listener thread: an object that does not convert
 * ({@link KubeConversionException}) is recorded in {@link InformerProblems} and skipped (the cache keeps its last good
 * version), and a delete that arrives as a tombstone still removes.
 */
final class InformerHandler<T extends KubernetesObject> implements ResourceEventHandler<T> {
  private final KindAdapter<T> adapter;
  private final String kind;
  private final boolean namespaced;
  private final CacheRecords records;
  private final InformerProblems problems;
  /** Informer keys delivered so far, until {@link #caughtUp} first succeeds; then null. */
  private volatile Set<String> delivered = ConcurrentHashMap.newKeySet();

  InformerHandler(KindAdapter<T> adapter, CacheRecords records, InformerProblems problems) {
    this.adapter = adapter;
    this.kind = adapter.kind();
    this.namespaced = adapter.namespaced();
    this.records = records;
    this.problems = problems;
  }

  @Override
  public void onAdd(T obj) {
    apply(obj);
    track(obj);
  }

  @Override
  public void onUpdate(T oldObj, T newObj) {
    apply(newObj);
    track(newObj);
  }

  /**
   * Whether every object under {@code informerKeys} (the informer's store once it has synced) has reached this
   * handler. An informer reports synced when its initial list is queued to handlers, not when they have run, so
   * start waits for this too before the cache is called loaded.
   */
  boolean caughtUp(Collection<String> informerKeys) {
    Set<String> seen = delivered;
    if (seen == null) {
      return true;
    }
    if (!seen.containsAll(informerKeys)) {
      return false;
    }
    delivered = null;
    return true;
  }

  boolean caughtUp() {
    return delivered == null;
  }

  private void track(T obj) {
    Set<String> seen = delivered;
    if (seen != null && obj != null && obj.getMetadata() != null) {
      seen.add(Caches.metaNamespaceKeyFunc(obj));
    }
  }

  @Override
  public void onDelete(T obj, boolean finalStateUnknown) {
    T o = unwrap(obj);
    if (o == null || o.getMetadata() == null) {
      return;
    }
    track(o);
    String key = key(o.getMetadata(), namespaced);
    problems.cleared(kind, key);
    try {
      adapter.remove(o, key, records);
    } catch (RuntimeException e) {
      problems.skipped(kind, key, kind + " " + key + ": delete failed: " + e, e);
    }
  }

  private void apply(T obj) {
    if (obj == null) {
      return;
    }
    String key = obj.getMetadata() == null ? "<unnamed>" : key(obj.getMetadata(), namespaced);
    try {
      adapter.put(obj, records);
      problems.cleared(kind, key);
    } catch (KubeConversionException e) {
      problems.skipped(kind, key, e.getMessage(), null);
    } catch (RuntimeException e) {
      problems.skipped(kind, key, kind + " " + key + ": " + e, e);
    }
  }

  /** client-java unwraps tombstones before calling handlers today; this keeps deletes working if one slips through. */
  @SuppressWarnings("unchecked")
  private static <T extends KubernetesObject> T unwrap(T obj) {
    Object o = obj;
    if (o instanceof DeletedFinalStateUnknown<?> tombstone) {
      return (T) tombstone.getObj();
    }
    return obj;
  }

  /** {@code namespace/name} (namespace defaulted as the converter does) or {@code name}. */
  static String key(V1ObjectMeta meta, boolean namespaced) {
    String name = meta.getName() == null ? "<unnamed>" : meta.getName();
    if (!namespaced) {
      return name;
    }
    String ns = meta.getNamespace() == null || meta.getNamespace().isEmpty()
        ? Conversion.DEFAULT_NAMESPACE : meta.getNamespace();
    return ns + "/" + name;
  }
}
