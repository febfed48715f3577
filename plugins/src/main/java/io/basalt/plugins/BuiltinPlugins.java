package io.basalt.plugins;

import io.basalt.config.Arguments;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginProvider;
import io.basalt.plugins.binpack.BinpackPlugin;
import io.basalt.plugins.conformance.ConformancePlugin;
import io.basalt.plugins.deviceshare.DeviceSharePlugin;
import io.basalt.plugins.drf.DrfPlugin;
import io.basalt.plugins.gang.GangPlugin;
import io.basalt.plugins.gpuaware.GpuAwarePlugin;
import io.basalt.plugins.nodeorder.NodeOrderPlugin;
import io.basalt.plugins.overcommit.OvercommitPlugin;
import io.basalt.plugins.predicates.PredicatesPlugin;
import io.basalt.plugins.priority.PriorityPlugin;
import io.basalt.plugins.queueshare.CapacityPlugin;
import io.basalt.plugins.queueshare.ProportionPlugin;
import java.util.Map;
import java.util.function.Function;

/** The plugins this module ships, by the names {@code volcano-scheduler.conf} uses. */
public final class BuiltinPlugins implements PluginProvider {
  @Override
  public Map<String, Function<Arguments, Plugin>> plugins() {
    return Map.ofEntries(
        Map.entry(GangPlugin.NAME, GangPlugin::new),
        Map.entry(PriorityPlugin.NAME, PriorityPlugin::new),
        Map.entry(ConformancePlugin.NAME, ConformancePlugin::new),
        Map.entry(OvercommitPlugin.NAME, OvercommitPlugin::new),
        Map.entry(PredicatesPlugin.NAME, PredicatesPlugin::new),
        Map.entry(NodeOrderPlugin.NAME, NodeOrderPlugin::new),
        Map.entry(BinpackPlugin.NAME, BinpackPlugin::new),
        Map.entry(DrfPlugin.NAME, DrfPlugin::new),
        Map.entry(ProportionPlugin.NAME, ProportionPlugin::new),
        Map.entry(CapacityPlugin.NAME, CapacityPlugin::new),
        Map.entry(GpuAwarePlugin.NAME, GpuAwarePlugin::new),
        Map.entry(DeviceSharePlugin.NAME, DeviceSharePlugin::new));
  }
}
