package io.basalt.archfixture.pong;

import io.basalt.archfixture.ping.Ping;

/** The other half of the package cycle made on purpose, for ArchitectureTest's own test. */
public final class Pong {
  public Ping ping() {
    return new Ping();
  }
}
