package io.basalt.scheduler;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.Arguments;
import io.basalt.config.PluginOption;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.PluginRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a parsed config against what this build has: every action and plugin known, every argument readable, no
 * plugin listed twice. Problems name where they are ({@code tiers[1].plugins[4] (gpu-aware)}); unread arguments are
 * warnings, since Volcano ignores them too, but they are usually typos.
 */
public final class ConfValidator {
  /** Errors make a config unusable; warnings do not. */
  public record Report(List<String> errors, List<String> warnings) {
    public boolean ok() {
      return errors.isEmpty();
    }
  }

  /** Plugins that implement a hierarchical mode. */
  private static final java.util.Set<String> HIERARCHICAL = java.util.Set.of("drf");

  private ConfValidator() {}

  public static Report validate(SchedulerConf conf, PluginRegistry plugins, ActionRegistry actions) {
    List<String> errors = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    for (String action : conf.actions()) {
      if (!actions.contains(action)) {
        errors.add("actions: unknown action '" + action + "' (known: " + String.join(", ", actions.names()) + ")");
      } else {
        Arguments args = conf.actionArguments(action);
        actions.create(action, args);
        errors.addAll(args.problems());
        args.unread().forEach(k -> warnings.add(args.location() + ": argument '" + k + "' is not used"));
      }
    }
    for (String configured : conf.configurations().keySet()) {
      if (!actions.contains(configured) && !plugins.contains(configured)) {
        warnings.add("configurations: '" + configured + "' names no known action");
      }
    }
    Map<String, String> seen = new HashMap<>();
    for (PluginOption option : conf.allPlugins()) {
      if (!plugins.contains(option.name())) {
        errors.add(option.location() + ": unknown plugin '" + option.name() + "' (known: "
            + String.join(", ", plugins.names()) + ")");
        continue;
      }
      String first = seen.putIfAbsent(option.name(), option.location());
      if (first != null) {
        errors.add(option.location() + ": plugin '" + option.name() + "' is already listed at " + first);
      }
      if (option.enabled(io.basalt.config.Hook.HIERARCHY) && !HIERARCHICAL.contains(option.name())) {
        errors.add(option.location() + ": enableHierarchy is not supported by plugin '" + option.name()
            + "' in this build");
      }
      Arguments args = new Arguments(option.arguments(), option.location());
      try {
        plugins.create(option.name(), args);
      } catch (RuntimeException e) {
        errors.add(option.location() + ": cannot be built: " + e.getMessage());
      }
      errors.addAll(args.problems());
      args.unread().forEach(k -> warnings.add(option.location() + ": argument '" + k + "' is not used"));
    }
    for (io.basalt.config.Tier tier : conf.tiers()) {
      PluginOption hdrf = null;
      PluginOption proportion = null;
      for (PluginOption o : tier.plugins()) {
        if (o.name().equals("drf") && o.enabled(io.basalt.config.Hook.HIERARCHY)) {
          hdrf = o;
        } else if (o.name().equals("proportion")) {
          proportion = o;
        }
      }
      if (hdrf != null && proportion != null) {
        errors.add(hdrf.location() + ": drf with enableHierarchy cannot share a tier with proportion ("
            + proportion.location() + "): both order queues by their own notion of share");
      }
    }
    for (List<String> pair : CONFLICTS) {
      if (seen.containsKey(pair.get(0)) && seen.containsKey(pair.get(1))) {
        errors.add(seen.get(pair.get(1)) + ": plugin '" + pair.get(1) + "' cannot be used together with '"
            + pair.get(0) + "' (" + seen.get(pair.get(0)) + "): both divide the cluster between queues");
      }
    }
    return new Report(errors, warnings);
  }

  /** Plugins that must not be configured together. */
  private static final List<List<String>> CONFLICTS = List.of(List.of("proportion", "capacity"));
}
