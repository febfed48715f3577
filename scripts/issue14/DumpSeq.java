package io.basalt.app.replay;
import java.nio.file.*;
import java.io.*;
import java.util.*;
/**
 * Writes the pod sequence the fgd replay protocol builds (FgdReplay.sequence) for one seed and percent, as CSV, for
 * gpu_bound.py and nofit_bound.py. Not part of the build; compile against the jar (package-private classes):
 *
 * <pre>
 * javac -cp scheduler-app/target/basalt.jar -d /tmp/dumpseq scripts/issue14/DumpSeq.java
 * java -cp scheduler-app/target/basalt.jar:/tmp/dumpseq io.basalt.app.replay.DumpSeq ../shared/traces/openb 42 100 seq_42_100.csv
 * </pre>
 */
public class DumpSeq {
  public static void main(String[] a) throws Exception {
    Path dir = Paths.get(a[0]);
    OpenbTrace t = OpenbTrace.read(dir.resolve(OpenbTrace.NODE_FILE), dir.resolve(OpenbTrace.POD_FILE));
    long cap = t.gpus() * 1000;
    long seed = Long.parseLong(a[1]); double pct = Double.parseDouble(a[2]);
    List<FgdReplay.Entry> s = FgdReplay.sequence(t, seed, pct, cap);
    try (PrintWriter w = new PrintWriter(new FileWriter(a[3]))) {
      w.println("uid,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec");
      for (FgdReplay.Entry e : s) { var p = e.pod();
        w.println(e.uid()+","+p.cpuMilli()+","+p.memoryMib()+","+p.numGpu()+","+p.gpuMilli()+","+p.gpuSpec()); }
    }
    System.out.println(seed+" "+pct+" "+s.size());
  }
}
