package io.basalt.kube.kinds.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.Manifests;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Counts of every workload kind (a Job's parallelism and completions, a JobSet's replicas times its Jobs'
 * parallelism, a Volcano Job's tasks' replicas, a PyTorchJob's and an MPIJob's replica specs) set to seeded
 * negative, fractional, textual, 32-bit-overflowing, exponent-huge and just-allowed-but-adding-up-past-the-bound
 * values: each document expands to exactly the pods its counts say, or is refused with one error naming its
 * object and a count field, at once (no pod is made before a total is known to be too large). Bounded by the
 * number of cases; {@code -Dbasalt.fuzz.seed}, {@code -Dbasalt.fuzz.count}.
 */
class WorkloadCountFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 35L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 5000);
  private static final int PER_MANIFEST = 50;
  /** Values the API server or the webhook would refuse for a count. */
  private static final List<String> BAD = List.of("-1", "-2147483649", "1.5", "'3'", "true", "[1]", "{a: 1}",
      "2147483648", "1e999999999", "-1e999999999", "100001", "1000000000", "9999999999999999999999", "0.1e1x",
      "\"\"", "1e-999999999");
  private static final String TEMPLATE = "template: {spec: {containers: [{name: c}]}}";

  /** One count: its YAML text and its value, or null when it must be refused. */
  private record Count(String text, Integer value) {}

  /** A document and the pods it must make (null when it must be refused naming one of {@code fields}). */
  private record Doc(String yaml, Integer pods, String object) {}

  @Test
  void countsExpandExactlyOrAreRefusedNamingTheFieldAtOnce() {
    Random r = new Random(SEED);
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      int refused = 0;
      int expanded = 0;
      for (int done = 0; done < COUNT; done += PER_MANIFEST) {
        List<Doc> docs = new ArrayList<>();
        StringBuilder yaml = new StringBuilder();
        for (int i = 0; i < PER_MANIFEST; i++) {
          Doc d = doc(r, "w" + (done + i));
          docs.add(d);
          yaml.append(d.yaml).append("\n---\n");
        }
        Manifests m = Workloads.read(yaml.toString());
        for (int i = 0; i < docs.size(); i++) {
          Doc d = docs.get(i);
          String prefix = "w.yaml doc " + (i + 1) + ": " + d.object + ": ";
          List<String> errors = m.errors().stream().filter(e -> e.startsWith(prefix)).toList();
          String name = d.object.substring(d.object.lastIndexOf('/') + 1);
          long pods = m.pods().stream().filter(p -> owned(p, name)).count();
          String at = "seed " + SEED + " doc " + (done + i) + ":\n" + d.yaml + "\nerrors " + errors;
          if (d.pods == null) {
            assertEquals(1, errors.size(), at);
            assertTrue(errors.get(0).matches(".*(replicas|parallelism|completions): .*") && errors.get(0).length() < 400,
                at);
            assertEquals(0, pods, at);
            refused++;
          } else {
            assertEquals(List.of(), errors, at);
            assertEquals((long) d.pods, pods, at);
            expanded++;
          }
        }
        assertEquals(m.errors().size(), docs.stream().filter(d -> d.pods == null).count(), m.errors().toString());
      }
      System.out.println("fuzz cases: WorkloadCountFuzzTest " + COUNT + " (counts)");
      assertTrue(refused > COUNT / 5 && expanded > COUNT / 5, "refused " + refused + ", expanded " + expanded);
    });
  }

  private static boolean owned(io.kubernetes.client.openapi.models.V1Pod p, String name) {
    return p.getMetadata().getOwnerReferences() != null && p.getMetadata().getOwnerReferences().stream()
        .anyMatch(o -> o.getName().equals(name) || o.getName().startsWith(name + "-"));
  }

  private static Count count(Random r) {
    return r.nextInt(4) == 0 ? new Count(BAD.get(r.nextInt(BAD.size())), null)
        : small(r);
  }

  /** {@code c} where a 32-bit count is allowed whatever its size (a bound on pods does not apply). */
  private static Count asCount(Count c) {
    return List.of("100001", "1000000000").contains(c.text) ? new Count(c.text, Integer.parseInt(c.text)) : c;
  }

  private static Count small(Random r) {
    int v = r.nextInt(4);
    return new Count(Integer.toString(v), v);
  }

  /** Two or three counts each allowed alone (at most 100,000) that together pass the bound. */
  private static Count big(Random r) {
    int v = 50_001 + r.nextInt(50_000);
    return new Count(Integer.toString(v), v);
  }

  private static Doc doc(Random r, String name) {
    boolean tooMany = r.nextInt(10) == 0;
    return switch (r.nextInt(5)) {
      case 0 -> {
        Count p = tooMany ? new Count("1e9", null) : count(r);
        Count c = asCount(count(r)); // completions counts completions, not pods: any 32-bit count will do
        Integer pods = p.value == null || c.value == null ? null : Math.min(p.value, c.value);
        yield new Doc("{apiVersion: batch/v1, kind: Job, metadata: {name: " + name + "}, spec: {parallelism: "
            + p.text + ", completions: " + c.text + ", " + TEMPLATE + "}}", pods, "Job default/" + name);
      }
      case 1 -> {
        Count n = tooMany ? new Count("400", 400) : count(r);
        Count p = tooMany ? new Count("400", 400) : count(r);
        Integer pods = n.value == null || p.value == null ? null : n.value * p.value;
        if (n.value != null && n.value == 0 && List.of("100001", "1000000000").contains(p.text)) {
          pods = 0; // a Job's parallelism is a 32-bit count; no Job is made of it, so no pod
        }
        if (tooMany) {
          pods = null;
        }
        yield new Doc("{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, metadata: {name: " + name
            + "}, spec: {replicatedJobs: [{name: x, replicas: " + n.text + ", template: {spec: {parallelism: "
            + p.text + ", completions: " + p.text + ", " + TEMPLATE + "}}}]}}", pods, "JobSet default/" + name);
      }
      case 2 -> {
        List<Count> tasks = new ArrayList<>();
        for (int t = 1 + r.nextInt(3); t > 0; t--) {
          tasks.add(tooMany ? big(r) : count(r));
        }
        if (tooMany && tasks.size() == 1) {
          tasks.add(big(r));
        }
        StringBuilder y = new StringBuilder("{apiVersion: batch.volcano.sh/v1alpha1, kind: Job, metadata: {name: "
            + name + ", namespace: ml}, spec: {tasks: [");
        Integer pods = 0;
        for (int t = 0; t < tasks.size(); t++) {
          y.append(t == 0 ? "" : ", ").append("{name: t").append(t).append(", replicas: ").append(tasks.get(t).text)
              .append(", ").append(TEMPLATE).append('}');
          pods = pods == null || tasks.get(t).value == null ? null : pods + tasks.get(t).value;
        }
        if (tooMany || pods != null && pods == 0) {
          pods = pods != null && pods == 0 ? 0 : null;
        }
        yield new Doc(y + "]}}", pods, "Job ml/" + name);
      }
      default -> {
        boolean mpi = r.nextBoolean();
        Count lead = tooMany ? big(r) : count(r);
        Count workers = tooMany ? big(r) : count(r);
        String kind = mpi ? "MPIJob" : "PyTorchJob";
        String specs = mpi ? "mpiReplicaSpecs" : "pytorchReplicaSpecs";
        String leadType = mpi ? "Launcher" : "Master";
        Integer pods = tooMany || lead.value == null || workers.value == null ? null
            : (mpi ? Math.min(lead.value, 1) : lead.value) + workers.value;
        yield new Doc("{apiVersion: kubeflow.org/v1, kind: " + kind + ", metadata: {name: " + name
            + ", namespace: ml}, spec: {" + specs + ": {" + leadType + ": {replicas: " + lead.text + ", " + TEMPLATE
            + "}, Worker: {replicas: " + workers.text + ", " + TEMPLATE + "}}}}", pods, kind + " ml/" + name);
      }
    };
  }
}
