package io.basalt.kube.fake;

import com.google.gson.JsonObject;

/**
 * One committed write: its resourceVersion, ADDED/MODIFIED/DELETED, the object after the write (for DELETED, the
 * last state stamped with the deletion's resourceVersion) and the object before it (null for ADDED). Watchers need
 * both to turn a selector transition into ADDED/DELETED, as the apiserver cacher does
 * (storage/cacher/cache_watcher.go {@code convertToWatchEvent}).
 */
record StoreEvent(long resourceVersion, String type, ResourceType resource, JsonObject object, JsonObject previous) {
  String key() {
    return ObjectStore.key(Json.namespace(object), Json.name(object));
  }
}
