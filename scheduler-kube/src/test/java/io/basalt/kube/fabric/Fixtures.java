package io.basalt.kube.fabric;

import io.basalt.model.Node;
import io.basalt.model.ResourceVector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Helpers of the fabric readers' tests. */
final class Fixtures {
  private Fixtures() {}

  /** {@code test-fixtures/supernode}, found from whichever directory the tests run in. */
  static Path supernode() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path p = dir.resolve("test-fixtures").resolve("supernode");
      if (Files.isDirectory(p)) {
        return p;
      }
    }
    throw new IllegalStateException("no test-fixtures/supernode");
  }

  static Node node(String name, Map<String, String> labels) {
    return Node.of(name, ResourceVector.ZERO).withLabels(labels);
  }

  static Node node(String name) {
    return node(name, Map.of());
  }
}
