package io.basalt.model;

/** A PriorityClass: the value pods and PodGroups naming it get; {@code preemptionPolicy} Never forbids evicting. */
public record PriorityClass(String name, int value, boolean globalDefault, String preemptionPolicy) {}
