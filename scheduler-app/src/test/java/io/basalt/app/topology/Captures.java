package io.basalt.app.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The nvidia-smi captures in test-fixtures/nvidia-smi, found from whichever directory the tests run in. */
final class Captures {
  private Captures() {}

  static Path path(String name) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path p = dir.resolve("test-fixtures").resolve("nvidia-smi").resolve(name);
      if (Files.exists(p)) {
        return p;
      }
    }
    throw new IllegalStateException("no test-fixtures/nvidia-smi/" + name);
  }

  static String read(String name) {
    try {
      return Files.readString(path(name), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
