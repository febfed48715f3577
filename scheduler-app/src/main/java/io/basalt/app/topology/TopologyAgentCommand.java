package io.basalt.app.topology;

import io.basalt.app.cli.DurationConverter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code basalt topology-agent}: runs on each GPU node (a DaemonSet) and keeps the node's
 * {@code basalt.io/gpu-topology} annotation equal to what {@code nvidia-smi} reports, so gpu-aware placement knows
 * which GPUs share NVLink without anyone typing the matrix in. Exit 0, 1 when the topology cannot be read (nothing
 * is written), 2 on a cluster error.
 */
@Command(name = "topology-agent", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Annotate this node with its GPU topology (basalt.io/gpu-topology) from nvidia-smi.",
        "Exit codes: 0 ok, 1 the smi output could not be read or parsed (nothing written), 2 cluster error."})
public final class TopologyAgentCommand implements Callable<Integer> {
  static final int OK = 0;
  static final int UNREADABLE = 1;
  static final int CLUSTER = 2;
  /** How long a pass may take to finish after SIGTERM before the JVM goes down anyway. */
  private static final Duration GRACE = Duration.ofSeconds(10);

  @Spec
  CommandSpec spec;

  @Option(names = "--node", defaultValue = "${env:NODE_NAME}", paramLabel = "NAME",
      description = "The node to annotate (default: $NODE_NAME, set it from spec.nodeName in the DaemonSet).")
  String node;

  @Option(names = "--once", description = "One pass, then exit.")
  boolean once;

  @Option(names = "--interval", defaultValue = "5m", converter = DurationConverter.class, paramLabel = "DURATION",
      description = "Time between passes when looping (default: ${DEFAULT-VALUE}); runs until SIGTERM.")
  Duration interval;

  @Option(names = "--print", description = "Print the annotation JSON to stdout and touch nothing (no cluster "
      + "needed).")
  boolean print;

  @Option(names = "--smi", defaultValue = "nvidia-smi", paramLabel = "PATH",
      description = "The smi program (default: ${DEFAULT-VALUE}).")
  String smi;

  @Option(names = "--topo-args", defaultValue = "topo -m", paramLabel = "ARGS",
      description = "Its arguments printing the link matrix, split on spaces (default: ${DEFAULT-VALUE}).")
  String topoArgs;

  @Option(names = "--query-args", defaultValue = "--query-gpu=index,uuid,name,memory.total --format=csv,noheader",
      paramLabel = "ARGS", description = "Its arguments listing index, uuid, name, memory.total as CSV, split on "
          + "spaces (default: ${DEFAULT-VALUE}).")
  String queryArgs;

  @Option(names = "--smi-timeout", defaultValue = "60s", converter = DurationConverter.class, paramLabel = "DURATION",
      description = "Kill an smi command that takes longer (default: ${DEFAULT-VALUE}).")
  Duration smiTimeout;

  @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Kube config to use; default: in-cluster "
      + "service account, else $KUBECONFIG or ~/.kube/config.")
  Path kubeconfig;

  @Override
  public Integer call() {
    PrintStream out = System.out;
    PrintStream err = System.err;
    if (interval.isNegative() || interval.isZero() || smiTimeout.isNegative() || smiTimeout.isZero()) {
      throw new ParameterException(spec.commandLine(), "--interval and --smi-timeout must be positive");
    }
    TopologyReader reader = new SmiTopologyReader(command(topoArgs), command(queryArgs), new SmiRunner(smiTimeout));
    if (print) {
      try {
        out.println(reader.read().json());
        return OK;
      } catch (SmiException e) {
        err.println("topology-agent: " + e.getMessage());
        return UNREADABLE;
      }
    }
    if (node == null || node.isBlank()) {
      throw new ParameterException(spec.commandLine(), "--node is required (or set NODE_NAME), unless --print");
    }
    NodeAnnotator nodes;
    try {
      nodes = KubeNodeAnnotator.connect(kubeconfig);
    } catch (ClusterException e) {
      err.println("topology-agent: " + e.getMessage());
      return CLUSTER;
    }
    TopologyAgent agent = new TopologyAgent(reader, nodes, node);
    return once ? once(agent, out, err) : loop(agent, out, err);
  }

  private int once(TopologyAgent agent, PrintStream out, PrintStream err) {
    try {
      out.println(agent.describe(agent.pass()));
      return OK;
    } catch (SmiException e) {
      err.println("topology-agent: " + e.getMessage() + "; nothing written to node " + node);
      return UNREADABLE;
    } catch (ClusterException e) {
      err.println("topology-agent: " + e.getMessage());
      return CLUSTER;
    }
  }

  /** Loops until SIGTERM: the shutdown hook opens the stop latch and gives the pass under way a moment to end. */
  private int loop(TopologyAgent agent, PrintStream out, PrintStream err) {
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        stopped.await(GRACE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "topology-agent-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      agent.loop(interval, stop, out, err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      stopped.countDown();
    }
    return OK;
  }

  /** The smi program followed by {@code args} split on whitespace. */
  List<String> command(String args) {
    List<String> c = new ArrayList<>();
    c.add(smi);
    Arrays.stream(args.strip().split("\\s+")).filter(a -> !a.isEmpty()).forEach(c::add);
    return c;
  }
}
