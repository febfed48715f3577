package io.basalt.plugins;

import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginProvider;
import io.basalt.plugins.binpack.BinpackPlugin;
import io.basalt.plugins.conformance.ConformancePlugin;
import io.basalt.plugins.deviceshare.DeviceSharePlugin;
import io.basalt.plugins.drf.DrfPlugin;
import io.basalt.plugins.fragmentation.GpuFragmentationPlugin;
import io.basalt.plugins.gang.GangPlugin;
import io.basalt.plugins.gpuaware.GpuAwarePlugin;
import io.basalt.plugins.networktopology.NetworkTopologyPlugin;
import io.basalt.plugins.nodeorder.NodeOrderPlugin;
import io.basalt.plugins.overcommit.OvercommitPlugin;
import io.basalt.plugins.predicates.PredicatesPlugin;
import io.basalt.plugins.priority.PriorityPlugin;
import io.basalt.plugins.queueshare.CapacityPlugin;
import io.basalt.plugins.queueshare.ProportionPlugin;
import java.util.List;

/** The plugins this module ships; each describes its own arguments and config rules. */
public final class BuiltinPlugins implements PluginProvider {
  @Override
  public List<PluginDescriptor<?>> plugins() {
    return List.of(
        GangPlugin.descriptor(),
        PriorityPlugin.descriptor(),
        ConformancePlugin.descriptor(),
        OvercommitPlugin.descriptor(),
        PredicatesPlugin.descriptor(),
        NodeOrderPlugin.descriptor(),
        BinpackPlugin.descriptor(),
        DrfPlugin.descriptor(),
        ProportionPlugin.descriptor(),
        CapacityPlugin.descriptor(),
        GpuAwarePlugin.descriptor(),
        DeviceSharePlugin.descriptor(),
        GpuFragmentationPlugin.descriptor(),
        NetworkTopologyPlugin.volcanoDescriptor(),
        NetworkTopologyPlugin.metaxDescriptor());
  }
}
