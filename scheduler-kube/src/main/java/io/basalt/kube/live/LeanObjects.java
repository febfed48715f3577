package io.basalt.kube.live;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;

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

  private LeanObjects(boolean enabled) {
    this.enabled = enabled;
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
