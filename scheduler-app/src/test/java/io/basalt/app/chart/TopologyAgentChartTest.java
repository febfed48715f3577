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
import io.kubernetes.client.openapi.models.V1ValidatingAdmissionPolicy;
import io.kubernetes.client.openapi.models.V1ValidatingAdmissionPolicyBinding;
import io.kubernetes.client.openapi.models.V1NamedRuleWithOperations;
import io.kubernetes.client.openapi.models.V1Validation;
import io.basalt.gpu.GpuAnnotations;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The topology agent's DaemonSet ({@code topologyAgent.enabled}): {@code basalt topology-agent} on GPU nodes, on its
 * own ServiceAccount, told its node by the downward API, seeing the GPUs through the NVIDIA toolkit without taking
 * any, and selected by nothing of the scheduler's (Service, PDB, Deployment); its {@code nodes patch} narrowed by a
 * ValidatingAdmissionPolicy to its own node and its own annotation ({@code topologyAgent.nodePolicy.enabled}).
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

  private static final String POLICY_TEMPLATE = "templates/topology-agent-policy.yaml";

  @Test
  void aPolicyLetsTheAgentWriteOnlyItsOwnNodesTopologyAnnotation() {
    HelmChart.requireHelm();
    Rendered r = HelmChart.template("gpu", "ml-scheduling", "agent-custom", "-f", CUSTOM_VALUES);
    String account = r.one(V1DaemonSet.class).getSpec().getTemplate().getSpec().getServiceAccountName();
    assertPolicy(r, "system:serviceaccount:ml-scheduling:" + account);
  }

  @Test
  void thePolicyFollowsTheAgentsAccountAndCanBeTurnedOff() {
    HelmChart.requireHelm();
    Rendered rbacOnly = HelmChart.template("basalt", "basalt-system", "agent-rbac-only", "--set",
        "topologyAgent.rbac.create=true");
    String account = rbacOnly.all(V1ServiceAccount.class).stream().map(sa -> sa.getMetadata().getName())
        .filter(n -> n.endsWith("-topology-agent")).findFirst().orElseThrow();
    assertPolicy(rbacOnly, "system:serviceaccount:basalt-system:" + account);
    Rendered off = HelmChart.template("gpu", "ml-scheduling", "agent-no-policy", "-f", CUSTOM_VALUES, "--set",
        "topologyAgent.nodePolicy.enabled=false");
    assertEquals(1, off.all(V1DaemonSet.class).size());
    assertEquals(List.of(), agents(off.all(V1ValidatingAdmissionPolicy.class)));
    assertEquals(List.of(), agents(off.all(V1ValidatingAdmissionPolicyBinding.class)));
    assertEquals(List.of(), agents(HelmChart.template("basalt", "basalt-system", "agent-default")
        .all(V1ValidatingAdmissionPolicy.class)), "no agent, no policy");
  }

  /**
   * The same checks on the template's own text, for machines without helm: lines that are only template actions are
   * dropped and the two names in the account are replaced, which leaves plain YAML.
   */
  @Test
  void thePolicyTemplateHoldsWithoutHelm() throws Exception {
    String template = Files.readString(HelmChart.chartDir().resolve(POLICY_TEMPLATE));
    StringBuilder yaml = new StringBuilder();
    for (String line : template.split("\n")) {
      String t = line.strip();
      if (!(t.startsWith("{{") && t.endsWith("}}") && t.indexOf("{{", 2) < 0)) {
        yaml.append(line.replace("{{ .Release.Namespace }}", "NS")
            .replace("{{ include \"basalt.fullname\" . }}", "FULL")).append('\n');
      }
    }
    assertTrue(!yaml.toString().contains("{{"), "every template action is accounted for:\n" + yaml);
    assertPolicy(HelmChart.parse(yaml.toString()), "system:serviceaccount:NS:FULL-topology-agent");
    assertTrue(template.startsWith("{{- if and (or .Values.topologyAgent.enabled .Values.topologyAgent.rbac.create) "
        + ".Values.topologyAgent.nodePolicy.enabled }}"), "rendered with the agent or its RBAC, unless turned off");
    assertTrue(Files.readString(HelmChart.chartDir().resolve("values.yaml"))
        .contains("  nodePolicy:\n    enabled: true\n"), "on by default");
  }

  /**
   * The policy matches node updates by the agent's account only and denies any that is not on the node its token
   * names, or that changes anything but {@link GpuAnnotations#TOPOLOGY}; the binding enforces it.
   */
  private static void assertPolicy(Rendered r, String account) {
    List<V1ValidatingAdmissionPolicy> policies = agents(r.all(V1ValidatingAdmissionPolicy.class));
    assertEquals(1, policies.size(), "one policy for the agent");
    V1ValidatingAdmissionPolicy policy = policies.get(0);
    assertEquals("Fail", policy.getSpec().getFailurePolicy(), "a policy that cannot be evaluated denies");
    List<V1NamedRuleWithOperations> rules = policy.getSpec().getMatchConstraints().getResourceRules();
    assertEquals(1, rules.size());
    assertEquals(List.of(""), rules.get(0).getApiGroups());
    assertEquals(List.of("nodes"), rules.get(0).getResources());
    assertEquals(List.of("UPDATE"), rules.get(0).getOperations(), "patches are updates to admission");
    assertEquals(1, policy.getSpec().getMatchConditions().size());
    assertEquals("request.userInfo.username == '" + account + "'",
        oneLine(policy.getSpec().getMatchConditions().get(0).getExpression()), "the agent's account only");

    List<V1Validation> validations = policy.getSpec().getValidations();
    List<String> expressions = validations.stream().map(v -> oneLine(v.getExpression())).toList();
    String claim = "request.userInfo.extra['authentication.kubernetes.io/node-name']";
    assertTrue(expressions.contains("'authentication.kubernetes.io/node-name' in request.userInfo.extra && " + claim
        + "[0] == object.metadata.name"), "its own node: " + expressions);
    String topology = "k == '" + GpuAnnotations.TOPOLOGY + "'";
    assertTrue(expressions.stream().anyMatch(e -> e.startsWith("(!has(object.metadata.annotations) || "
        + "object.metadata.annotations.all(k, " + topology + " ||") && e.contains("oldObject.metadata.annotations.all(k, "
        + topology + " ||") && e.contains("oldObject.metadata.annotations[k] == object.metadata.annotations[k]")),
        "no annotation added, changed or removed but the topology: " + expressions);
    for (String field : List.of("labels", "finalizers", "ownerReferences")) {
      assertTrue(expressions.stream().anyMatch(e -> e.contains("object.metadata." + field + " == oldObject.metadata."
          + field)), field + " unchanged: " + expressions);
    }
    assertTrue(expressions.stream().anyMatch(e -> e.contains("object.spec == oldObject.spec")), "spec unchanged");
    for (V1Validation v : validations) {
      assertEquals("Forbidden", v.getReason());
      assertTrue(v.getMessage() != null && v.getMessage().contains("topology agent"), v.getMessage());
    }

    V1ValidatingAdmissionPolicyBinding binding = agents(r.all(V1ValidatingAdmissionPolicyBinding.class)).get(0);
    assertEquals(policy.getMetadata().getName(), binding.getSpec().getPolicyName());
    assertEquals(List.of("Deny"), binding.getSpec().getValidationActions(), "enforced, not only audited");
  }

  /** The agent's objects among {@code objects}: the scheduler's node-lock policy renders beside them. */
  private static <T extends io.kubernetes.client.common.KubernetesObject> List<T> agents(List<T> objects) {
    return objects.stream().filter(o -> o.getMetadata().getName().endsWith("-topology-agent")).toList();
  }

  private static String oneLine(String s) {
    return s.strip().replaceAll("\\s+", " ");
  }
}
