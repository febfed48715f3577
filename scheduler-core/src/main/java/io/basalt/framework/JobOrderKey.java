package io.basalt.framework;

import io.basalt.api.JobInfo;
import java.util.Comparator;
import java.util.function.ToDoubleFunction;

/**
 * A job order that is a number per job, lower first. Registered with {@link Registrar#addJobOrder} like any
 * comparator, but a sort of many jobs (enqueue's tens of thousands of pending jobs) takes each job's key once
 * before sorting instead of twice per comparison; the comparisons, and so the order, are the same.
 */
@FunctionalInterface
public interface JobOrderKey extends Comparator<JobInfo> {
  /**
   * The job's key now; must not change while a sort runs (nothing is placed during one), and may change only through
   * the job's own placements: allocate keeps the key of a job waiting its turn while other jobs are placed.
   */
  double key(JobInfo job);

  @Override
  default int compare(JobInfo a, JobInfo b) {
    return Double.compare(key(a), key(b));
  }

  /** Jobs with the lower {@code key} first. */
  static JobOrderKey ascending(ToDoubleFunction<JobInfo> key) {
    return key::applyAsDouble;
  }
}
