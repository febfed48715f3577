package io.basalt.app.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.app.chart.HelmChart.Rendered;
import io.basalt.gpu.protocol.hami.HamiFormat;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ValidatingAdmissionPolicy;
import io.kubernetes.client.openapi.models.V1ValidatingAdmissionPolicyBinding;
import io.kubernetes.client.openapi.models.V1Validation;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the scheduler's ClusterRole may patch nodes only for HAMi's node lock, but RBAC cannot narrow a verb to one
 * annotation. A ValidatingAdmissionPolicy ({@code rbac.nodePolicy.enabled}, Kubernetes 1.30+) denies any node update
 * by the scheduler's account that changes anything but {@value HamiFormat#NODE_LOCK}.
 */
class NodeLockPolicyChartTest {
  private static final String TEMPLATE = "templates/node-lock-policy.yaml";

  @Test
  void defaultsNarrowTheNodePatchToTheLockAnnotation() {
    HelmChart.requireHelm();
    Rendered r = HelmChart.template("basalt", "basalt-system", "node-lock-default");
    boolean patchesNodes = r.one(V1ClusterRole.class).getRules().stream()
        .anyMatch(rule -> rule.getResources().contains("nodes") && rule.getVerbs().contains("patch"));
    assertTrue(patchesNodes, "the grant the policy narrows");
    assertPolicy(r, "system:serviceaccount:basalt-system:basalt-basalt-scheduler");
  }

  @Test
  void offOnRequestAndBeforeKubernetes130AndWithoutRbac() {
    HelmChart.requireHelm();
    for (String[] extra : List.of(new String[] {"--set", "rbac.nodePolicy.enabled=false"},
        new String[] {"--kube-version", "1.29.0"}, new String[] {"--set", "rbac.create=false"})) {
      Rendered r = HelmChart.template("basalt", "basalt-system", "node-lock-off", extra);
      assertEquals(List.of(), r.all(V1ValidatingAdmissionPolicy.class), String.join(" ", extra));
      assertEquals(List.of(), r.all(V1ValidatingAdmissionPolicyBinding.class), String.join(" ", extra));
    }
  }

  @Test
  void followsACustomServiceAccount() {
    HelmChart.requireHelm();
    Rendered r = HelmChart.template("basalt", "sched", "node-lock-sa", "--set", "serviceAccount.name=my-sa");
    assertPolicy(r, "system:serviceaccount:sched:my-sa");
  }

  /** The template's text, for machines without helm: lines that are only template actions are dropped. */
  @Test
  void theTemplateHoldsWithoutHelm() throws Exception {
    String template = Files.readString(HelmChart.chartDir().resolve(TEMPLATE));
    StringBuilder yaml = new StringBuilder();
    for (String line : template.split("\n")) {
      String t = line.strip();
      if (!(t.startsWith("{{") && t.endsWith("}}") && t.indexOf("{{", 2) < 0)) {
        yaml.append(line.replace("{{ .Release.Namespace }}", "NS")
            .replace("{{ include \"basalt.serviceAccountName\" . }}", "SA")
            .replace("{{ include \"basalt.fullname\" . }}", "FULL")).append('\n');
      }
    }
    assertTrue(!yaml.toString().contains("{{"), "every template action is accounted for:\n" + yaml);
    assertPolicy(HelmChart.parse(yaml.toString()), "system:serviceaccount:NS:SA");
    assertTrue(template.startsWith("{{- if and .Values.rbac.create .Values.rbac.nodePolicy.enabled "
        + "(semverCompare \">=1.30-0\" .Capabilities.KubeVersion.Version) }}"), "with the RBAC, on 1.30+");
    assertTrue(Files.readString(HelmChart.chartDir().resolve("values.yaml"))
        .contains("  nodePolicy:\n    enabled: true\n"), "on by default");
  }

  private static void assertPolicy(Rendered r, String account) {
    V1ValidatingAdmissionPolicy policy = r.all(V1ValidatingAdmissionPolicy.class).stream()
        .filter(p -> p.getMetadata().getName().endsWith("-node-lock")).findFirst().orElseThrow();
    assertEquals("Fail", policy.getSpec().getFailurePolicy(), "a policy that cannot be evaluated denies");
    var rules = policy.getSpec().getMatchConstraints().getResourceRules();
    assertEquals(1, rules.size());
    assertEquals(List.of(""), rules.get(0).getApiGroups());
    assertEquals(List.of("nodes"), rules.get(0).getResources());
    assertEquals(List.of("UPDATE"), rules.get(0).getOperations(), "patches are updates to admission");
    assertEquals(1, policy.getSpec().getMatchConditions().size());
    assertEquals("request.userInfo.username == '" + account + "'",
        oneLine(policy.getSpec().getMatchConditions().get(0).getExpression()), "the scheduler's account only");

    List<V1Validation> validations = policy.getSpec().getValidations();
    List<String> expressions = validations.stream().map(v -> oneLine(v.getExpression())).toList();
    String lock = "k == '" + HamiFormat.NODE_LOCK + "'";
    assertTrue(expressions.stream().anyMatch(e -> e.startsWith("(!has(object.metadata.annotations) || "
        + "object.metadata.annotations.all(k, " + lock + " ||") && e.contains("oldObject.metadata.annotations.all(k, "
        + lock + " ||") && e.contains("oldObject.metadata.annotations[k] == object.metadata.annotations[k]")),
        "no annotation added, changed or removed but the lock: " + expressions);
    for (String field : List.of("labels", "finalizers", "ownerReferences")) {
      assertTrue(expressions.stream().anyMatch(e -> e.contains("object.metadata." + field
          + " == oldObject.metadata." + field)), field + " unchanged: " + expressions);
    }
    assertTrue(expressions.stream().anyMatch(e -> e.contains("object.spec == oldObject.spec")), "spec unchanged");
    for (V1Validation v : validations) {
      assertEquals("Forbidden", v.getReason());
      assertTrue(v.getMessage() != null && v.getMessage().contains("scheduler"), v.getMessage());
    }
    V1ValidatingAdmissionPolicyBinding binding = r.all(V1ValidatingAdmissionPolicyBinding.class).stream()
        .filter(b -> b.getSpec().getPolicyName().equals(policy.getMetadata().getName())).findFirst().orElseThrow();
    assertEquals(List.of("Deny"), binding.getSpec().getValidationActions(), "enforced, not only audited");
  }

  private static String oneLine(String s) {
    return s.strip().replaceAll("\\s+", " ");
  }
}
