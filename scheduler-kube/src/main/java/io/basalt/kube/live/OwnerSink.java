package io.basalt.kube.live;

import io.basalt.kube.gang.InferredGroups;
import io.basalt.kube.gang.OwnerObject;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** Owners into gang inference; remembers uids by key so a tombstone without an object still removes. */
final class OwnerSink<T extends KubernetesObject> implements InformerHandler.Sink<T> {
  private final Function<T, OwnerObject> convert;
  private final InferredGroups inferred;
  private final Map<String, String> uids = new ConcurrentHashMap<>();

  OwnerSink(Function<T, OwnerObject> convert, InferredGroups inferred) {
    this.convert = convert;
    this.inferred = inferred;
  }

  @Override
  public void put(T obj) {
    OwnerObject owner = convert.apply(obj);
    String before = uids.put(owner.namespace() + "/" + owner.name(), owner.uid());
    if (before != null && !before.equals(owner.uid())) {
      inferred.removeOwner(before);
    }
    inferred.putOwner(owner);
  }

  @Override
  public void remove(T obj, String key) {
    String uid = uids.remove(key);
    if (uid != null) {
      inferred.removeOwner(uid);
    }
  }
}
