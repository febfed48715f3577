package io.basalt.app.replay;

import io.basalt.app.bench.InProcessEngine;
import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.scheduler.SchedulerProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The openb slice in {@code test-fixtures/openb-slice/} and the configs the replay tests run it with. */
final class ReplayFixtures {
  /** The tiers issue 14 tried: device accounting by deviceshare (shares) and gpu-aware (whole GPUs). */
  static final String GPU_CONF = """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins:
        - name: priority
        - name: gang
        - name: conformance
      - plugins:
        - name: predicates
        - name: deviceshare
        - name: gpu-aware
      """;

  private ReplayFixtures() {}

  static Path sliceDir() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path p = dir.resolve("test-fixtures").resolve("openb-slice");
      if (Files.isDirectory(p)) {
        return p;
      }
    }
    throw new IllegalStateException("test-fixtures/openb-slice not found above " + Path.of("").toAbsolutePath());
  }

  static OpenbTrace slice() {
    Path dir = sliceDir();
    try {
      return OpenbTrace.read(dir.resolve(OpenbTrace.NODE_FILE), dir.resolve(OpenbTrace.POD_FILE));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static SchedulerProfile profile(String conf) {
    try {
      return InProcessEngine.compile(conf == null ? ConfLoader.defaultConf() : ConfLoader.parse(conf, "test"),
          "test");
    } catch (ConfigException e) {
      throw new IllegalStateException(e.problems().toString(), e);
    }
  }
}
