package io.basalt.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.model.PodGroup;
import io.basalt.model.ResourceNames;
import io.basalt.testing.TestPods;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The job's ready and valid counts, and its held sum, are kept as tasks change status; they must match a walk of the
 * tasks.
 */
class JobInfoCountsTest {
  private static int walkReady(JobInfo job) {
    int n = 0;
    for (TaskInfo t : job.tasks()) {
      n += t.status().isReady() ? 1 : 0;
    }
    return n;
  }

  private static int walkValid(JobInfo job) {
    int n = 0;
    for (TaskInfo t : job.tasks()) {
      n += t.status() == TaskStatus.FAILED || t.status() == TaskStatus.RELEASING ? 0 : 1;
    }
    return n;
  }

  private static long walkHeld(JobInfo job, int slot) {
    long n = 0;
    for (TaskInfo t : job.tasks()) {
      n += t.status().holdsResources() ? t.request().get(slot) : 0;
    }
    return n;
  }

  @Test
  void readyAndValidCountsFollowEveryStatusChange() {
    PodGroup pg = new PodGroup("ns", "pg", 3, Map.of(), "default", null, null, "Pending", Instant.EPOCH);
    JobInfo job = new JobInfo("ns/pg", pg, false, 0);
    TaskStatus[] all = TaskStatus.values();
    Random random = new Random(7);
    for (int i = 0; i < 8; i++) {
      job.addTask(new TaskInfo(TestPods.pod("ns/p" + i).cpu(String.valueOf(1 + i)).memory((1 + i) + "Gi").build(), 0,
          all[random.nextInt(all.length)]));
    }
    assertEquals(3, job.minMember());
    for (int step = 0; step < 500; step++) {
      TaskInfo t = job.tasks().get(random.nextInt(job.tasks().size()));
      t.place(all[random.nextInt(all.length)], "n1");
      assertEquals(walkReady(job), job.readyTaskNum(), "ready after step " + step);
      assertEquals(walkValid(job), job.validTaskNum(), "valid after step " + step);
      int sum = 0;
      for (TaskStatus s : all) {
        sum += job.count(s);
      }
      assertEquals(job.tasks().size(), sum);
      for (int slot = 0; slot < Math.max(ResourceNames.count(), job.heldSlots()); slot++) {
        assertEquals(walkHeld(job, slot), job.held(slot), "held slot " + slot + " after step " + step);
      }
    }
  }
}
