package io.basalt.archfixture.ping;

import io.basalt.archfixture.pong.Pong;

/** One half of a package cycle made on purpose, for ArchitectureTest's own test. */
public final class Ping {
  public Pong pong() {
    return new Pong();
  }
}
