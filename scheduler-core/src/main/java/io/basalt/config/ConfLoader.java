package io.basalt.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code volcano-scheduler.conf}, either as the plain file or as a ConfigMap manifest that holds it under the
 * key {@code volcano-scheduler.conf}. Checks structure and types only; which plugin and action names exist is the
 * business of {@code ConfValidator}.
 */
public final class ConfLoader {
  /** The ConfigMap key Volcano (and Basalt) reads the config from. */
  public static final String CONFIGMAP_KEY = "volcano-scheduler.conf";
  private static final String DEFAULT_RESOURCE = "/io/basalt/config/default-scheduler.conf";

  private ConfLoader() {}

  /** The config in force when none is given: Volcano's default tiers (see the resource for what differs). */
  public static SchedulerConf defaultConf() {
    try (InputStream in = ConfLoader.class.getResourceAsStream(DEFAULT_RESOURCE)) {
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "default config");
    } catch (IOException | ConfigException e) {
      throw new IllegalStateException("embedded default config is broken", e);
    }
  }

  public static SchedulerConf load(Path file) throws ConfigException {
    byte[] bytes;
    try {
      if (Files.size(file) > 4L * BoundedYaml.MAX_CHARS) {
        throw new ConfigException(file + ": " + Files.size(file) + " bytes, more than a scheduler config may have");
      }
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot read: " + e.getMessage());
    }
    return parse(Utf8.decode(bytes, file.toString()), file.toString());
  }

  /** Parses config text; {@code source} names it in messages. */
  public static SchedulerConf parse(String text, String source) throws ConfigException {
    Object root = BoundedYaml.load(text, source);
    if (!(root instanceof Map<?, ?> map)) {
      throw new ConfigException(source + ": expected a mapping with 'actions' and 'tiers'");
    }
    if ("ConfigMap".equals(map.get("kind"))) {
      Object data = map.get("data");
      Object conf = data instanceof Map<?, ?> d ? d.get(CONFIGMAP_KEY) : null;
      if (!(conf instanceof String s)) {
        throw new ConfigException(source + ": ConfigMap has no data key '" + CONFIGMAP_KEY + "'");
      }
      return parse(s, source + " (ConfigMap data." + CONFIGMAP_KEY + ")");
    }
    return new Parser(source).conf(map);
  }

  private static final class Parser {
    private final String source;
    private final List<String> problems = new ArrayList<>();

    Parser(String source) {
      this.source = source;
    }

    SchedulerConf conf(Map<?, ?> map) throws ConfigException {
      for (Object key : map.keySet()) {
        if (!(key instanceof String k && List.of("actions", "tiers", "configurations", "metrics").contains(k))) {
          problems.add(source + ": unknown field '" + Values.key(key) + "' (expected actions, tiers, configurations)");
        }
      }
      List<String> actions = actions(map.get("actions"));
      List<Tier> tiers = tiers(map.get("tiers"));
      Map<String, Map<String, Object>> configurations = configurations(map.get("configurations"));
      if (!problems.isEmpty()) {
        throw new ConfigException(problems);
      }
      return new SchedulerConf(actions, tiers, configurations);
    }

    private List<String> actions(Object value) {
      List<String> actions = new ArrayList<>();
      if (value == null) {
        problems.add(source + ": 'actions' is missing (e.g. actions: \"enqueue, allocate, backfill\")");
        return actions;
      }
      if (!(value instanceof String s)) {
        problems.add(source + ": 'actions' must be a comma-separated string, got " + Values.describe(value));
        return actions;
      }
      for (String a : s.split(",")) {
        String name = a.trim();
        if (!name.isEmpty()) {
          actions.add(name);
        }
      }
      if (actions.isEmpty()) {
        problems.add(source + ": 'actions' names no action");
      }
      return actions;
    }

    private List<Tier> tiers(Object value) {
      List<Tier> tiers = new ArrayList<>();
      if (value == null) {
        return tiers;
      }
      if (!(value instanceof List<?> list)) {
        problems.add(source + ": 'tiers' must be a list of {plugins: [...]}");
        return tiers;
      }
      for (int t = 0; t < list.size(); t++) {
        String where = "tiers[" + t + "]";
        if (!(list.get(t) instanceof Map<?, ?> tier) || !(tier.get("plugins") instanceof List<?> plugins)) {
          problems.add(source + ": " + where + " must have a 'plugins' list");
          continue;
        }
        List<PluginOption> options = new ArrayList<>();
        for (int p = 0; p < plugins.size(); p++) {
          PluginOption o = plugin(plugins.get(p), where + ".plugins[" + p + "]");
          if (o != null) {
            options.add(o);
          }
        }
        tiers.add(new Tier(options));
      }
      return tiers;
    }

    private PluginOption plugin(Object value, String where) {
      if (!(value instanceof Map<?, ?> entry) || !(entry.get("name") instanceof String name) || name.isBlank()) {
        problems.add(source + ": " + where + " must have a 'name'");
        return null;
      }
      String at = where + " (" + Values.clip(name) + ")";
      Map<Hook, Boolean> flags = new EnumMap<>(Hook.class);
      Map<String, Object> arguments = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : entry.entrySet()) {
        String key = Values.key(e.getKey());
        if (key.equals("name")) {
          continue;
        }
        if (key.equals("arguments")) {
          if (e.getValue() == null) {
            continue;
          }
          if (!(e.getValue() instanceof Map<?, ?> args)) {
            problems.add(source + ": " + at + ": 'arguments' must be a mapping");
            continue;
          }
          arguments(args, at, arguments);
          continue;
        }
        Hook hook = Hook.byKey(key);
        if (hook == null) {
          problems.add(source + ": " + at + ": unknown field '" + key + "'" + suggestion(key));
        } else if (e.getValue() instanceof Boolean b) {
          flags.put(hook, b);
        } else {
          problems.add(source + ": " + at + ": '" + key + "' must be true or false, got "
              + Values.describe(e.getValue()));
        }
      }
      return new PluginOption(name.trim(), flags, arguments, at);
    }

    private static String suggestion(String key) {
      for (Hook h : Hook.values()) {
        if (h.key().equalsIgnoreCase(key) || h.key().replace("enabled", "enable").equalsIgnoreCase(key)
            || h.key().replace("enable", "enabled").equalsIgnoreCase(key)) {
          return " (did you mean '" + h.key() + "'?)";
        }
      }
      return "";
    }

    /** Copies {@code args} into {@code into}; a key without a value is a problem, not a null to trip over later. */
    private void arguments(Map<?, ?> args, String at, Map<String, Object> into) {
      args.forEach((k, v) -> {
        String key = Values.key(k);
        if (v == null) {
          problems.add(source + ": " + at + ": argument '" + key + "' has no value");
        } else {
          into.put(key, v);
        }
      });
    }

    private Map<String, Map<String, Object>> configurations(Object value) {
      Map<String, Map<String, Object>> r = new LinkedHashMap<>();
      if (value == null) {
        return r;
      }
      if (!(value instanceof List<?> list)) {
        problems.add(source + ": 'configurations' must be a list of {name, arguments}");
        return r;
      }
      for (int i = 0; i < list.size(); i++) {
        if (!(list.get(i) instanceof Map<?, ?> c) || !(c.get("name") instanceof String name)) {
          problems.add(source + ": configurations[" + i + "] must have a 'name'");
          continue;
        }
        Map<String, Object> args = new LinkedHashMap<>();
        if (c.get("arguments") instanceof Map<?, ?> a) {
          arguments(a, "configurations[" + i + "] (" + name + ")", args);
        } else if (c.get("arguments") != null) {
          problems.add(source + ": configurations[" + i + "] (" + name + "): 'arguments' must be a mapping");
        }
        r.put(name.trim(), args);
      }
      return r;
    }
  }
}
