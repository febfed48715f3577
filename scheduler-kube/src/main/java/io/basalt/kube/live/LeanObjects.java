package io.basalt.kube.live;

import com.google.gson.ExclusionStrategy;
import com.google.gson.FieldAttributes;
import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import io.basalt.kube.kinds.Conversion;
import io.kubernetes.client.openapi.models.V1ConfigMapVolumeSource;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1DownwardAPIVolumeSource;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1ProjectedVolumeSource;
import io.kubernetes.client.openapi.models.V1SecretVolumeSource;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drops, from an object as it is read off the wire and before it is built, what the scheduler never reads, so the
 * informers' stores hold lean objects. Every kind loses {@code metadata.managedFields}. A pod also loses, per
 * container (init and app; ephemeral containers go whole): env, envFrom, command, args, probes, lifecycle, volume
 * mounts and devices, security context and the like, keeping name, image, resources, ports and restartPolicy;
 * the contents of its configMap, secret, projected and downwardAPI volumes (the volume and its kind stay: claims,
 * ephemeral claim templates and disk sources are kept whole); and from its status the container statuses, conditions
 * and pod IPs, keeping phase, nominatedNodeName, hostIP, qosClass and resourceClaimStatuses. A node loses its
 * status' images, attached volumes, nodeInfo, daemon endpoints, config and features. What conversion reads
 * (labels, annotations, owner references, the whole spec otherwise) is kept; {@code LeanObjectsTest} checks that
 * every fixture pod and node converts to the same engine record with and without this. A reader of a new pod or
 * node field must keep it here.
 */
final class LeanObjects {
  /** Per container: fields no conversion reads. */
  private static final List<String> CONTAINER_FIELDS = List.of("env", "envFrom", "command", "args", "workingDir",
      "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "volumeMounts", "volumeDevices",
      "securityContext", "terminationMessagePath", "terminationMessagePolicy", "imagePullPolicy", "stdin",
      "stdinOnce", "tty", "resizePolicy");
  private static final List<String> POD_STATUS_FIELDS = List.of("containerStatuses", "initContainerStatuses",
      "ephemeralContainerStatuses", "conditions", "podIP", "podIPs", "hostIPs", "startTime", "resize");
  private static final List<String> NODE_STATUS_FIELDS = List.of("images", "volumesAttached", "volumesInUse",
      "nodeInfo", "daemonEndpoints", "config", "features", "runtimeHandlers");
  /** Volume sources whose contents (which keys, which files) no conversion reads. */
  private static final List<String> VOLUME_CONTENTS = List.of("configMap", "secret", "projected", "downwardAPI");

  private final boolean enabled;
  /** Readers that skip, while reading the stream, what {@link #strip} would drop: for pods, nodes, other kinds. */
  private final Gson podReader;
  private final Gson nodeReader;
  private final Gson otherReader;

  private LeanObjects(boolean enabled) {
    this.enabled = enabled;
    Map<Class<?>, Set<String>> all = Map.of(V1ObjectMeta.class, Set.of("managedFields"));
    Map<Class<?>, Set<String>> pod = Map.of(V1ObjectMeta.class, Set.of("managedFields"),
        V1Container.class, Set.copyOf(CONTAINER_FIELDS), V1PodSpec.class, Set.of("ephemeralContainers"),
        V1PodStatus.class, Set.copyOf(POD_STATUS_FIELDS));
    Set<Class<?>> emptied = Set.of(V1ConfigMapVolumeSource.class, V1SecretVolumeSource.class,
        V1ProjectedVolumeSource.class, V1DownwardAPIVolumeSource.class);
    Map<Class<?>, Set<String>> node = Map.of(V1ObjectMeta.class, Set.of("managedFields"),
        V1NodeStatus.class, Set.copyOf(NODE_STATUS_FIELDS));
    this.podReader = enabled ? reader(pod, emptied) : ListWatch.OBJECTS;
    this.nodeReader = enabled ? reader(node, Set.of()) : ListWatch.OBJECTS;
    this.otherReader = enabled ? reader(all, Set.of()) : ListWatch.OBJECTS;
  }

  /**
   * The Gson that builds a {@code type} straight from the wire, lean: the JSON of a dropped field is skipped as it is
   * read, never built into a tree, so a lean object costs one pass over its JSON. It builds the same object as
   * {@link #strip} followed by binding ({@code LeanObjectsTest}).
   */
  Gson reader(Class<?> type) {
    return type == V1Pod.class ? podReader : type == V1Node.class ? nodeReader : otherReader;
  }

  /** Field binding that skips {@code dropped} fields by JSON name, and every field of the {@code emptied} classes. */
  private static Gson reader(Map<Class<?>, Set<String>> dropped, Set<Class<?>> emptied) {
    return ListWatch.OBJECTS.newBuilder().addDeserializationExclusionStrategy(new ExclusionStrategy() {
      @Override
      public boolean shouldSkipField(FieldAttributes f) {
        if (emptied.contains(f.getDeclaringClass())) {
          return true;
        }
        Set<String> names = dropped.get(f.getDeclaringClass());
        if (names == null) {
          return false;
        }
        SerializedName json = f.getAnnotation(SerializedName.class);
        return names.contains(json == null ? f.getName() : json.value());
      }

      @Override
      public boolean shouldSkipClass(Class<?> c) {
        return false;
      }
    }).create();
  }

  /** Strips as documented above. */
  static LeanObjects lean() {
    return new LeanObjects(true);
  }

  /** Keeps every object whole (for comparison, and for a deployment that needs what is dropped). */
  static LeanObjects whole() {
    return new LeanObjects(false);
  }

  /** Strips {@code object} (a {@code type}) in place. */
  void strip(Class<?> type, JsonObject object) {
    if (!enabled) {
      return;
    }
    JsonObject meta = child(object, "metadata");
    if (meta != null) {
      meta.remove("managedFields");
    }
    if (type == V1Pod.class) {
      pod(object);
    } else if (type == V1Node.class) {
      JsonObject status = child(object, "status");
      if (status != null) {
        NODE_STATUS_FIELDS.forEach(status::remove);
      }
    }
  }

  private static void pod(JsonObject pod) {
    JsonObject spec = child(pod, "spec");
    if (spec != null) {
      containers(spec.get("containers"));
      containers(spec.get("initContainers"));
      spec.remove("ephemeralContainers");
      if (spec.get("volumes") instanceof JsonArray volumes) {
        for (JsonElement v : volumes) {
          if (v instanceof JsonObject volume) {
            for (String source : VOLUME_CONTENTS) {
              if (volume.has(source) && volume.get(source).isJsonObject()) {
                volume.add(source, new JsonObject());
              }
            }
          }
        }
      }
    }
    JsonObject status = child(pod, "status");
    if (status != null) {
      POD_STATUS_FIELDS.forEach(status::remove);
    }
  }

  private static void containers(JsonElement list) {
    if (list instanceof JsonArray array) {
      for (JsonElement c : array) {
        if (c instanceof JsonObject container) {
          CONTAINER_FIELDS.forEach(container::remove);
        }
      }
    }
  }

  private static JsonObject child(JsonObject o, String name) {
    JsonElement e = o.get(name);
    return e instanceof JsonObject j ? j : null;
  }

  /** {@code namespace/name} or {@code name}, for messages about an object that did not decode. */
  static String key(JsonObject object, boolean namespaced) {
    JsonObject meta = child(object, "metadata");
    String name = meta != null && meta.get("name") != null && meta.get("name").isJsonPrimitive()
        ? meta.get("name").getAsString() : "<unnamed>";
    if (!namespaced) {
      return name;
    }
    String ns = meta != null && meta.get("namespace") != null && meta.get("namespace").isJsonPrimitive()
        ? meta.get("namespace").getAsString() : "";
    return (ns.isEmpty() ? Conversion.DEFAULT_NAMESPACE : ns) + "/" + name;
  }
}
