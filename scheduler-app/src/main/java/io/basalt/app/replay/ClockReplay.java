package io.basalt.app.replay;

import io.basalt.app.replay.OpenbTrace.TracePod;
import io.basalt.scheduler.SchedulerProfile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The trace on a simulated clock: each pod arrives at its {@code creation_time}, runs for as long as it ran in
 * production (deletion minus scheduled time) from the moment Basalt binds it, and then leaves; a pod still pending at
 * its trace {@code deletion_time} is withdrawn, as its owner deleted it then. Time moves in steps of {@code period}
 * seconds (the scheduling period); a step in which pods arrived or left while some wait runs one cycle. Waits are
 * counted from arrival to the step that bound the pod.
 */
final class ClockReplay {
  private enum Kind { DEPART, WITHDRAW }

  private record Event(long time, Kind kind, String uid) {}

  private ClockReplay() {}

  static ReplayResult run(OpenbTrace trace, SchedulerProfile profile, String config, long period,
      Progress progress) {
    if (period <= 0) {
      throw new IllegalArgumentException("period must be positive, got " + period);
    }
    long start = System.nanoTime();
    ReplayRun run = new ReplayRun(trace, profile);
    List<TracePod> pods = new ArrayList<>(trace.pods());
    pods.sort(Comparator.comparingLong(TracePod::creation));
    long first = pods.isEmpty() ? 0 : pods.get(0).creation();
    long last = pods.stream().mapToLong(TracePod::deletion).max().orElse(first);
    long sampleEvery = Math.max(period, (last - first) / 400);
    PriorityQueue<Event> events = new PriorityQueue<>(Comparator.comparingLong(Event::time));
    Set<String> pending = new HashSet<>();
    List<Long> waits = new ArrayList<>();
    long present = 0;
    int running = 0;
    int next = 0;
    long nextSample = first;
    while (next < pods.size() || !events.isEmpty()) {
      long due = Math.min(next < pods.size() ? pods.get(next).creation() : Long.MAX_VALUE,
          events.isEmpty() ? Long.MAX_VALUE : events.peek().time());
      long now = Math.floorDiv(due + period - 1, period) * period;
      boolean changed = false;
      while (!events.isEmpty() && events.peek().time() <= now) {
        Event e = events.poll();
        if (e.kind() == Kind.DEPART) {
          running--;
        } else if (!pending.remove(e.uid())) {
          continue;
        }
        present -= run.pod(e.uid()).gpuMilliTotal();
        run.remove(e.uid());
        changed = true;
      }
      for (; next < pods.size() && pods.get(next).creation() <= now; next++) {
        TracePod p = pods.get(next);
        run.submit(p.name(), p, p.creation());
        pending.add(p.name());
        present += p.gpuMilliTotal();
        events.add(new Event(Math.max(p.deletion(), p.creation() + 1), Kind.WITHDRAW, p.name()));
        changed = true;
      }
      if (changed && !pending.isEmpty()) {
        for (String uid : run.cycle()) {
          TracePod p = run.pod(uid);
          pending.remove(uid);
          running++;
          waits.add(now - p.creation());
          events.add(new Event(now + Math.max(1, p.runtime()), Kind.DEPART, uid));
        }
      }
      if (now >= nextSample) {
        run.sample(now, present, pending.size(), running);
        nextSample = now + sampleEvery;
      }
      progress.update(next, pods.size());
    }
    progress.done();
    long[] sorted = waits.stream().mapToLong(Long::longValue).sorted().toArray();
    return run.result("clock", config, 0, pods.size(), sorted, (System.nanoTime() - start) / 1e9);
  }
}
