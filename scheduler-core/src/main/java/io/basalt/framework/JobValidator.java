package io.basalt.framework;

import io.basalt.api.JobInfo;

/** Job valid: returns null when the job may be scheduled, else why not. */
@FunctionalInterface
public interface JobValidator {
  String invalidReason(JobInfo job);
}
