package io.basalt.app.chart;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ValidatingAdmissionPolicy;
import io.kubernetes.client.openapi.models.V1ValidatingAdmissionPolicyBinding;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Runs the real {@code helm} binary on {@code charts/basalt-scheduler} and parses what it renders into client-java's
 * typed models. The binary is {@code $BASALT_HELM}, else {@code .ci/.tools/helm} (where {@code .ci/run} installs it);
 * without either, the tests that need it are skipped.
 */
final class HelmChart {
  static final String CHART = "charts/basalt-scheduler";

  /** Typed model per kind; a field the model lacks makes the load fail, so a mis-indented template is caught. */
  private static final Map<String, Class<? extends KubernetesObject>> MODELS = Map.ofEntries(
      Map.entry("ServiceAccount", V1ServiceAccount.class),
      Map.entry("ConfigMap", V1ConfigMap.class),
      Map.entry("ClusterRole", V1ClusterRole.class),
      Map.entry("ClusterRoleBinding", V1ClusterRoleBinding.class),
      Map.entry("Role", V1Role.class),
      Map.entry("RoleBinding", V1RoleBinding.class),
      Map.entry("Service", V1Service.class),
      Map.entry("Deployment", V1Deployment.class),
      Map.entry("DaemonSet", V1DaemonSet.class),
      Map.entry("PodDisruptionBudget", V1PodDisruptionBudget.class),
      Map.entry("NetworkPolicy", V1NetworkPolicy.class),
      Map.entry("CustomResourceDefinition", V1CustomResourceDefinition.class),
      Map.entry("ValidatingAdmissionPolicy", V1ValidatingAdmissionPolicy.class),
      Map.entry("ValidatingAdmissionPolicyBinding", V1ValidatingAdmissionPolicyBinding.class));

  /** Kinds client-java has no model for: kept as maps. */
  private static final List<String> UNTYPED = List.of("ServiceMonitor");

  private static final Pattern SEPARATOR = Pattern.compile("(?m)^---\\s*$");

  private HelmChart() {}

  /** One rendered document: its kind, the typed object (null for {@link #UNTYPED} kinds) and the raw map. */
  record Doc(String kind, KubernetesObject typed, Map<String, Object> raw) {}

  /** What {@code helm template} printed, split and parsed. */
  record Rendered(String yaml, List<Doc> docs) {
    List<Doc> all(String kind) {
      return docs.stream().filter(d -> d.kind().equals(kind)).toList();
    }

    <T extends KubernetesObject> List<T> all(Class<T> type) {
      return docs.stream().map(Doc::typed).filter(type::isInstance).map(type::cast).toList();
    }

    <T extends KubernetesObject> T one(Class<T> type) {
      List<T> found = all(type);
      assertTrue(found.size() == 1, "expected one " + type.getSimpleName() + ", rendered " + found.size());
      return found.get(0);
    }
  }

  /** A helm run: exit code, stdout, stderr. */
  record Result(int exit, String out, String err) {}

  /** The repository root, found from the module's working directory. */
  static Path repoRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(CHART).resolve("Chart.yaml"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no " + CHART + "/Chart.yaml above " + Path.of("").toAbsolutePath());
  }

  static Path chartDir() {
    return repoRoot().resolve(CHART);
  }

  /** The helm binary, if there is one. BASALT_HELM naming something that is not executable is an error. */
  static Optional<Path> helm() {
    String env = System.getenv("BASALT_HELM");
    if (env != null && !env.isBlank()) {
      Path p = Path.of(env);
      if (!Files.isExecutable(p)) {
        fail("BASALT_HELM=" + env + " is not an executable file");
      }
      return Optional.of(p);
    }
    Path local = repoRoot().resolve(".ci/.tools/helm");
    return Files.isExecutable(local) ? Optional.of(local) : Optional.empty();
  }

  /** Skips the calling test when there is no helm. */
  static Path requireHelm() {
    Optional<Path> helm = helm();
    Assumptions.assumeTrue(helm.isPresent(),
        "no helm: set BASALT_HELM or run .ci/run once (it installs .ci/.tools/helm)");
    return helm.get();
  }

  /** Runs helm with the given arguments from the repository root. */
  static Result run(List<String> args) {
    Path helm = requireHelm();
    List<String> cmd = new ArrayList<>();
    cmd.add(helm.toString());
    cmd.addAll(args);
    Path home = repoRoot().resolve("scheduler-app/target/helm-home");
    try {
      Path outFile = Files.createTempFile("helm", ".out");
      Path errFile = Files.createTempFile("helm", ".err");
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(repoRoot().toFile())
          .redirectOutput(outFile.toFile()).redirectError(errFile.toFile());
      // Keep helm's caches out of the user's home; template and lint need no cluster and no network.
      pb.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
      pb.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
      pb.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
      pb.environment().remove("KUBECONFIG");
      Process p = pb.start();
      p.getOutputStream().close();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail("helm " + args + " did not finish in 120 s");
      }
      String out = Files.readString(outFile, StandardCharsets.UTF_8);
      String err = Files.readString(errFile, StandardCharsets.UTF_8);
      Files.deleteIfExists(outFile);
      Files.deleteIfExists(errFile);
      return new Result(p.exitValue(), out, err);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + cmd, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code helm template RELEASE charts/basalt-scheduler --namespace NS EXTRA...}; fails the test when helm fails.
   * The output is also written to {@code scheduler-app/target/helm/OUTPUT.yaml} for a person to read.
   */
  static Rendered template(String release, String namespace, String output, String... extra) {
    List<String> args = new ArrayList<>(List.of("template", release, CHART, "--namespace", namespace));
    args.addAll(List.of(extra));
    Result r = run(args);
    if (r.exit() != 0) {
      fail("helm " + String.join(" ", args) + " failed (" + r.exit() + "):\n" + r.err());
    }
    try {
      Path dir = repoRoot().resolve("scheduler-app/target/helm");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(output + ".yaml"), r.out());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return parse(r.out());
  }

  /** Splits a multi-document stream and loads every document into its typed model. */
  static Rendered parse(String yaml) {
    List<Doc> docs = new ArrayList<>();
    for (String text : SEPARATOR.split(yaml)) {
      Object loaded = new org.yaml.snakeyaml.Yaml(new SafeConstructor(new LoaderOptions())).load(text);
      if (loaded == null) {
        continue; // comments only, or a template rendered to nothing
      }
      if (!(loaded instanceof Map<?, ?> map) || !(map.get("kind") instanceof String kind)) {
        fail("rendered document is not a Kubernetes object:\n" + text);
        return null;
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> raw = (Map<String, Object>) map;
      if (UNTYPED.contains(kind)) {
        docs.add(new Doc(kind, null, raw));
        continue;
      }
      Class<? extends KubernetesObject> model = MODELS.get(kind);
      if (model == null) {
        fail("the chart renders a " + kind + ", which ChartTest does not know; add it to HelmChart.MODELS");
      }
      KubernetesObject typed;
      try {
        typed = Yaml.loadAs(text, model);
      } catch (RuntimeException e) {
        throw new AssertionError("rendered " + kind + " does not load as " + model.getSimpleName() + ": "
            + e.getMessage() + "\n" + text, e);
      }
      docs.add(new Doc(kind, typed, raw));
    }
    return new Rendered(yaml, docs);
  }
}
