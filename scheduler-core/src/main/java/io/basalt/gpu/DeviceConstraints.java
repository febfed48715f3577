package io.basalt.gpu;

import io.basalt.gpu.GpuDevice;
import io.basalt.gpu.GpuTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which GPUs a pod accepts, from HAMi's annotations on the pod, per resource domain ({@code nvidia.com/...},
 * {@code metax-tech.com/...}): {@code use-gputype} / {@code nouse-gputype} (comma-separated substrings of the model
 * name, case-insensitive) and {@code use-gpuuuid} / {@code nouse-gpuuuid} (exact UUIDs).
 */
public final class DeviceConstraints {
  static final List<String> KEYS = List.of("use-gputype", "nouse-gputype", "use-gpuuuid", "nouse-gpuuuid");

  /** One annotation that limits the devices, e.g. nvidia.com/use-gputype=H100,A100. */
  private record Rule(String annotation, String key, List<String> values) {}

  private final List<Rule> rules;

  private DeviceConstraints(List<Rule> rules) {
    this.rules = rules;
  }

  /** The constraints a pod's {@code annotations} set on GPUs of the given resource domains; none when unset. */
  public static DeviceConstraints of(Map<String, String> annotations, List<String> domains) {
    if (annotations.isEmpty()) {
      return NONE;
    }
    List<Rule> rules = null;
    for (String domain : domains) {
      String[] names = namesOf(domain);
      for (int k = 0; k < names.length; k++) {
        String annotation = names[k];
        String value = annotations.get(annotation);
        if (value != null && !value.isBlank()) {
          if (rules == null) {
            rules = new ArrayList<>();
          }
          String key = KEYS.get(k);
          List<String> values = new ArrayList<>();
          for (String v : value.split(",")) {
            if (!v.isBlank()) {
              values.add(key.endsWith("gputype") ? v.trim().toLowerCase(Locale.ROOT) : v.trim());
            }
          }
          rules.add(new Rule(annotation, key, values));
        }
      }
    }
    return rules == null ? NONE : new DeviceConstraints(rules);
  }

  /** The annotation names of {@link #KEYS} under {@code domain}, built once per domain (a handful exist). */
  private static String[] namesOf(String domain) {
    String[] names = NAMES.get(domain);
    if (names == null) {
      names = KEYS.stream().map(k -> domain + "/" + k).toArray(String[]::new);
      if (NAMES.size() < 64) { // domains come from the resource names the engine knows; the bound is a backstop
        NAMES.put(domain, names);
      }
    }
    return names;
  }

  private static final Map<String, String[]> NAMES = new java.util.concurrent.ConcurrentHashMap<>();

  public static final DeviceConstraints NONE = new DeviceConstraints(List.of());

  @Override
  public boolean equals(Object o) {
    return o instanceof DeviceConstraints c && rules.equals(c.rules);
  }

  @Override
  public int hashCode() {
    return rules.hashCode();
  }

  public boolean isNone() {
    return rules.isEmpty();
  }

  /** The devices of {@code t} this pod accepts. */
  public DeviceSet allowed(GpuTopology t) {
    long[] words = new long[1];
    for (int i = 0; i < t.size(); i++) {
      if (accepts(t.device(i))) {
        words = DeviceSet.set(words, i);
      }
    }
    return DeviceSet.fromWords(words);
  }

  private boolean accepts(GpuDevice d) {
    String model = d.model().toLowerCase(Locale.ROOT);
    for (Rule r : rules) {
      boolean match = switch (r.key()) {
        case "use-gputype", "nouse-gputype" -> r.values().stream().anyMatch(model::contains);
        default -> r.values().contains(d.uuid());
      };
      if (r.key().startsWith("use-") != match) {
        return false;
      }
    }
    return true;
  }

  /** Names the annotations, for a pending pod's reason. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    for (Rule r : rules) {
      sb.append(sb.length() == 0 ? "" : ", ").append(r.annotation()).append('=').append(String.join(",", r.values()));
    }
    return sb.toString();
  }
}
