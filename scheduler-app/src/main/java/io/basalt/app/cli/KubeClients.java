package io.basalt.app.cli;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the commands that talk to a cluster find it: {@code --kubeconfig} when given, else the pod's ServiceAccount
 * when running in a cluster, else the first file of {@code $KUBECONFIG}, else {@code ~/.kube/config}. Nothing found
 * is an error naming what was tried, never a silent fall-back to {@code localhost:8080} as client-java's default does.
 */
public final class KubeClients {
  static final Path TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  private KubeClients() {
  }

  /** Where the cluster was found: a kubeconfig file, or the in-cluster ServiceAccount ({@code file} null). */
  record Source(Path file, String why) {
    boolean inCluster() {
      return file == null;
    }
  }

  /** A client for the cluster, found as the class comment says. */
  public static ApiClient connect(Path kubeconfig) throws IOException {
    Source source = resolve(kubeconfig, System.getenv(), Path.of(System.getProperty("user.home")), TOKEN);
    if (source.inCluster()) {
      return ClientBuilder.cluster().build();
    }
    try (Reader r = Files.newBufferedReader(source.file(), StandardCharsets.UTF_8)) {
      KubeConfig config = KubeConfig.loadKubeConfig(r);
      config.setFile(source.file().toFile());
      return ClientBuilder.kubeconfig(config).build();
    } catch (IOException | RuntimeException e) {
      throw new IOException("cannot load kubeconfig " + source.file() + " (" + source.why() + "): " + e.getMessage(),
          e);
    }
  }

  static Source resolve(Path flag, Map<String, String> env, Path home, Path token) throws IOException {
    if (flag != null) {
      if (!Files.isReadable(flag)) {
        throw new IOException("--kubeconfig " + flag + ": no such readable file");
      }
      return new Source(flag, "--kubeconfig");
    }
    if (env.get("KUBERNETES_SERVICE_HOST") != null && Files.exists(token)) {
      return new Source(null, "in-cluster ServiceAccount");
    }
    String list = env.getOrDefault("KUBECONFIG", "");
    for (String part : list.split(java.io.File.pathSeparator)) {
      if (!part.isBlank() && Files.isReadable(Path.of(part))) {
        return new Source(Path.of(part), "$KUBECONFIG");
      }
    }
    Path dflt = home.resolve(".kube").resolve("config");
    if (Files.isReadable(dflt)) {
      return new Source(dflt, "~/.kube/config");
    }
    throw new IOException("no cluster to talk to: pass --kubeconfig FILE, run in a pod with a ServiceAccount, set "
        + "$KUBECONFIG" + (list.isBlank() ? "" : " (" + list + " has no readable file)") + ", or create " + dflt);
  }
}
