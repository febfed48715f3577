package io.basalt.app;

import io.basalt.testing.FuzzJson;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Seeded mutations of Kubernetes cluster YAML: {@link ConfigMutator}'s edits of any YAML (lines deleted or
 * re-indented, values swapped for other types, huge numbers, aliases fanned out, truncation), plus edits that reach
 * what a manifest means: a key deleted with its block, a value nulled, a quantity beyond every range, a container
 * nulled, and a GPU annotation of hostile JSON ({@link FuzzJson}) put on an object. The same seed gives the same
 * mutants.
 */
final class ManifestMutator {
  private static final List<String> QUANTITIES = List.of("-1", "0", "1e400", "9223372036854775807",
      "9223372036854775808", "99999999999999999999Ei", "1Ei", "0.0000001m", "1.5", "\"\"", "~", "Infinity", "NaN",
      "'1e18'", "[1]", "{a: 1}", "8Gi", "1000000000000", "0x10", "-0", "2147483648");
  private static final List<String> GPU_ANNOTATIONS = List.of("basalt.io/gpu-topology",
      "metax-tech.com/node-gpu-devices", "hami.io/node-nvidia-register", "basalt.io/gpu-devices",
      "hami.io/vgpu-devices-allocated", "hami.io/metax-sgpu-devices-allocated", "hami.io/metax-gpu-devices-allocated",
      "nvidia.com/use-gputype", "hami.io/mutex.lock");
  private static final List<String> GPU_VALUES = List.of(
      "{\"devices\":[{\"index\":0,\"uuid\":\"GPU-0\"},{\"index\":1,\"uuid\":\"GPU-1\"}],\"links\":[[\"X\",\"NV4\"],"
          + "[\"NV4\",\"X\"]]}", "[{\"uuid\":\"GPU-0\",\"linkZone\":1},{\"uuid\":\"GPU-1\",\"linkZone\":1}]",
      "GPU-0,10,81920,100,H100,0,true:", "0,1", "GPU-0,NVIDIA,81920,0:;");

  private final ConfigMutator generic;
  private final FuzzJson json;
  private final Random random;

  ManifestMutator(long seed) {
    this.generic = new ConfigMutator(seed);
    this.json = new FuzzJson(seed + 1);
    this.random = json.random();
  }

  /** {@code text} with one to three mutations, half of them specific to manifests. */
  String mutate(String text) {
    String t = text;
    for (int n = 1 + random.nextInt(3); n > 0; n--) {
      t = switch (random.nextInt(8)) {
        case 0, 1, 2 -> generic.mutate(t);
        case 3 -> deleteKey(t);
        case 4 -> setValue(t, "~");
        case 5 -> quantity(t);
        case 6 -> nullContainer(t);
        default -> gpuAnnotation(t);
      };
    }
    return t;
  }

  private List<String> lines(String text) {
    return new ArrayList<>(Arrays.asList(text.split("\n", -1)));
  }

  private static int indent(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  /** Lines holding a {@code key:} (block or inline), optionally only those whose key matches. */
  private List<Integer> keyLines(List<String> lines, String key) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String s = lines.get(i).strip().replaceFirst("^- ", "");
      if (s.matches("[A-Za-z][\\w./-]*:( .*)?") && (key == null || s.startsWith(key + ":"))) {
        out.add(i);
      }
    }
    return out;
  }

  /** A key and every more-indented line after it: a field gone (metadata, spec, resources, name). */
  private String deleteKey(String text) {
    List<String> l = lines(text);
    List<Integer> keys = keyLines(l, null);
    if (keys.isEmpty()) {
      return text;
    }
    int at = keys.get(random.nextInt(keys.size()));
    int depth = indent(l.get(at));
    int end = at + 1;
    while (end < l.size() && !l.get(end).isBlank() && indent(l.get(end)) > depth) {
      end++;
    }
    l.subList(at, end).clear();
    return String.join("\n", l);
  }

  /** A key's value, block or inline, replaced by {@code value}. */
  private String setValue(String text, String value) {
    List<String> l = lines(text);
    List<Integer> keys = keyLines(l, null);
    return keys.isEmpty() ? text : replace(l, keys.get(random.nextInt(keys.size())), value);
  }

  private String replace(List<String> l, int at, String value) {
    String line = l.get(at);
    int depth = indent(line);
    int end = at + 1;
    while (end < l.size() && !l.get(end).isBlank() && indent(l.get(end)) > depth) {
      end++;
    }
    l.subList(at + 1, end).clear();
    l.set(at, line.substring(0, line.indexOf(':') + 1) + " " + value);
    return String.join("\n", l);
  }

  /** A resource quantity (cpu, memory, GPUs, pods) beyond every range or of another type. */
  private String quantity(String text) {
    List<String> l = lines(text);
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      if (l.get(i).matches("\\s*(cpu|memory|pods|nvidia\\.com/\\w+|metax-tech\\.com/\\w+|minMember):.*")) {
        at.add(i);
      }
    }
    return at.isEmpty() ? setValue(text, QUANTITIES.get(random.nextInt(QUANTITIES.size())))
        : replace(l, at.get(random.nextInt(at.size())), QUANTITIES.get(random.nextInt(QUANTITIES.size())));
  }

  /** {@code containers: [null]}, or a null among a list's items. */
  private String nullContainer(String text) {
    List<String> l = lines(text);
    List<Integer> at = keyLines(l, "containers");
    if (at.isEmpty()) {
      return text;
    }
    return replace(l, at.get(random.nextInt(at.size())), random.nextBoolean() ? "[null]" : "[{name: c}, null, 3]");
  }

  /** A GPU annotation of hostile JSON (or a mutant of a valid value) on an object's metadata. */
  private String gpuAnnotation(String text) {
    List<String> l = lines(text);
    List<Integer> at = keyLines(l, "metadata");
    if (at.isEmpty()) {
      return text;
    }
    int i = at.get(random.nextInt(at.size()));
    String value = json.next(GPU_VALUES);
    value = value.length() > 20_000 ? value.substring(0, 20_000) : value;
    if (random.nextInt(4) > 0) {
      value = value.replaceAll("[\\x00-\\x1f\\x{85}\\x{2028}\\uD800-\\uDFFF]", "?"); // mostly still YAML
    }
    String key = GPU_ANNOTATIONS.get(random.nextInt(GPU_ANNOTATIONS.size()));
    String entry = "annotations: {" + key + ": '" + value.replace("'", "''").replace("\n", " ") + "'}";
    String line = l.get(i);
    if (line.strip().equals("metadata:") || line.strip().equals("- metadata:")) {
      l.add(i + 1, " ".repeat(indent(line) + (line.strip().startsWith("-") ? 4 : 2)) + entry);
    } else if (line.contains("metadata: {")) {
      l.set(i, line.replaceFirst("metadata: \\{", "metadata: {" + java.util.regex.Matcher.quoteReplacement(entry)
          + ", "));
    } else {
      return text;
    }
    return String.join("\n", l);
  }
}
