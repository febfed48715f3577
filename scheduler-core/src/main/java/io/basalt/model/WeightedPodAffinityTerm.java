package io.basalt.model;

/** A preferred pod (anti-)affinity term and its weight (1-100). */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {}
