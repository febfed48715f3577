package io.basalt.model;

/** A preferred node affinity term and its weight (1-100): nodes matching {@code term} score {@code weight}. */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm term) {}
