package io.basalt.app.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.basalt.actions.ActionRegistry;
import io.basalt.app.chart.HelmChart.Rendered;
import io.basalt.app.chart.HelmChart.Result;
import io.basalt.config.ConfLoader;
import io.basalt.config.PluginOption;
import io.basalt.config.SchedulerConf;
import io.basalt.config.Tier;
import io.basalt.framework.PluginRegistry;
import io.basalt.scheduler.ConfValidator;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinitionVersion;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1JSONSchemaProps;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1NetworkPolicyIngressRule;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodSecurityContext;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Probe;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1SecurityContext;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import io.basalt.app.chart.ApiCalls.ApiCall;
import io.basalt.app.chart.ApiCalls.Scope;
import io.basalt.app.BasaltMain;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The Helm chart in {@code charts/basalt-scheduler}, rendered by a real {@code helm} (see {@link HelmChart}) with its
 * default values and with {@code ci/custom-values.yaml}, and read back through client-java's typed models: the
 * Deployment runs a leader-elected {@code basalt run}, the ConfigMap holds a config this build accepts, the pod is
 * locked down, and RBAC grants exactly {@link ApiCalls#granted} (with {@code scheduler.createPodGroups} or not). Tests
 * that need helm are skipped without it; the ones reading only the chart's files always run.
 */
class ChartTest {
  private static final String RELEASE = "basalt-scheduler";
  private static final String NAMESPACE = "basalt-system";
  private static final String CUSTOM_VALUES = HelmChart.CHART + "/ci/custom-values.yaml";

  /** The flags {@code basalt run} accepts, read from the command itself; the chart may pass only these. */
  static final Set<String> RUN_FLAGS = new CommandLine(new BasaltMain()).getSubcommands().get("run").getCommandSpec()
      .options().stream().flatMap(o -> java.util.Arrays.stream(o.names())).collect(Collectors.toSet());

  /** The plugins this build has; the chart's tiers may use only these. */
  private static final Set<String> BUILT_PLUGINS = PluginRegistry.load().names();

  private static Rendered defaults;
  private static Rendered custom;

  private static synchronized Rendered defaults() {
    if (defaults == null) {
      defaults = HelmChart.template(RELEASE, NAMESPACE, "default");
    }
    return defaults;
  }

  private static synchronized Rendered custom() {
    if (custom == null) {
      custom = HelmChart.template("gpu", "ml-scheduling", "custom", "-f", CUSTOM_VALUES);
    }
    return custom;
  }

  // ---------------------------------------------------------------------------------------------------- with helm

  @Test
  void lintPassesStrictWithDefaultAndCustomValues() {
    for (List<String> args : List.of(List.of("lint", "--strict", HelmChart.CHART),
        List.of("lint", "--strict", HelmChart.CHART, "-f", CUSTOM_VALUES))) {
      Result r = HelmChart.run(args);
      assertEquals(0, r.exit(), "helm " + args + ":\n" + r.out() + r.err());
    }
  }

  @Test
  void defaultsRenderEveryObjectTheSchedulerNeedsAndNothingElse() {
    Rendered r = defaults();
    Map<String, Long> kinds = r.docs().stream()
        .collect(Collectors.groupingBy(HelmChart.Doc::kind, java.util.TreeMap::new, Collectors.counting()));
    assertEquals(Map.ofEntries(Map.entry("ClusterRole", 1L), Map.entry("ClusterRoleBinding", 1L),
        Map.entry("ConfigMap", 1L), Map.entry("CustomResourceDefinition", 2L), Map.entry("Deployment", 1L),
        Map.entry("NetworkPolicy", 1L), Map.entry("PodDisruptionBudget", 1L), Map.entry("Role", 1L),
        Map.entry("RoleBinding", 1L), Map.entry("Service", 1L), Map.entry("ServiceAccount", 1L),
        Map.entry("ValidatingAdmissionPolicy", 1L), Map.entry("ValidatingAdmissionPolicyBinding", 1L)), kinds);
    for (HelmChart.Doc d : r.docs()) {
      if (Set.of("ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "ValidatingAdmissionPolicy",
          "ValidatingAdmissionPolicyBinding").contains(d.kind())) {
        assertNull(d.typed().getMetadata().getNamespace(), d.kind() + " is cluster-scoped");
      } else {
        assertEquals(NAMESPACE, d.typed().getMetadata().getNamespace(), d.kind() + " in the release namespace");
      }
      assertEquals(RELEASE, d.typed().getMetadata().getLabels().get("app.kubernetes.io/instance"), d.kind());
    }
  }

  @Test
  void deploymentRunsTwoLeaderElectedReplicasOfBasaltRun() {
    Rendered r = defaults();
    V1Deployment d = r.one(V1Deployment.class);
    assertEquals(2, d.getSpec().getReplicas());
    V1PodSpec pod = d.getSpec().getTemplate().getSpec();
    assertEquals("system-cluster-critical", pod.getPriorityClassName());
    assertEquals(90L, pod.getTerminationGracePeriodSeconds(), "room to finish in-flight binds before the Lease goes");
    assertEquals(r.one(V1ServiceAccount.class).getMetadata().getName(), pod.getServiceAccountName());
    V1Container c = scheduler(d);
    assertEquals("registry.example.com/basalt/basalt-scheduler:0.1.0", c.getImage(), "tag defaults to appVersion");
    assertEquals("IfNotPresent", c.getImagePullPolicy());
    assertNone(c.getCommand(), "the image's ENTRYPOINT (java -jar basalt.jar) runs");

    List<String> args = c.getArgs();
    assertEquals("run", args.get(0));
    Map<String, List<String>> flags = flags(args);
    assertTrue(RUN_FLAGS.containsAll(flags.keySet()), "unknown flags " + flags.keySet());
    assertEquals(List.of("basalt-scheduler"), flags.get("--scheduler-name"));
    assertEquals(List.of(""), flags.get("--leader-elect"), "--leader-elect");
    assertEquals(List.of(NAMESPACE), flags.get("--lease-namespace"));
    assertEquals(List.of(RELEASE), flags.get("--lease-name"));
    V1ConfigMap cm = r.one(V1ConfigMap.class);
    assertEquals(List.of(NAMESPACE + "/" + cm.getMetadata().getName()), flags.get("--config-map"));
    assertFalse(flags.containsKey("--config"), "the config comes from the ConfigMap");
    assertEquals(List.of("1s"), flags.get("--schedule-period"));
    assertEquals(List.of("500"), flags.get("--kube-api-qps"));
    assertEquals(List.of("1000"), flags.get("--kube-api-burst"));
    assertEquals(List.of(":8080"), flags.get("--metrics-addr"));
    assertEquals(List.of("local"), flags.get("--health-detail"), "the probes' detail for kubectl exec only");
    assertEquals(List.of("default"), flags.get("--default-queue"));
    assertEquals(List.of("text"), flags.get("--log-format"));
    assertEquals(List.of("info"), flags.get("--log-level"));
    assertFalse(flags.containsKey("--bind-workers"), "the scheduler's own default");
    assertFalse(flags.containsKey("--kubeconfig"), "in-cluster config");
    assertTrue(flags.keySet().stream().noneMatch(f -> f.startsWith("--topology")), "the fabric from HyperNodes");
    assertFalse(flags.containsKey("--create-podgroups"), "inferred gangs reported on their pods only");
    assertEquals(List.of("alongside"), flags.get("--kueue"), "Kueue admits; Basalt never touches Jobs");

    V1ContainerPort port = c.getPorts().get(0);
    assertEquals("metrics", port.getName());
    assertEquals(8080, port.getContainerPort());
    Map<String, String> env = new LinkedHashMap<>();
    c.getEnv().forEach(e -> env.put(e.getName(), e.getValue()));
    assertEquals("-Xmx512m -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp", env.get("JAVA_TOOL_OPTIONS"),
        "an explicit heap: a 5,000-node cluster's 50,000-pod backlog fits in 512m");
    assertNotNull(d.getSpec().getTemplate().getMetadata().getAnnotations().get("checksum/config"));
  }

  @Test
  void jvmHeapSetsXmxOrLeavesTheHeapToTheMemoryLimit() {
    assertEquals("-Xmx2g -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp",
        javaToolOptions(HelmChart.template(RELEASE, NAMESPACE, "heap-2g", "--set", "jvm.heap=2g")));
    assertEquals("-XX:MaxRAMPercentage=70 -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp",
        javaToolOptions(HelmChart.template(RELEASE, NAMESPACE, "heap-unset", "--set", "jvm.heap=")));
    assertNotEquals(0, HelmChart.run(List.of("template", RELEASE, HelmChart.CHART, "--set", "jvm.heap=lots")).exit(),
        "a heap that is not a JVM size is refused");
  }

  private static String javaToolOptions(Rendered r) {
    return scheduler(r.one(V1Deployment.class)).getEnv().stream()
        .filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS")).findFirst().orElseThrow().getValue();
  }

  @Test
  void configMapHoldsAConfigThisBuildAcceptsAndMatchesTheBuiltInDefault() throws Exception {
    V1ConfigMap cm = defaults().one(V1ConfigMap.class);
    String text = cm.getData().get(ConfLoader.CONFIGMAP_KEY);
    assertNotNull(text, "ConfigMap key " + ConfLoader.CONFIGMAP_KEY);
    SchedulerConf conf = assertValid(text, "default values");
    SchedulerConf builtIn = ConfLoader.defaultConf();
    assertEquals(builtIn.actions(), conf.actions(), "the chart runs what `basalt run` runs without a config");
    assertEquals(pluginNames(builtIn), pluginNames(conf));
  }

  @Test
  void podRunsAsNonRootOnAReadOnlyRootWithAWritableTmp() {
    V1Deployment d = defaults().one(V1Deployment.class);
    V1PodSpec pod = d.getSpec().getTemplate().getSpec();
    V1PodSecurityContext psc = pod.getSecurityContext();
    assertEquals(Boolean.TRUE, psc.getRunAsNonRoot());
    assertEquals(65532L, psc.getRunAsUser(), "the image's USER (deploy/Dockerfile)");
    assertEquals("RuntimeDefault", psc.getSeccompProfile().getType());
    assertNull(pod.getHostNetwork());
    assertNull(pod.getHostPID());

    V1Container c = scheduler(d);
    V1SecurityContext sc = c.getSecurityContext();
    assertEquals(Boolean.TRUE, sc.getRunAsNonRoot());
    assertEquals(Boolean.TRUE, sc.getReadOnlyRootFilesystem());
    assertEquals(Boolean.FALSE, sc.getAllowPrivilegeEscalation());
    assertEquals(List.of("ALL"), sc.getCapabilities().getDrop());
    assertNone(sc.getCapabilities().getAdd(), "added capabilities");
    assertNull(sc.getPrivileged());
    assertEquals("RuntimeDefault", sc.getSeccompProfile().getType());

    V1VolumeMount tmp = c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/tmp")).findFirst()
        .orElseThrow(() -> new AssertionError("no /tmp mount: the JVM needs a writable /tmp"));
    assertNotEquals(Boolean.TRUE, tmp.getReadOnly());
    V1Volume vol = pod.getVolumes().stream().filter(v -> v.getName().equals(tmp.getName())).findFirst().orElseThrow();
    assertNotNull(vol.getEmptyDir(), "/tmp is an emptyDir");
    assertEquals(1, pod.getVolumes().size(), "no other volumes: " + pod.getVolumes());
  }

  @Test
  void probesHitHealthzAndReadyzOnTheMetricsPort() {
    V1Container c = scheduler(defaults().one(V1Deployment.class));
    assertProbe(c, c.getLivenessProbe(), "/healthz");
    assertProbe(c, c.getReadinessProbe(), "/readyz");
    assertNotNull(c.getResources().getRequests().get("cpu"));
    assertNotNull(c.getResources().getRequests().get("memory"));
    assertNotNull(c.getResources().getLimits().get("cpu"));
    assertNotNull(c.getResources().getLimits().get("memory"));
  }

  @Test
  void serviceAndDisruptionBudgetSelectTheSchedulerPods() {
    Rendered r = defaults();
    V1Deployment d = r.one(V1Deployment.class);
    Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
    assertTrue(podLabels.entrySet().containsAll(d.getSpec().getSelector().getMatchLabels().entrySet()));

    V1Service svc = r.one(V1Service.class);
    assertTrue(podLabels.entrySet().containsAll(svc.getSpec().getSelector().entrySet()), "Service selects the pods");
    assertEquals("metrics", svc.getSpec().getPorts().get(0).getTargetPort().getStrValue());
    assertEquals("http-metrics", svc.getSpec().getPorts().get(0).getName());
    assertEquals(Boolean.TRUE, svc.getSpec().getPublishNotReadyAddresses(),
        "a leader whose cycles fail is not ready, and is scraped still");

    V1PodDisruptionBudget pdb = r.one(V1PodDisruptionBudget.class);
    assertEquals(1, pdb.getSpec().getMinAvailable().getIntValue());
    assertTrue(podLabels.entrySet().containsAll(pdb.getSpec().getSelector().getMatchLabels().entrySet()));
    assertEquals("AlwaysAllow", pdb.getSpec().getUnhealthyPodEvictionPolicy());
    assertTrue(r.all("ServiceMonitor").isEmpty(), "ServiceMonitor is off by default");
    assertNotNull(d.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity(),
        "replicas spread over nodes by default");
  }

  @Test
  void networkPolicyOpensOnlyTheMetricsPortToPrometheus() {
    Rendered r = defaults();
    V1NetworkPolicy policy = r.one(V1NetworkPolicy.class);
    assertEquals(r.one(V1Deployment.class).getSpec().getSelector().getMatchLabels(),
        policy.getSpec().getPodSelector().getMatchLabels(), "the scheduler's pods, not the topology agent's");
    assertEquals(List.of("Ingress"), policy.getSpec().getPolicyTypes(), "egress (the API server) is left open");
    assertEquals(1, policy.getSpec().getIngress().size());
    V1NetworkPolicyIngressRule rule = policy.getSpec().getIngress().get(0);
    assertEquals(1, rule.getPorts().size());
    assertEquals(8080, rule.getPorts().get(0).getPort().getIntValue());
    assertEquals("TCP", rule.getPorts().get(0).getProtocol());
    assertEquals(1, rule.getFrom().size());
    assertEquals(Map.of("app.kubernetes.io/name", "prometheus"),
        rule.getFrom().get(0).getPodSelector().getMatchLabels());
    assertNotNull(rule.getFrom().get(0).getNamespaceSelector(), "Prometheus in any namespace");

    V1NetworkPolicy closed = HelmChart.template(RELEASE, NAMESPACE, "netpol-closed", "--set-json",
        "networkPolicy.metricsFrom=[]")
        .one(V1NetworkPolicy.class);
    assertEquals(List.of(), closed.getSpec().getIngress(), "no peer: nothing but the node's probes gets in");
    assertTrue(HelmChart.template(RELEASE, NAMESPACE, "netpol-off", "--set", "networkPolicy.enabled=false")
        .all(V1NetworkPolicy.class).isEmpty());
  }

  @Test
  void rbacGrantsExactlyTheRequiredApiCalls() {
    assertRbacIsExact(defaults(), NAMESPACE, NAMESPACE, ApiCalls.granted(false));
    assertRbacIsExact(custom(), "ml-scheduling", "ml-scheduling", ApiCalls.granted(true, true));
  }

  @Test
  void crdsDefineVolcanosPodGroupAndQueue() {
    Map<String, V1CustomResourceDefinition> crds = new LinkedHashMap<>();
    defaults().all(V1CustomResourceDefinition.class).forEach(c -> crds.put(c.getMetadata().getName(), c));
    assertEquals(Set.of("podgroups.scheduling.volcano.sh", "queues.scheduling.volcano.sh"), crds.keySet());

    V1CustomResourceDefinition pg = crds.get("podgroups.scheduling.volcano.sh");
    assertEquals("PodGroup", pg.getSpec().getNames().getKind());
    assertEquals("Namespaced", pg.getSpec().getScope());
    assertTrue(pg.getSpec().getNames().getShortNames().contains("pg"));
    V1CustomResourceDefinitionVersion pgv = onlyVersion(pg);
    assertNull(pgv.getSubresources(), "no status subresource, as in Volcano's CRD (see podgroups.yaml)");
    assertSchema(pgv, "spec", Set.of("minMember", "minTaskMember", "queue", "priorityClassName", "minResources"));
    assertSchema(pgv, "status", Set.of("phase", "conditions", "running", "succeeded", "failed"));

    V1CustomResourceDefinition q = crds.get("queues.scheduling.volcano.sh");
    assertEquals("Queue", q.getSpec().getNames().getKind());
    assertEquals("Cluster", q.getSpec().getScope());
    V1CustomResourceDefinitionVersion qv = onlyVersion(q);
    assertNotNull(qv.getSubresources().getStatus(), "Queue has a status subresource, as in Volcano's CRD");
    assertSchema(qv, "spec", Set.of("weight", "capability", "deserved", "guarantee", "reclaimable", "priority",
        "parent", "type", "dequeueStrategy"));
    assertSchema(qv, "status", Set.of("state", "unknown", "pending", "running", "inqueue", "completed", "allocated",
        "reservation"));
    assertEquals(Boolean.TRUE, qv.getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties()
        .get("capability").getAdditionalProperties() instanceof Map<?, ?> m ? m.get("x-kubernetes-int-or-string")
        : null, "quantities are int-or-string");

    for (V1CustomResourceDefinition crd : crds.values()) {
      assertEquals("scheduling.volcano.sh", crd.getSpec().getGroup());
      assertEquals("keep", crd.getMetadata().getAnnotations().get("helm.sh/resource-policy"),
          "helm uninstall must not delete every PodGroup and Queue");
    }
  }

  @Test
  void customValuesChangeTiersReplicasCrdsMonitoringAndPlacement() throws Exception {
    Rendered r = custom();
    assertTrue(r.all(V1CustomResourceDefinition.class).isEmpty(), "crds.install=false");
    assertTrue(r.all(V1PodDisruptionBudget.class).isEmpty(), "no PDB for a single replica: it would block drains");

    V1Deployment d = r.one(V1Deployment.class);
    assertEquals(1, d.getSpec().getReplicas());
    V1Container c = scheduler(d);
    assertEquals("registry.example.com/ml-platform/basalt:0.1.0-test", c.getImage());
    assertEquals("Always", c.getImagePullPolicy());
    Map<String, List<String>> flags = flags(c.getArgs());
    assertEquals(List.of("basalt-scheduler", "basalt-gpu"), flags.get("--scheduler-name"));
    assertEquals(List.of(""), flags.get("--leader-elect"));
    assertEquals(List.of("ml-scheduling"), flags.get("--lease-namespace"));
    assertEquals(List.of("basalt-gpu-lease"), flags.get("--lease-name"));
    assertEquals(List.of("500ms"), flags.get("--schedule-period"));
    assertEquals(List.of("research"), flags.get("--default-queue"));
    assertEquals(List.of("8"), flags.get("--bind-workers"));
    assertEquals(List.of("topology.example.com/switchbox,topology.example.com/dragonfly"),
        flags.get("--topology-labels"));
    assertFalse(flags.containsKey("--topology-url"));
    assertEquals(List.of("value"), flags.get("--some-future-flag"), "extraArgs are passed through");
    assertEquals(List.of(""), flags.get("--create-podgroups"), "scheduler.createPodGroups");
    assertEquals(List.of("instead"), flags.get("--kueue"), "scheduler.kueue");
    assertEquals(List.of("all"), flags.get("--health-detail"), "metrics.healthDetail");
    V1NetworkPolicy policy = r.one(V1NetworkPolicy.class);
    V1NetworkPolicyIngressRule rule = policy.getSpec().getIngress().get(0);
    assertEquals(9090, rule.getPorts().get(0).getPort().getIntValue(), "the metrics port, wherever it is");
    assertEquals(Map.of("kubernetes.io/metadata.name", "monitoring"),
        rule.getFrom().get(0).getNamespaceSelector().getMatchLabels());

    V1PodSpec pod = d.getSpec().getTemplate().getSpec();
    assertEquals(Map.of("node-role.example.com/system", "true"), pod.getNodeSelector());
    assertEquals("CriticalAddonsOnly", pod.getTolerations().get(0).getKey());
    assertNotNull(pod.getAffinity().getNodeAffinity());
    assertNull(pod.getAffinity().getPodAntiAffinity(), "a given affinity replaces the default");
    assertEquals("registry-credentials", pod.getImagePullSecrets().get(0).getName());

    SchedulerConf conf = assertValid(r.one(V1ConfigMap.class).getData().get(ConfLoader.CONFIGMAP_KEY),
        "ci/custom-values.yaml");
    assertEquals(List.of("enqueue", "allocate", "preempt", "reclaim", "backfill"), conf.actions());
    assertEquals(List.of(List.of("priority", "gang", "conformance"),
        List.of("drf", "predicates", "capacity", "nodeorder", "binpack")), pluginNames(conf));
    assertEquals(100, ((Number) conf.configurations().get("allocate").get("percentageOfNodesToScore")).intValue());

    Map<String, Object> sm = r.all("ServiceMonitor").get(0).raw();
    assertEquals("monitoring.coreos.com/v1", sm.get("apiVersion"));
    Map<String, Object> smSpec = map(sm.get("spec"));
    Map<String, Object> endpoint = map(((List<?>) smSpec.get("endpoints")).get(0));
    assertEquals("http-metrics", endpoint.get("port"));
    assertEquals("/metrics", endpoint.get("path"));
    Map<String, String> svcSelector = r.one(V1Service.class).getSpec().getSelector();
    assertEquals(svcSelector, map(smSpec.get("selector")).get("matchLabels"));
    assertEquals("kube-prometheus-stack", map(map(sm.get("metadata")).get("labels")).get("release"));
  }

  @Test
  void topologyAgentGetsNodePatchOnItsOwnAccountOnly() {
    Rendered r = custom();
    String schedulerSa = r.one(V1Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName();
    V1ClusterRole agent = r.all(V1ClusterRole.class).stream()
        .filter(cr -> cr.getMetadata().getName().endsWith("-topology-agent")).findFirst().orElseThrow();
    assertEquals(Set.of("core nodes get", "core nodes patch"), expand(agent.getRules()));
    assertTrue(wantNoNames(agent.getRules()), "the agent patches whichever node it runs on");
    V1ClusterRoleBinding binding = r.all(V1ClusterRoleBinding.class).stream()
        .filter(b -> b.getRoleRef().getName().equals(agent.getMetadata().getName())).findFirst().orElseThrow();
    RbacV1Subject subject = binding.getSubjects().get(0);
    assertNotEquals(schedulerSa, subject.getName());
    assertTrue(r.all(V1ServiceAccount.class).stream().anyMatch(sa -> sa.getMetadata().getName()
        .equals(subject.getName())), "the agent's ServiceAccount is rendered");
    assertTrue(defaults().all(V1ClusterRole.class).size() == 1, "off by default");
  }

  @Test
  void anExistingConfigMapInAnotherNamespaceIsReadThere() {
    Rendered r = HelmChart.template(RELEASE, NAMESPACE, "existing-configmap", "--set",
        "scheduler.configMap.create=false", "--set", "scheduler.configMap.name=volcano-scheduler-configmap",
        "--set", "scheduler.configMap.namespace=volcano-system");
    assertTrue(r.all(V1ConfigMap.class).isEmpty());
    Map<String, List<String>> flags = flags(scheduler(r.one(V1Deployment.class)).getArgs());
    assertEquals(List.of("volcano-system/volcano-scheduler-configmap"), flags.get("--config-map"));
    assertRbacIsExact(r, NAMESPACE, "volcano-system", ApiCalls.granted(false));
  }

  @Test
  void unsafeValuesAreRefused() {
    Result twoActive = HelmChart.run(List.of("template", RELEASE, HelmChart.CHART, "--set", "replicaCount=2",
        "--set", "leaderElection.enabled=false"));
    assertNotEquals(0, twoActive.exit());
    assertTrue(twoActive.err().contains("replicaCount > 1 needs leaderElection.enabled"), twoActive.err());

    Result noName = HelmChart.run(List.of("template", RELEASE, HelmChart.CHART, "--set",
        "scheduler.configMap.create=false"));
    assertNotEquals(0, noName.exit());
    assertTrue(noName.err().contains("scheduler.configMap.name is required"), noName.err());

    Result badTier = HelmChart.run(List.of("template", RELEASE, HelmChart.CHART, "--set",
        "scheduler.tiers[0].plugins[0].arguments=oops"));
    assertNotEquals(0, badTier.exit(), "values.schema.json checks the tiers' shape");
  }

  // ------------------------------------------------------------------------------------------------- without helm

  @Test
  void valuesFilesTiersValidateWithoutHelm() throws Exception {
    for (String file : List.of("values.yaml", "ci/custom-values.yaml")) {
      Map<String, Object> values = map(new Yaml(new SafeConstructor(new LoaderOptions()))
          .load(Files.readString(HelmChart.chartDir().resolve(file))));
      Map<String, Object> scheduler = map(values.get("scheduler"));
      Map<String, Object> conf = new LinkedHashMap<>();
      conf.put("actions", scheduler.get("actions"));
      conf.put("tiers", scheduler.get("tiers"));
      if (scheduler.get("configurations") instanceof List<?> l && !l.isEmpty()) {
        conf.put("configurations", l);
      }
      assertValid(new Yaml().dump(conf), file);
    }
  }

  @Test
  void dockerfileRunsTheShadedJarAsTheChartsNonRootUser() throws Exception {
    Path dockerfile = HelmChart.repoRoot().resolve("deploy/Dockerfile");
    List<String> lines = Files.readAllLines(dockerfile).stream().map(String::strip)
        .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    assertTrue(lines.stream().anyMatch(l -> l.matches("COPY\\s+scheduler-app/target/basalt\\.jar\\s+\\S+")), "COPY");
    assertTrue(lines.contains("ENTRYPOINT [\"java\", \"-jar\", \"/opt/basalt/basalt.jar\"]"), lines.toString());
    assertTrue(lines.contains("ARG UID=65532") && lines.contains("USER ${UID}:${UID}"),
        "numeric non-root user 65532, the chart's runAsUser");
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("ARG BASE_IMAGE=") && l.contains(":17") && l.contains("jre")),
        "a Java 17 JRE base image");
    Map<String, Object> values = map(new Yaml(new SafeConstructor(new LoaderOptions()))
        .load(Files.readString(HelmChart.chartDir().resolve("values.yaml"))));
    assertEquals(65532, map(values.get("podSecurityContext")).get("runAsUser"));
  }

  @Test
  void requiredApiCallsAreDistinctAndNamespacedOnlyWhereTheyMustBe() {
    assertEquals(ApiCalls.granted(true, true).size(), new HashSet<>(ApiCalls.granted(true, true)).size(),
        "duplicates");
    for (ApiCall call : ApiCalls.granted(true, true)) {
      boolean namespacedOnly = call.resource().equals("leases") || call.resource().equals("configmaps");
      assertEquals(namespacedOnly, call.scope() != Scope.CLUSTER, call.toString());
      assertFalse(call.verb().equals("*") || call.resource().equals("*") || call.apiGroup().equals("*"), "wildcard");
      assertFalse(Set.of("delete", "deletecollection", "escalate", "bind", "impersonate").contains(call.verb()),
          call + ": the scheduler deletes nothing (victims go through pods/eviction)");
    }
  }

  // ------------------------------------------------------------------------------------------------------ helpers

  /** client-java models start list fields empty rather than null. */
  private static void assertNone(java.util.Collection<?> c, String what) {
    assertTrue(c == null || c.isEmpty(), what + ": " + c);
  }

  private static V1Container scheduler(V1Deployment d) {
    List<V1Container> containers = d.getSpec().getTemplate().getSpec().getContainers();
    assertEquals(1, containers.size());
    assertEquals("scheduler", containers.get(0).getName());
    return containers.get(0);
  }

  /** {@code --name=value} arguments by name, in order; a bare {@code --flag} maps to "". */
  private static Map<String, List<String>> flags(List<String> args) {
    Map<String, List<String>> flags = new LinkedHashMap<>();
    for (String a : args.subList(1, args.size())) {
      assertTrue(a.startsWith("--"), "every argument after `run` is a --flag[=value], got " + a);
      int eq = a.indexOf('=');
      String name = eq < 0 ? a : a.substring(0, eq);
      flags.computeIfAbsent(name, k -> new ArrayList<>()).add(eq < 0 ? "" : a.substring(eq + 1));
    }
    return flags;
  }

  private static void assertProbe(V1Container c, V1Probe probe, String path) {
    assertNotNull(probe, path);
    assertEquals(path, probe.getHttpGet().getPath());
    String port = probe.getHttpGet().getPort().getStrValue();
    assertTrue(c.getPorts().stream().anyMatch(p -> port.equals(p.getName())), path + " on a named container port");
    assertEquals("metrics", port);
  }

  private static SchedulerConf assertValid(String text, String source) throws Exception {
    SchedulerConf conf = ConfLoader.parse(text, source);
    ConfValidator.Report report = ConfValidator.validate(conf, PluginRegistry.load(), ActionRegistry.builtin());
    assertEquals(List.of(), report.errors(), source + ":\n" + text);
    assertEquals(List.of(), report.warnings(), source + ":\n" + text);
    for (PluginOption p : conf.allPlugins()) {
      assertTrue(BUILT_PLUGINS.contains(p.name()), source + ": plugin " + p.name() + " is not built");
    }
    return conf;
  }

  private static List<List<String>> pluginNames(SchedulerConf conf) {
    List<List<String>> names = new ArrayList<>();
    for (Tier t : conf.tiers()) {
      names.add(t.plugins().stream().map(PluginOption::name).toList());
    }
    return names;
  }

  private static V1CustomResourceDefinitionVersion onlyVersion(V1CustomResourceDefinition crd) {
    assertEquals(1, crd.getSpec().getVersions().size());
    V1CustomResourceDefinitionVersion v = crd.getSpec().getVersions().get(0);
    assertEquals("v1beta1", v.getName());
    assertTrue(v.getServed() && v.getStorage());
    return v;
  }

  /** The schema types {@code fields} under {@code part} and keeps whatever else a newer Volcano sends. */
  private static void assertSchema(V1CustomResourceDefinitionVersion v, String part, Set<String> fields) {
    V1JSONSchemaProps props = v.getSchema().getOpenAPIV3Schema().getProperties().get(part);
    assertNotNull(props, part);
    assertEquals(Boolean.TRUE, props.getxKubernetesPreserveUnknownFields(), part + " preserves unknown fields");
    assertEquals(fields, props.getProperties().keySet(), part + " fields");
  }

  /**
   * Every (group, resource, verb) a set of rules grants, as "group resource verb" strings, with " name=N" appended
   * for each name a rule restricts it to.
   */
  private static Set<String> expand(List<V1PolicyRule> rules) {
    Set<String> out = new TreeSet<>();
    for (V1PolicyRule rule : rules) {
      assertNone(rule.getNonResourceURLs(), "nonResourceURLs");
      List<String> names = rule.getResourceNames() == null || rule.getResourceNames().isEmpty() ? List.of("")
          : rule.getResourceNames().stream().map(n -> " name=" + n).toList();
      for (String g : rule.getApiGroups()) {
        for (String res : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            assertFalse(g.equals("*") || res.equals("*") || verb.equals("*"), "wildcard in " + rule);
            for (String n : names) {
              out.add((g.isEmpty() ? "core" : g) + " " + res + " " + verb + n);
            }
          }
        }
      }
    }
    return out;
  }

  private static String key(ApiCall c, String name) {
    return (c.apiGroup().isEmpty() ? "core" : c.apiGroup()) + " " + c.resource() + " " + c.verb()
        + (c.named() ? " name=" + name : "");
  }

  /**
   * What the scheduler's ServiceAccount is granted, per scope, equals {@code want}: nothing missing,
   * nothing more, namespaced calls granted only in their namespace.
   */
  private static void assertRbacIsExact(Rendered r, String releaseNs, String configNs, List<ApiCall> want) {
    String sa = r.one(V1Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName();
    Map<String, V1ClusterRole> clusterRoles = new LinkedHashMap<>();
    r.all(V1ClusterRole.class).forEach(cr -> clusterRoles.put(cr.getMetadata().getName(), cr));
    Map<String, V1Role> roles = new LinkedHashMap<>();
    r.all(V1Role.class).forEach(ro -> roles.put(ro.getMetadata().getNamespace() + "/" + ro.getMetadata().getName(),
        ro));

    Set<String> cluster = new TreeSet<>();
    for (V1ClusterRoleBinding b : r.all(V1ClusterRoleBinding.class)) {
      if (bindsTo(b.getSubjects(), sa, releaseNs)) {
        assertEquals("ClusterRole", b.getRoleRef().getKind());
        V1ClusterRole role = clusterRoles.get(b.getRoleRef().getName());
        assertNotNull(role, "ClusterRoleBinding " + b.getMetadata().getName() + " names a rendered ClusterRole");
        cluster.addAll(expand(role.getRules()));
      }
    }
    Map<String, Set<String>> namespaced = new LinkedHashMap<>();
    for (V1RoleBinding b : r.all(V1RoleBinding.class)) {
      if (bindsTo(b.getSubjects(), sa, releaseNs)) {
        V1RoleRef ref = b.getRoleRef();
        assertEquals("Role", ref.getKind());
        String ns = b.getMetadata().getNamespace();
        V1Role role = roles.get(ns + "/" + ref.getName());
        assertNotNull(role, "RoleBinding " + ns + "/" + b.getMetadata().getName() + " names a rendered Role");
        namespaced.computeIfAbsent(ns, k -> new TreeSet<>()).addAll(expand(role.getRules()));
      }
    }

    // The one Lease and ConfigMap the Deployment's flags name are all the namespaced grants may reach.
    Map<String, List<String>> flags = flags(scheduler(r.one(V1Deployment.class)).getArgs());
    String leaseName = flags.get("--lease-name").get(0);
    String configName = flags.get("--config-map").get(0).split("/", 2)[1];
    Set<String> wantCluster = new TreeSet<>();
    Map<String, Set<String>> wantNamespaced = new LinkedHashMap<>();
    for (ApiCall c : want) {
      switch (c.scope()) {
        case CLUSTER -> wantCluster.add(key(c, null));
        case LEASE_NAMESPACE -> wantNamespaced.computeIfAbsent(releaseNs, k -> new TreeSet<>())
            .add(key(c, leaseName));
        case CONFIG_NAMESPACE -> wantNamespaced.computeIfAbsent(configNs, k -> new TreeSet<>())
            .add(key(c, configName));
        default -> fail(c.toString());
      }
    }
    assertEquals(wantCluster, cluster, "ClusterRole grants (missing: " + minus(wantCluster, cluster) + ", extra: "
        + minus(cluster, wantCluster) + ")");
    assertEquals(wantNamespaced, namespaced, "Role grants per namespace");
  }

  private static boolean wantNoNames(List<V1PolicyRule> rules) {
    return rules.stream().allMatch(r -> r.getResourceNames() == null || r.getResourceNames().isEmpty());
  }

  private static boolean bindsTo(List<RbacV1Subject> subjects, String sa, String ns) {
    return subjects != null && subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind())
        && sa.equals(s.getName()) && ns.equals(s.getNamespace()));
  }

  private static Set<String> minus(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.removeAll(b);
    return out;
  }

  @SuppressWarnings("unchecked")
  private static <V> Map<String, V> map(Object o) {
    assertTrue(o instanceof Map<?, ?>, "expected a mapping, got " + o);
    return (Map<String, V>) o;
  }
}
