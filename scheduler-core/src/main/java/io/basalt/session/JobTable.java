package io.basalt.session;

import io.basalt.api.JobInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The session's jobs by key, in the order they were first put (as a {@code LinkedHashMap<String, JobInfo>} keyed by
 * {@link JobInfo#key()} keeps them, a replaced job's successor taking its place). Built anew every cycle for tens of
 * thousands of jobs: an open-addressing table of positions in one list allocates two arrays, where a linked map
 * allocated an entry per job (a tenth of a backlog cycle's allocation) and walked a linked list on every pass.
 */
final class JobTable {
  private final List<JobInfo> order;
  private final List<JobInfo> view;
  /** Per slot, the position in {@link #order} plus one; 0 for an empty slot. */
  private int[] slots;
  /** Per slot, its job's mixed key hash: probing passes other keys without reading their jobs. */
  private int[] hashes;

  JobTable(int expected) {
    order = new ArrayList<>(expected);
    view = Collections.unmodifiableList(order);
    slots = new int[tableSize(expected)];
    hashes = new int[slots.length];
  }

  /**
   * A power of two above 5/4 of {@code entries}: at most four fifths full, so a backlog's 50,000 jobs take 65,536
   * slots, two arrays of 256 KiB (at three quarters one array was 512 KiB, a humongous object for G1 every cycle).
   */
  private static int tableSize(int entries) {
    int size = 16;
    while (size < (long) entries * 5 / 4 + 1) {
      size <<= 1;
    }
    return size;
  }

  JobInfo get(String key) {
    int h = spread(key.hashCode());
    int mask = slots.length - 1;
    for (int at = h & mask; slots[at] != 0; at = (at + 1) & mask) {
      if (hashes[at] == h) {
        JobInfo job = order.get(slots[at] - 1);
        if (job.key().equals(key)) {
          return job;
        }
      }
    }
    return null;
  }

  /** Puts {@code job} under its key; returns the job it replaced (which keeps its place in the order), or null. */
  JobInfo put(JobInfo job) {
    String key = job.key();
    int h = spread(key.hashCode());
    int mask = slots.length - 1;
    int at = h & mask;
    for (; slots[at] != 0; at = (at + 1) & mask) {
      if (hashes[at] == h) {
        JobInfo old = order.get(slots[at] - 1);
        if (old.key().equals(key)) {
          order.set(slots[at] - 1, job);
          return old;
        }
      }
    }
    order.add(job);
    slots[at] = order.size();
    hashes[at] = h;
    if ((long) order.size() * 5 > (long) slots.length * 4) {
      rehash();
    }
    return null;
  }

  /** The jobs in order, read-only (random access: indexed passes need no iterator). */
  List<JobInfo> values() {
    return view;
  }

  int size() {
    return order.size();
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    hashes = new int[slots.length];
    int mask = slots.length - 1;
    for (int i = 0; i < order.size(); i++) {
      int h = spread(order.get(i).key().hashCode());
      int at = h & mask;
      while (slots[at] != 0) {
        at = (at + 1) & mask;
      }
      slots[at] = i + 1;
      hashes[at] = h;
    }
  }

  /** Mixes the high bits in (keys such as "ns/pod-00017" differ mostly at the end). */
  private static int spread(int h) {
    h *= 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
