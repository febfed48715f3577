package io.basalt.app;

import io.basalt.app.cli.DurationConverter;
import io.basalt.kube.live.TopologyFeed;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code run}'s network-fabric flags: the shared ones, plus a URL to poll (MetaX topo-master serves node_group). */
final class LiveTopologyOptions extends TopologyOptions {
  @Option(names = "--topology-url", paramLabel = "URL",
      description = "http(s) URL serving node_group JSON (MetaX topo-master), fetched every --topology-poll; a "
          + "failed fetch or malformed JSON keeps the last good topology. Wins over HyperNodes.")
  URI url;

  @Option(names = "--topology-poll", defaultValue = "30s", converter = DurationConverter.class,
      description = "How often --topology-url (and the --topology file) is read again (default: ${DEFAULT-VALUE}).")
  Duration poll;

  @Override
  List<String> given() {
    List<String> given = super.given();
    if (url != null) {
      given.add("--topology-url");
    }
    return given;
  }

  @Override
  List<String> problems() {
    List<String> problems = super.problems();
    if (url != null && !"http".equalsIgnoreCase(url.getScheme()) && !"https".equalsIgnoreCase(url.getScheme())) {
      problems.add("--topology-url must be an http or https URL, got '" + url + "'");
    }
    if (poll.isNegative() || poll.isZero()) {
      problems.add("--topology-poll must be positive, got " + poll);
    }
    if (file != null && !Files.isRegularFile(file)) {
      problems.add("--topology " + file + ": no such file");
    }
    return problems;
  }

  /** The feed of the flag given; HyperNodes (watched by the informers) when none is. */
  TopologyFeed feed() {
    if (file != null) {
      return TopologyFeed.nodeGroupFile(file, poll);
    }
    if (url != null) {
      return TopologyFeed.nodeGroupUrl(url, poll);
    }
    if (labels != null && !labels.isEmpty()) {
      return TopologyFeed.labels(labels);
    }
    return TopologyFeed.hyperNodes();
  }
}
