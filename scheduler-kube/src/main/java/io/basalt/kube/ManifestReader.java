package io.basalt.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.Expansion;
import io.basalt.kube.kinds.KindAdapter;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads Kubernetes manifests (what {@code kubectl apply -f} takes) into client-java objects: a string, a file, or every
 * {@code *.yaml}, {@code *.yml} and {@code *.json} file of a directory (sorted by name, not recursive). Documents are
 * {@code ---}-separated; {@code kind: List} (and {@code PodList} etc.) contributes its items.
 *
 * <p>Kept: the kinds of its {@link Kinds} registry (nodes, pods, PriorityClasses, Volcano's and the coscheduling
 * PodGroups, Volcano Queues and HyperNodes, ...), each read by its adapter. A workload kind (Volcano Job, batch/v1 Job,
 * JobSet, PyTorchJob, MPIJob) is expanded into the pods and PodGroup its controllers would create; an object given
 * explicitly replaces the one an expansion made. Any other kind (a Deployment) is listed in
 * {@link Manifests#skipped()}. An object of a kept kind that
 * cannot be read (a bad quantity, a wrong type, no kind, a duplicate) is listed in {@link Manifests#errors()} and left
 * out; fields the model does not know are listed in {@link Manifests#warnings()}. Malformed YAML throws a
 * {@link ManifestException} naming the file and document (see {@link ManifestDocuments}, which splits and parses
 * the text; this class turns each document into an object of a kept kind).
 *
 * <p>Fixtures usually omit {@code metadata.creationTimestamp}: an object without one gets {@code creationBase} plus
 * its position in the load (0, 1, 2, ... seconds, counting every object of every source in order), so document order
 * is creation order. ({@code metadata.uid} is left alone: {@link KubeConverter} falls back to namespace/name.)
 */
public final class ManifestReader {
  /** The creation time of the first object without one; the n-th object (from 0) gets this plus n seconds. */
  public static final Instant DEFAULT_CREATION_BASE = Instant.parse("2024-01-01T00:00:00Z");

  private static final Pattern UNKNOWN_FIELD =
      Pattern.compile("The field `([^`]*)` in the JSON string is not defined in the `([^`]*)` properties.*", Pattern.DOTALL);
  private static final Pattern REQUIRED_FIELD =
      Pattern.compile("The required field `([^`]*)` is not found in the JSON string.*", Pattern.DOTALL);

  private final Kinds kinds;
  private final Instant creationBase;

  public ManifestReader() {
    this(DEFAULT_CREATION_BASE);
  }

  /** @param creationBase creation time given to the first object that has none */
  public ManifestReader(Instant creationBase) {
    this(Kinds.builtin(), creationBase);
  }

  /** @param kinds the kinds to read; documents of any other kind are skipped */
  public ManifestReader(Kinds kinds, Instant creationBase) {
    this.kinds = kinds;
    this.creationBase = creationBase;
  }

  /** Reads YAML text; errors name the source {@code <string>}. */
  public Manifests readString(String yaml) {
    return readString("<string>", yaml);
  }

  /** Reads YAML text; {@code sourceName} labels skipped documents and errors. */
  public Manifests readString(String sourceName, String yaml) {
    Load load = new Load();
    load.yaml(sourceName, yaml);
    return load.out.build();
  }

  /** Reads a file, or every manifest file of a directory in name order. */
  public Manifests read(Path fileOrDirectory) throws IOException {
    return read(List.of(fileOrDirectory));
  }

  /** Reads several files and directories as one load (object positions continue from one to the next). */
  public Manifests read(List<Path> paths) throws IOException {
    Load load = new Load();
    for (Path p : paths) {
      if (Files.isDirectory(p)) {
        for (Path f : manifestFiles(p)) {
          load.file(f);
        }
      } else {
        load.file(p);
      }
    }
    return load.out.build();
  }

  /** The {@code *.yaml}, {@code *.yml} and {@code *.json} files directly in {@code dir}, sorted by name. */
  public static List<Path> manifestFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> {
            String n = p.getFileName().toString();
            return !n.startsWith(".") && (n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json"));
          })
          .sorted(Comparator.comparing(p -> p.getFileName().toString()))
          .toList();
    }
  }

  /** The engine's model of {@code manifests}; objects failing conversion are reported in its errors, not thrown. */
  public static ClusterObjects toModel(Manifests manifests) {
    return ClusterObjects.from(manifests);
  }

  /** One load: objects collected so far, positions handed out, names seen. */
  private final class Load {
    final Manifests.Builder out = new Manifests.Builder(kinds);
    final Map<String, String> seen = new HashMap<>();
    /** Objects a workload's expansion made, by key: an object given explicitly replaces one (a controller adopts it). */
    final Map<String, KubernetesObject> generated = new HashMap<>();
    int expanding;
    int position;

    void file(Path f) throws IOException {
      String source = f.getFileName() == null ? f.toString() : f.getFileName().toString();
      String text;
      try {
        text = Files.readString(f, StandardCharsets.UTF_8);
      } catch (CharacterCodingException e) {
        throw new ManifestException(source, 0, "not UTF-8 text", e);
      }
      if (source.endsWith(".json")) {
        json(source, text);
      } else {
        yaml(source, text);
      }
    }

    void yaml(String source, String text) {
      ManifestDocuments.yaml(source, text, this::object);
    }

    void json(String source, String text) {
      ManifestDocuments.json(source, text, this::object);
    }

    void object(JsonElement el, String where) {
      if (el == null || el.isJsonNull()) {
        return; // an empty document
      }
      if (!el.isJsonObject()) {
        out.errors.add(where + ": not a Kubernetes object (expected a mapping with apiVersion, kind and metadata)");
        return;
      }
      JsonObject o = el.getAsJsonObject();
      String kind = KubeJson.string(o, "kind");
      String apiVersion = KubeJson.string(o, "apiVersion");
      JsonElement items = o.get("items");
      if (kind != null && kind.endsWith("List") && items != null && items.isJsonArray()) {
        for (int i = 0; i < items.getAsJsonArray().size(); i++) {
          object(items.getAsJsonArray().get(i), where + " item " + (i + 1));
        }
        return;
      }
      int pos = position++;
      String display = displayName(o);
      if (kind == null || kind.isEmpty()) {
        out.errors.add(where + ": '" + display + "' has no kind");
        return;
      }
      if (apiVersion == null || apiVersion.isEmpty()) {
        out.errors.add(where + ": " + kind + " '" + display + "' has no apiVersion");
        return;
      }
      KindAdapter<?> adapter = kinds.forDocument(apiVersion, kind);
      if (adapter == null) {
        out.skipped.add(where + ": skipped kind " + kind + " " + apiVersion + " '" + display + "'");
        return;
      }
      Expansion x = adapter.expand(o);
      if (x != null) { // a workload (Volcano Job, Job, JobSet, ...): read what its controllers would create
        if (x.ownerUid() != null) {
          out.owners.add(owner(o, kind, x.ownerUid(), creationBase.plusSeconds(pos)));
        }
        expanding++;
        x.documents().forEach(d -> object(d, where + " (" + x.origin() + ")"));
        expanding--;
        x.errors().forEach(e -> out.errors.add(where + ": " + e));
        x.warnings().forEach(w -> out.warnings.add(where + ": " + w));
        return;
      }
      String label = where + ": " + kind + " " + objectKey(adapter.namespaced(), o);
      JsonElement metadata = o.get("metadata");
      if (metadata == null || metadata.isJsonNull()) {
        o.add("metadata", new JsonObject()); // every object read gets metadata, for the creation time below
      }
      KubernetesObject obj;
      try {
        obj = adapter.fromDocument(o, KubeJson.GSON);
      } catch (KubeJson.FieldException e) {
        out.errors.add(label + ": " + e.field() + ": " + e.problem);
        return;
      } catch (JsonParseException | IllegalArgumentException | IllegalStateException e) {
        out.errors.add(label + ": " + gsonProblem(e));
        return;
      }
      String warning = check(adapter, o);
      if (warning != null) {
        out.warnings.add(label + ": " + warning);
      }
      V1ObjectMeta meta = obj.getMetadata();
      if (meta.getCreationTimestamp() == null) {
        meta.setCreationTimestamp(OffsetDateTime.ofInstant(creationBase.plusSeconds(pos), ZoneOffset.UTC));
      }
      if (meta.getName() != null && !meta.getName().isEmpty()) {
        String key = kind + " " + objectKey(adapter.namespaced(), o);
        String first = seen.putIfAbsent(key, where);
        if (first != null) {
          KubernetesObject made = generated.remove(key);
          if (expanding > 0) {
            return; // the controller would adopt the object the manifests already hold
          } else if (made != null) {
            out.remove(made); // a dump holding a workload and what its controller made: the explicit object wins
            seen.put(key, where);
          } else {
            out.errors.add(where + ": duplicate " + key + " (first at " + first + "), ignored");
            return;
          }
        } else if (expanding > 0) {
          generated.put(key, obj);
        }
      }
      out.add(adapter, obj, where);
    }
  }

  /** What gang inference reads of a workload: kind, name, uid, labels, annotations, creation time. */
  private static OwnerObject owner(JsonObject o, String kind, String uid, Instant defaultCreation) {
    JsonObject meta = o.get("metadata") != null && o.get("metadata").isJsonObject() ? o.getAsJsonObject("metadata")
        : new JsonObject();
    String ns = KubeJson.string(meta, "namespace");
    Instant created = defaultCreation;
    String stamp = KubeJson.string(meta, "creationTimestamp");
    if (stamp != null) {
      try {
        created = OffsetDateTime.parse(stamp).toInstant();
      } catch (java.time.format.DateTimeParseException e) {
        // the expansion reports the object's problems; the default time will do here
      }
    }
    return new OwnerObject(kind, ns == null || ns.isEmpty() ? KubeConverter.DEFAULT_NAMESPACE : ns,
        KubeJson.string(meta, "name"), uid, stringMap(meta, "labels"), stringMap(meta, "annotations"), created);
  }

  private static Map<String, String> stringMap(JsonObject meta, String field) {
    Map<String, String> out = new HashMap<>();
    JsonElement e = meta.get(field);
    if (e != null && e.isJsonObject()) {
      e.getAsJsonObject().entrySet().forEach(en -> {
        if (en.getValue().isJsonPrimitive()) {
          out.put(en.getKey(), en.getValue().getAsString());
        }
      });
    }
    return out;
  }

  /** {@code namespace/name} for namespaced kinds (namespace defaulting as the converter does), else {@code name}. */
  private static String objectKey(boolean namespaced, JsonObject o) {
    JsonObject meta = o.get("metadata") != null && o.get("metadata").isJsonObject() ? o.getAsJsonObject("metadata")
        : new JsonObject();
    String name = KubeJson.string(meta, "name");
    name = name == null || name.isEmpty() ? "<unnamed>" : name;
    if (!namespaced) {
      return name;
    }
    String ns = KubeJson.string(meta, "namespace");
    return (ns == null || ns.isEmpty() ? KubeConverter.DEFAULT_NAMESPACE : ns) + "/" + name;
  }

  /** {@code namespace/name} or {@code name} as the document wrote it, for skipped kinds. */
  private static String displayName(JsonObject o) {
    JsonElement m = o.get("metadata");
    if (m == null || !m.isJsonObject()) {
      return "<unnamed>";
    }
    String name = KubeJson.string(m.getAsJsonObject(), "name");
    String ns = KubeJson.string(m.getAsJsonObject(), "namespace");
    name = name == null || name.isEmpty() ? "<unnamed>" : name;
    return ns == null || ns.isEmpty() ? name : ns + "/" + name;
  }

  /**
   * The kind's strict check (client-java's: unknown fields, missing required fields) as a warning; it stops at the
   * first problem. Null when clean or for kinds without one (custom resources).
   */
  private static String check(KindAdapter<?> kind, JsonObject o) {
    try {
      kind.check(o);
      return null;
    } catch (IOException | RuntimeException e) {
      String m = String.valueOf(e.getMessage());
      Matcher unknown = UNKNOWN_FIELD.matcher(m);
      if (unknown.matches()) {
        return "unknown field '" + unknown.group(1) + "' in " + unknown.group(2) + " (ignored)";
      }
      Matcher required = REQUIRED_FIELD.matcher(m);
      if (required.matches()) {
        return "missing field '" + required.group(1) + "' that Kubernetes requires";
      }
      if (m.startsWith("Not a JSON")) { // client-java met a null or a scalar where an object belongs
        String at = nullInList(o, "");
        return at != null ? at + ": a null where an object belongs"
            : "a null or a plain value where an object belongs";
      }
      int json = m.indexOf(" in the JSON string");
      json = json > 0 ? json : m.indexOf(" JSON: ");
      return json > 0 ? m.substring(0, json) : m.substring(0, Math.min(m.length(), 200));
    }
  }

  /**
   * The first list element of {@code e} that is null ({@code spec.containers[0]}), the usual cause of client-java's
   * "Not a JSON Object: null", which names no field; null when there is none.
   */
  private static String nullInList(JsonElement e, String path) {
    if (e.isJsonObject()) {
      for (Map.Entry<String, JsonElement> f : e.getAsJsonObject().entrySet()) {
        String at = nullInList(f.getValue(), path.isEmpty() ? f.getKey() : path + "." + f.getKey());
        if (at != null) {
          return at;
        }
      }
    } else if (e.isJsonArray()) {
      for (int i = 0; i < e.getAsJsonArray().size(); i++) {
        JsonElement item = e.getAsJsonArray().get(i);
        String at = item.isJsonNull() ? path + "[" + i + "]" : nullInList(item, path + "[" + i + "]");
        if (at != null) {
          return at;
        }
      }
    }
    return null;
  }

  /** Gson's message, innermost cause first, without its troubleshooting link. */
  private static String gsonProblem(RuntimeException e) {
    return ParserWords.problem(e);
  }
}
