package io.basalt.plugins.archfixture;

/** Breaks the clock rule on purpose (a score that depends on when it is asked), for ArchitectureTest's own test. */
public final class PluginReadingTheClock {
  public long score() {
    return System.nanoTime() % 100;
  }
}
