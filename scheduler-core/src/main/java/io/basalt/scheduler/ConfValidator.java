package io.basalt.scheduler;

import io.basalt.actions.Action;
import io.basalt.actions.ActionRegistry;
import io.basalt.config.Arguments;
import io.basalt.config.ConfigException;
import io.basalt.config.Hook;
import io.basalt.config.PluginOption;
import io.basalt.config.SchedulerConf;
import io.basalt.config.Tier;
import io.basalt.framework.ConfiguredPlugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginDescriptor.Conflict;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.SessionProfile;
import io.basalt.gpu.protocol.DeviceProtocols;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a parsed config against what this build has and compiles it into a {@link SchedulerProfile} in the same
 * pass: every action and plugin known, every argument readable, no plugin listed twice, and the rules each plugin
 * declares in its {@link PluginDescriptor} (hierarchy support, conflicts). Problems name where they are
 * ({@code tiers[1].plugins[4] (gpu-aware)}); unread arguments are warnings, since Volcano ignores them too, but they
 * are usually typos. Validating and compiling are one step so a config is read exactly once, however it is used.
 */
public final class ConfValidator {
  /**
   * Errors make a config unusable; warnings do not.
   *
   * @param profile the compiled config; null when there are errors
   */
  public record Report(List<String> errors, List<String> warnings, SchedulerProfile profile) {
    public Report {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
    }

    public boolean ok() {
      return errors.isEmpty();
    }

    /** The profile, or a {@link ConfigException} with every error, each prefixed with {@code prefix}. */
    public SchedulerProfile profileOrThrow(String prefix) throws ConfigException {
      if (!ok()) {
        throw new ConfigException(errors.stream().map(e -> prefix + e).toList());
      }
      return profile;
    }
  }

  private ConfValidator() {}

  /** The {@code deviceProtocol} configuration: each key a device resource (or default), each value a protocol. */
  private static void deviceProtocol(Map<String, Object> arguments, List<String> errors) {
    try {
      DeviceProtocols.AUTO.with(arguments);
    } catch (IllegalArgumentException e) {
      errors.add("configurations." + e.getMessage());
    }
    for (String key : arguments.keySet()) {
      boolean known = key.equals("default")
          || DeviceProtocols.RESOURCES.contains(key);
      if (!known) {
        errors.add("configurations." + DeviceProtocols.CONFIGURATION + "." + key + ": not a device resource (known: "
            + "default, nvidia.com/gpu, metax-tech.com/gpu, metax-tech.com/sgpu)");
      }
    }
  }

  /** Checks {@code conf}; when it has no errors, the report carries it compiled. */
  public static Report validate(SchedulerConf conf, PluginRegistry plugins, ActionRegistry actions) {
    List<String> errors = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    List<Action> built = new ArrayList<>();
    for (String action : conf.actions()) {
      if (!actions.contains(action)) {
        errors.add("actions: unknown action '" + action + "' (known: " + String.join(", ", actions.names()) + ")");
      } else {
        Arguments args = conf.actionArguments(action);
        try {
          built.add(actions.create(action, args));
        } catch (RuntimeException e) {
          errors.add(args.location() + ": cannot be built: " + reason(e));
        }
        errors.addAll(args.problems());
        args.unread().forEach(k -> warnings.add(args.location() + ": argument '" + k + "' is not used"));
      }
    }
    for (String configured : conf.configurations().keySet()) {
      if (configured.equals(DeviceProtocols.CONFIGURATION)) {
        deviceProtocol(conf.configurations().get(configured), errors);
      } else if (!actions.contains(configured) && !plugins.contains(configured)) {
        warnings.add("configurations: '" + configured + "' names no known action");
      }
    }
    List<ConfiguredPlugin<?>> entries = new ArrayList<>();
    Map<String, PluginOption> first = new LinkedHashMap<>();
    for (int t = 0; t < conf.tiers().size(); t++) {
      for (PluginOption option : conf.tiers().get(t).plugins()) {
        ConfiguredPlugin<?> entry = configure(option, t, plugins, first, errors, warnings);
        if (entry != null) {
          entries.add(entry);
        }
      }
    }
    for (Tier tier : conf.tiers()) {
      tierConflicts(tier, plugins, errors);
    }
    for (PluginOption option : first.values()) {
      for (Conflict c : plugins.descriptor(option.name()).conflicts()) {
        PluginOption other = first.get(c.plugin());
        if (!c.sameTier() && other != null && applies(c, option)) {
          errors.add(option.location() + ": plugin '" + option.name() + "' cannot be used together with '"
              + c.plugin() + "' (" + other.location() + "): " + c.reason());
        }
      }
    }
    SchedulerProfile profile = errors.isEmpty() ? new SchedulerProfile(built, new SessionProfile(conf, entries)) : null;
    return new Report(errors, warnings, profile);
  }

  /** Reads one tier entry's arguments, collecting its problems; null when it cannot be used. */
  private static ConfiguredPlugin<?> configure(PluginOption option, int tier, PluginRegistry plugins,
      Map<String, PluginOption> first, List<String> errors, List<String> warnings) {
    if (!plugins.contains(option.name())) {
      errors.add(option.location() + ": unknown plugin '" + option.name() + "' (known: "
          + String.join(", ", plugins.names()) + ")");
      return null;
    }
    PluginDescriptor<?> descriptor = plugins.descriptor(option.name());
    PluginOption earlier = first.putIfAbsent(option.name(), option);
    if (earlier != null) {
      errors.add(option.location() + ": plugin '" + option.name() + "' is already listed at " + earlier.location());
    }
    if (option.enabled(Hook.HIERARCHY) && !descriptor.hierarchical()) {
      errors.add(option.location() + ": enableHierarchy is not supported by plugin '" + option.name()
          + "' in this build");
    }
    Arguments args = new Arguments(option.arguments(), option.location());
    ConfiguredPlugin<?> entry = null;
    try {
      entry = descriptor.configure(option, tier, args);
    } catch (RuntimeException e) {
      errors.add(option.location() + ": cannot be built: " + reason(e));
    }
    errors.addAll(args.problems());
    args.unread().forEach(k -> warnings.add(option.location() + ": argument '" + k + "' is not used"));
    return entry;
  }

  /**
   * Same-tier conflicts of {@code tier}: for each plugin declaring one, its last entry the conflict applies to
   * against the last entry of the other plugin in the tier.
   */
  private static void tierConflicts(Tier tier, PluginRegistry plugins, List<String> errors) {
    Map<String, List<PluginOption>> byName = new LinkedHashMap<>();
    for (PluginOption o : tier.plugins()) {
      if (plugins.contains(o.name())) {
        byName.computeIfAbsent(o.name(), n -> new ArrayList<>()).add(o);
      }
    }
    byName.forEach((name, options) -> {
      for (Conflict c : plugins.descriptor(name).conflicts()) {
        List<PluginOption> others = byName.get(c.plugin());
        if (!c.sameTier() || others == null) {
          continue;
        }
        PluginOption declaring = null;
        for (PluginOption o : options) {
          declaring = applies(c, o) ? o : declaring;
        }
        if (declaring != null) {
          errors.add(declaring.location() + ": " + name + (c.hierarchicalOnly() ? " with enableHierarchy" : "")
              + " cannot share a tier with " + c.plugin() + " (" + others.get(others.size() - 1).location()
              + "): " + c.reason());
        }
      }
    });
  }

  /** What went wrong, without a stack trace; the type only when there is no message. */
  private static String reason(RuntimeException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static boolean applies(Conflict c, PluginOption declaring) {
    return !c.hierarchicalOnly() || declaring.enabled(Hook.HIERARCHY);
  }
}
