package io.basalt.sim;

import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import java.util.HashMap;
import java.util.Map;

/**
 * The objects pre-bind steps write in the simulated cluster: annotations per object, each write guarded by a
 * resourceVersion as the API server's are. Every object exists (the simulator's nodes and pods all do). Its node
 * agents act at once: what a step leaves behind for them after a bind (HAMi's node lock, released by HAMi's device
 * plugin once it allocated) is consumed as soon as the pod is bound ({@link #agentsAct}).
 */
final class InMemoryObjects implements ApiObjects {
  private final Map<String, Map<String, String>> annotations = new HashMap<>();
  private final Map<String, Long> versions = new HashMap<>();
  /** The claims and PVs, when the simulation has storage objects (null: none, every volume write unsupported). */
  SimStorage storage;

  private static String key(Kind kind, String namespace, String name) {
    return kind + "/" + (namespace == null ? "" : namespace + "/") + name;
  }

  @Override
  public Meta read(Kind kind, String namespace, String name) {
    String k = key(kind, namespace, name);
    return new Meta(Map.copyOf(annotations.getOrDefault(k, Map.of())),
        Long.toString(versions.getOrDefault(k, 0L)), new ApiReply(200, ""));
  }

  @Override
  public ApiReply annotate(Kind kind, String namespace, String name, String key, String value,
      String resourceVersion) {
    String k = key(kind, namespace, name);
    if (!Long.toString(versions.getOrDefault(k, 0L)).equals(resourceVersion)) {
      return new ApiReply(409, "the object has been modified");
    }
    Map<String, String> a = annotations.computeIfAbsent(k, x -> new HashMap<>());
    if (value == null) {
      a.remove(key);
    } else {
      a.put(key, value);
    }
    versions.merge(k, 1L, Long::sum);
    return new ApiReply(200, "");
  }

  /** ResourceClaims' statuses by {@code namespace/name}, as the claim pre-bind step wrote them. */
  private final Map<String, com.google.gson.JsonObject> claims = new java.util.TreeMap<>();

  @Override
  public ClaimStatus readClaimStatus(String namespace, String name) {
    String k = key(null, namespace, name);
    com.google.gson.JsonObject s = claims.get(namespace + "/" + name);
    return new ClaimStatus(s == null ? new com.google.gson.JsonObject() : s.deepCopy(),
        Long.toString(versions.getOrDefault(k, 0L)), new ApiReply(200, ""));
  }

  @Override
  public ApiReply writeClaimStatus(String namespace, String name, com.google.gson.JsonObject status,
      String resourceVersion) {
    String k = key(null, namespace, name);
    if (!Long.toString(versions.getOrDefault(k, 0L)).equals(resourceVersion)) {
      return new ApiReply(409, "the object has been modified");
    }
    claims.put(namespace + "/" + name, status.deepCopy());
    versions.merge(k, 1L, Long::sum);
    return new ApiReply(200, "");
  }

  /** The statuses written to ResourceClaims, by {@code namespace/name}; claims never written are absent. */
  Map<String, com.google.gson.JsonObject> claimStatuses() {
    return java.util.Collections.unmodifiableMap(claims);
  }

  @Override
  public Read<io.basalt.model.VolumeClaim> readClaim(String namespace, String name) {
    return storage == null ? ApiObjects.super.readClaim(namespace, name) : storage.readClaim(namespace, name);
  }

  @Override
  public Read<io.basalt.model.PersistentVolume> readVolume(String name) {
    return storage == null ? ApiObjects.super.readVolume(name) : storage.readVolume(name);
  }

  @Override
  public ApiReply selectNode(String namespace, String claim, String node, String resourceVersion) {
    return storage == null ? ApiReply.UNSUPPORTED : storage.selectNode(namespace, claim, node, resourceVersion);
  }

  @Override
  public ApiReply reserveVolume(String volume, io.basalt.model.VolumeClaim claim, String resourceVersion) {
    return storage == null ? ApiReply.UNSUPPORTED : storage.reserveVolume(volume, claim, resourceVersion);
  }

  /** Whether anything is written (what a failed bind left would show here). */
  boolean isEmpty() {
    return annotations.values().stream().allMatch(Map::isEmpty);
  }

  /** The node agents consume what the steps left for them: after a bind, nothing stays. */
  void agentsAct() {
    annotations.clear();
  }
}
