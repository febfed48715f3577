package io.basalt.framework;

import io.basalt.config.Arguments;
import io.basalt.config.PluginOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a plugin tells the config compiler about itself: its name, how to read its {@code arguments} (once per
 * config, into a value of type {@code A}), how to build a per-session instance from that value, whether it has an
 * {@code enableHierarchy} mode, and which plugins it cannot be configured with. The validator knows no plugin by
 * name: every plugin-specific rule is declared here.
 *
 * @param read reads the arguments; bad values are collected as problems in {@link Arguments}, not thrown
 * @param factory builds one instance per session (plugins keep per-session state) from what {@code read} returned
 */
public record PluginDescriptor<A>(String name, Function<Arguments, A> read,
    Function<? super A, ? extends Plugin> factory, boolean hierarchical, List<Conflict> conflicts) {
  public PluginDescriptor {
    Objects.requireNonNull(name);
    Objects.requireNonNull(read);
    Objects.requireNonNull(factory);
    conflicts = List.copyOf(conflicts);
  }

  /** A plugin with arguments: {@code read} parses them once, {@code factory} builds each session's instance. */
  public static <A> PluginDescriptor<A> of(String name, Function<Arguments, A> read,
      Function<? super A, ? extends Plugin> factory) {
    return new PluginDescriptor<>(name, read, factory, false, List.of());
  }

  /** A plugin without arguments. */
  public static PluginDescriptor<Void> of(String name, Supplier<? extends Plugin> factory) {
    return of(name, args -> null, none -> factory.get());
  }

  /** The same plugin, declaring that it implements {@code enableHierarchy: true}. */
  public PluginDescriptor<A> withHierarchy() {
    return new PluginDescriptor<>(name, read, factory, true, conflicts);
  }

  /** The same plugin, declaring one more conflict; it is reported at this plugin's tier entry. */
  public PluginDescriptor<A> conflictsWith(Conflict conflict) {
    List<Conflict> all = new ArrayList<>(conflicts);
    all.add(conflict);
    return new PluginDescriptor<>(name, read, factory, hierarchical, all);
  }

  /** Reads {@code arguments} once for tier entry {@code option}, which stands in tier {@code tier}. */
  public ConfiguredPlugin<A> configure(PluginOption option, int tier, Arguments arguments) {
    return new ConfiguredPlugin<>(option, tier, read.apply(arguments), factory);
  }

  /**
   * A plugin this one cannot be configured with. Declared on one side only: the error names the declaring entry.
   *
   * @param plugin the other plugin's name
   * @param sameTier only when both stand in the same tier (else: anywhere in the config)
   * @param hierarchicalOnly only when the declaring entry sets {@code enableHierarchy: true}
   * @param reason why, ending the error message
   */
  public record Conflict(String plugin, boolean sameTier, boolean hierarchicalOnly, String reason) {
    public static Conflict anywhere(String plugin, String reason) {
      return new Conflict(plugin, false, false, reason);
    }

    public static Conflict inTier(String plugin, String reason) {
      return new Conflict(plugin, true, false, reason);
    }

    /** The same conflict, holding only while the declaring entry is in hierarchical mode. */
    public Conflict onlyWhenHierarchical() {
      return new Conflict(plugin, sameTier, true, reason);
    }
  }
}
