package io.basalt.app.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.app.BasaltMain;
import io.basalt.app.chart.HelmChart.Rendered;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The topology agent's DaemonSet ({@code topologyAgent.enabled}): {@code basalt topology-agent} on GPU nodes, on its
 * own ServiceAccount, told its node by the downward API, seeing the GPUs through the NVIDIA toolkit without taking
 * any, and selected by nothing of the scheduler's (Service, PDB, Deployment).
 */
class TopologyAgentChartTest {
  private static final String CUSTOM_VALUES = HelmChart.CHART + "/ci/custom-values.yaml";

  @Test
  void offByDefault() {
    HelmChart.requireHelm();
    assertEquals(List.of(), HelmChart.template("basalt", "basalt-system", "agent-default").all(V1DaemonSet.class));
  }

  @Test
  void runsTheAgentOnGpuNodesOnItsOwnAccount() {
    HelmChart.requireHelm();
    Rendered r = HelmChart.template("gpu", "ml-scheduling", "agent-custom", "-f", CUSTOM_VALUES);
    V1DaemonSet ds = r.one(V1DaemonSet.class);
    V1PodSpec pod = ds.getSpec().getTemplate().getSpec();
    V1Container c = pod.getContainers().get(0);

    List<String> args = c.getArgs();
    assertEquals("topology-agent", args.get(0));
    assertEquals(List.of("--interval=1h30m", "--smi=nvidia-smi"), args.subList(1, args.size()));
    Set<String> flags = new CommandLine(new BasaltMain()).getSubcommands().get("topology-agent").getCommandSpec()
        .options().stream().flatMap(o -> java.util.Arrays.stream(o.names())).collect(Collectors.toSet());
    for (String a : args.subList(1, args.size())) {
      assertTrue(flags.contains(a.substring(0, a.indexOf('='))), "topology-agent has " + a);
    }

    Map<String, V1EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(V1EnvVar::getName, e -> e));
    assertEquals("spec.nodeName", env.get("NODE_NAME").getValueFrom().getFieldRef().getFieldPath(),
        "the agent's --node defaults to $NODE_NAME");
    assertEquals("all", env.get("NVIDIA_VISIBLE_DEVICES").getValue());
    assertEquals("utility", env.get("NVIDIA_DRIVER_CAPABILITIES").getValue());
    assertTrue(c.getResources().getLimits() == null || c.getResources().getLimits().keySet().stream()
        .noneMatch(k -> k.contains("gpu")), "takes no GPU");
    assertEquals("nvidia", pod.getRuntimeClassName());
    assertEquals(Map.of("nvidia.com/gpu.present", "true"), pod.getNodeSelector());
    assertEquals("nvidia.com/gpu", pod.getTolerations().get(0).getKey());
    assertEquals(Boolean.TRUE, c.getSecurityContext().getReadOnlyRootFilesystem());
    assertEquals(Boolean.TRUE, pod.getSecurityContext().getRunAsNonRoot());

    String schedulerSa = r.one(V1Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName();
    assertNotEquals(schedulerSa, pod.getServiceAccountName());
    assertTrue(r.all(V1ServiceAccount.class).stream()
        .anyMatch(sa -> sa.getMetadata().getName().equals(pod.getServiceAccountName())), "its account is rendered");

    Map<String, String> labels = ds.getSpec().getTemplate().getMetadata().getLabels();
    assertTrue(labels.entrySet().containsAll(ds.getSpec().getSelector().getMatchLabels().entrySet()));
    Map<String, String> schedulerSelector = r.one(V1Deployment.class).getSpec().getSelector().getMatchLabels();
    assertTrue(!labels.entrySet().containsAll(schedulerSelector.entrySet()), "not a scheduler pod to the Deployment");
    assertTrue(!labels.entrySet().containsAll(r.one(V1Service.class).getSpec().getSelector().entrySet()),
        "not behind the metrics Service");
  }
}
