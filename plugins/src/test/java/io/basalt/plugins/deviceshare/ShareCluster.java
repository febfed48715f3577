package io.basalt.plugins.deviceshare;

import io.basalt.actions.ActionRegistry;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.plugins.gpuaware.GpuAwarePlugin;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;

/** Nodes, pods and sessions for the deviceshare tests: MetaX sGPU nodes, share pods, a real allocate. */
final class ShareCluster {
  static final PluginRegistry REGISTRY = PluginRegistry.of(DeviceSharePlugin.descriptor(), GpuAwarePlugin.descriptor());

  private ShareCluster() {}

  /** MetaX's node-gpu-devices annotation: {@code n} MXC500s of {@code vramMiB} each, linkZone 1 and 2 by halves. */
  static String metaxDevices(int n, long vramMiB) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"uuid\":\"GPU-mx-").append(i).append("\",\"model\":\"MXC500\",")
          .append("\"totalVRam\":").append(vramMiB).append(",\"linkZone\":").append(i < n / 2 ? 1 : 2).append('}');
    }
    return sb.append(']').toString();
  }

  /** A MetaX sGPU node: {@code devices} x 64 GiB, {@code sgpu} share slots. */
  static TestNodes metaxNode(String name, int devices, int sgpu) {
    return TestNodes.node(name).cpu("96").memory("1Ti").resource("metax-tech.com/sgpu", Integer.toString(sgpu))
        .annotation(GpuAnnotations.METAX_DEVICES, metaxDevices(devices, 65536));
  }

  /** A MetaX share pod: one sGPU with {@code vcore} percent and {@code vmemoryGiB} GiB. */
  static TestPods sharePod(String key, int vcore, int vmemoryGiB) {
    TestPods p = TestPods.pod(key).cpu("1").resource("metax-tech.com/sgpu", "1");
    if (vcore > 0) {
      p.resource("metax-tech.com/vcore", Integer.toString(vcore));
    }
    if (vmemoryGiB > 0) {
      p.resource("metax-tech.com/vmemory", Integer.toString(vmemoryGiB));
    }
    return p;
  }

  /** A one-tier conf with deviceshare and the given YAML arguments. */
  static String conf(String argumentsYaml) {
    return TestSessions.singlePlugin(DeviceSharePlugin.NAME, argumentsYaml);
  }

  /** Runs enqueue and allocate over {@code s}, as a scheduling cycle would. */
  static Session schedule(Session s) {
    ActionRegistry actions = ActionRegistry.builtin();
    actions.create("enqueue", Arguments.empty()).execute(s);
    actions.create("allocate", Arguments.empty()).execute(s);
    return s;
  }

  /** "node:devices" of a placed task, e.g. "mx:0". */
  static String where(Session s, String pod) {
    TaskInfo t = TestSessions.task(s, pod);
    return t.nodeName() + ":" + t.devices().format();
  }
}
