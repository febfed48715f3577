package io.basalt.model;

/**
 * A container port bound on the node ({@code hostPort} set): two pods conflict on a node when protocol and port
 * are equal and their host IPs are equal or either is the wildcard {@code 0.0.0.0}.
 *
 * @param protocol TCP (the default), UDP or SCTP
 * @param hostIp the address bound, {@code 0.0.0.0} when unset
 */
public record HostPort(String protocol, String hostIp, int port) {
  public static final String ANY_IP = "0.0.0.0";

  public HostPort {
    protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
    hostIp = hostIp == null || hostIp.isEmpty() ? ANY_IP : hostIp;
  }

  public boolean conflictsWith(HostPort other) {
    return port == other.port && protocol.equals(other.protocol)
        && (hostIp.equals(other.hostIp) || ANY_IP.equals(hostIp) || ANY_IP.equals(other.hostIp));
  }
}
