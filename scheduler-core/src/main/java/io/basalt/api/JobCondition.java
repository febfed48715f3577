package io.basalt.api;

/** A PodGroup condition as Volcano writes it: type Scheduled or Unschedulable, reason, message. */
public record JobCondition(String type, String status, String reason, String message) {}
