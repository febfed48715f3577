package io.basalt.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeClientsTest {
  @Test
  void theFlagThenInClusterThenKubeconfigVariableThenHome(@TempDir Path dir) throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path token = dir.resolve("token");
    Path flag = Files.writeString(dir.resolve("flag"), "x");
    Path fromEnv = Files.writeString(dir.resolve("env"), "x");
    Path homeConfig = Files.createDirectories(home.resolve(".kube")).resolve("config");
    Files.writeString(homeConfig, "x");
    Files.writeString(token, "t");
    Map<String, String> inPod = Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1",
        "KUBECONFIG", dir.resolve("missing") + java.io.File.pathSeparator + fromEnv);

    assertEquals(flag, KubeClients.resolve(flag, inPod, home, token).file());
    assertTrue(KubeClients.resolve(null, inPod, home, token).inCluster(), "in a pod, the ServiceAccount wins");
    assertEquals(fromEnv, KubeClients.resolve(null, inPod, home, dir.resolve("no-token")).file(),
        "the first readable file of $KUBECONFIG");
    assertEquals(homeConfig, KubeClients.resolve(null, Map.of(), home, token).file());
  }

  @Test
  void nothingFoundIsAClearErrorNotLocalhost(@TempDir Path dir) {
    IOException e = assertThrows(IOException.class,
        () -> KubeClients.resolve(null, Map.of("KUBECONFIG", "/nope"), dir, dir.resolve("token")));
    assertTrue(e.getMessage().contains("pass --kubeconfig FILE") && e.getMessage().contains("/nope"),
        e.getMessage());
    IOException flag = assertThrows(IOException.class,
        () -> KubeClients.resolve(dir.resolve("absent"), Map.of(), dir, dir.resolve("token")));
    assertTrue(flag.getMessage().startsWith("--kubeconfig "), flag.getMessage());
  }
}
