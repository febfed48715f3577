package io.basalt.app.topology;

import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.basalt.gpu.GpuAnnotations;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One node's agent: reads the topology, then writes the annotation only when it differs from what the node has, so
 * a DaemonSet pass every few minutes costs one GET and no write (no node update events for the scheduler to process).
 */
final class TopologyAgent {
  /** What one pass did. */
  record Pass(boolean written, int gpus) {}

  private final TopologyReader reader;
  private final NodeAnnotator nodes;
  private final String node;

  TopologyAgent(TopologyReader reader, NodeAnnotator nodes, String node) {
    this.reader = reader;
    this.nodes = nodes;
    this.node = node;
  }

  /** Reads first, so a topology that does not parse never reaches the cluster. */
  Pass pass() throws SmiException, ClusterException {
    TopologyAnnotation wanted = reader.read();
    String current = nodes.get(node, GpuAnnotations.TOPOLOGY);
    if (sameJson(current, wanted.json())) {
      return new Pass(false, wanted.gpus());
    }
    nodes.set(node, GpuAnnotations.TOPOLOGY, wanted.json());
    return new Pass(true, wanted.gpus());
  }

  /**
   * Passes every {@code interval} until {@code stop} opens. A failed pass is reported and retried at the next
   * interval: the driver may still be loading, or the API server briefly away, and a crash-looping DaemonSet would
   * not fix either.
   */
  void loop(Duration interval, CountDownLatch stop, PrintStream out, PrintStream err) throws InterruptedException {
    boolean first = true;
    do {
      try {
        Pass p = pass();
        if (p.written() || first) {
          out.println(describe(p));
        }
      } catch (SmiException e) {
        err.println("topology-agent: " + e.getMessage() + "; nothing written to node " + node);
      } catch (ClusterException e) {
        err.println("topology-agent: " + e.getMessage());
      } catch (RuntimeException e) {
        err.println("topology-agent: unexpected " + e);
      }
      first = false;
    } while (!stop.await(interval.toMillis(), TimeUnit.MILLISECONDS));
  }

  String describe(Pass p) {
    return "topology-agent: node " + node + ": " + GpuAnnotations.TOPOLOGY + (p.written() ? " written" : " unchanged")
        + " (" + p.gpus() + " GPUs)";
  }

  /** Equal as JSON, so a value re-serialised by someone else (spacing, key order) is not rewritten every pass. */
  static boolean sameJson(String current, String wanted) {
    if (current == null) {
      return false;
    }
    try {
      return JsonParser.parseString(current).equals(JsonParser.parseString(wanted));
    } catch (JsonParseException e) {
      return current.equals(wanted);
    }
  }
}
