package io.basalt.app;

import io.basalt.fabric.FabricBuilder;
import io.basalt.kube.fabric.LabelTopologyReader;
import io.basalt.kube.fabric.NodeGroupReader;
import io.basalt.model.Node;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The network-fabric flags {@code simulate} and {@code run} share. Precedence: a flag wins over the cluster's Volcano
 * HyperNodes (they are then ignored), and at most one flag may be given, since two trees over the same nodes cannot
 * both hold; see docs/TOPOLOGY.md.
 */
class TopologyOptions {
  @Option(names = "--topology", paramLabel = "FILE",
      description = "MetaX topo-master node_group JSON stating the network fabric (switchboxes, dragonflies). "
          + "Wins over HyperNodes in the cluster, which are then ignored; at most one --topology* flag.")
  Path file;

  @Option(names = "--topology-labels", paramLabel = "KEY[,KEY...]", split = ",",
      description = "Node label keys stating the network fabric, widest tier first (e.g. "
          + "topology.example.com/switchbox,topology.example.com/dragonfly). Wins over HyperNodes.")
  List<String> labels;

  /** The topology flags given, by name. */
  List<String> given() {
    List<String> given = new ArrayList<>();
    if (file != null) {
      given.add("--topology");
    }
    if (labels != null && !labels.isEmpty()) {
      given.add("--topology-labels");
    }
    return given;
  }

  /** One line per usage error: more than one source, a label key list with a blank key. */
  List<String> problems() {
    List<String> problems = new ArrayList<>();
    List<String> given = given();
    if (given.size() > 1) {
      problems.add("give one topology source, not " + String.join(" and ", given));
    }
    if (labels != null && labels.stream().anyMatch(String::isBlank)) {
      problems.add("--topology-labels: a blank label key in " + labels);
    }
    return problems;
  }

  /**
   * The fabric of the flag given over a cluster's nodes, for the simulator, or null when none is; problems are
   * prefixed with the source.
   *
   * @throws IOException when the --topology file cannot be read
   */
  Function<List<Node>, FabricBuilder.Result> simulated() throws IOException {
    if (file != null) {
      if (!Files.isRegularFile(file)) {
        throw new IOException("--topology " + file + ": no such file");
      }
      String text = Files.readString(file, StandardCharsets.UTF_8);
      return nodes -> prefixed(file.toString(), NodeGroupReader.read(text, nodes.stream().map(Node::name).toList()));
    }
    if (labels != null && !labels.isEmpty()) {
      return nodes -> prefixed("--topology-labels", LabelTopologyReader.read(labels, nodes));
    }
    return null;
  }

  /** The flag given and its value, for warnings. */
  String describe() {
    return file != null ? "--topology " + file : "--topology-labels " + String.join(",", labels);
  }

  private static FabricBuilder.Result prefixed(String source, FabricBuilder.Result r) {
    return new FabricBuilder.Result(r.fabric(), r.problems().stream().map(p -> source + ": " + p).toList());
  }
}
