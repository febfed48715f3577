package io.basalt.app;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The health port's HTTP/1.1: one thread reads every connection's request without blocking, answers it and closes
 * the connection. A client that connects and sends half a request (a port scanner, a broken scraper, a flood) costs a
 * few kilobytes and a slot until its deadline, never a thread, so a liveness probe arriving in a flood is read and
 * answered at once. Each connection has {@link #requestTimeout} for its request line and headers and
 * {@link #exchangeTimeout} in all; at most {@link #MAX_OPEN} are open, and a new one beyond that closes the oldest
 * still sending its request, so newcomers (the probes) always get in.
 *
 * <p>Handlers run on that one thread: they must be quick (a flag read, a metrics page rendered from memory).
 */
final class HealthPort implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(HealthPort.class.getName());

  /** Connections open at once; probes and a scraper need a handful. */
  static final int MAX_OPEN = 256;
  /** Request line and headers, at most; kubelet's and Prometheus' are a few hundred bytes. */
  static final int MAX_HEAD = 8 * 1024;

  /** A request as far as the health port reads one: no body, no keep-alive. */
  record Request(String method, String path, InetAddress remote) {}

  record Response(int status, String contentType, byte[] body) {
    static Response text(int status, String body) {
      return new Response(status, "text/plain; charset=utf-8", (body + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  interface Handler {
    /** The answer to {@code request}; null for a path this port does not serve (404). */
    Response handle(Request request) throws IOException;
  }

  private final Handler handler;
  private final long requestTimeout;
  private final long exchangeTimeout;
  private final ServerSocketChannel server;
  private final Selector selector;
  /** Open connections in the order they were accepted. */
  private final Map<SocketChannel, Conn> open = new LinkedHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  HealthPort(InetSocketAddress address, Duration requestTimeout, Duration exchangeTimeout, Handler handler)
      throws IOException {
    this.handler = handler;
    this.requestTimeout = requestTimeout.toNanos();
    this.exchangeTimeout = exchangeTimeout.toNanos();
    this.selector = Selector.open();
    this.server = ServerSocketChannel.open();
    try {
      server.bind(address, MAX_OPEN);
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException e) {
      server.close();
      selector.close();
      throw e;
    }
    thread = new Thread(this::loop, "basalt-health");
    thread.setDaemon(true);
    thread.start();
  }

  int port() {
    return server.socket().getLocalPort();
  }

  /** One connection: its request as read so far, then its answer as written so far. */
  private static final class Conn {
    final SocketChannel channel;
    final long accepted;
    final ByteBuffer head = ByteBuffer.allocate(MAX_HEAD);
    ByteBuffer answer;

    Conn(SocketChannel channel, long accepted) {
      this.channel = channel;
      this.accepted = accepted;
    }
  }

  private void loop() {
    while (!closed) {
      try {
        selector.select(50);
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (!key.isValid()) {
            continue;
          }
          if (key.isAcceptable()) {
            accept();
          } else {
            Conn c = (Conn) key.attachment();
            try {
              if (key.isReadable()) {
                read(c, key);
              } else if (key.isWritable()) {
                write(c);
              }
            } catch (IOException e) {
              drop(c); // reset by the peer and the like: nothing to answer
            }
          }
        }
        expire(System.nanoTime());
      } catch (IOException | RuntimeException e) {
        if (!closed) {
          LOG.log(System.Logger.Level.WARNING, "health port: " + e);
        }
      }
    }
  }

  private void accept() throws IOException {
    SocketChannel ch;
    while ((ch = server.accept()) != null) {
      if (open.size() >= MAX_OPEN) {
        drop(oldestReading());
      }
      ch.configureBlocking(false);
      Conn c = new Conn(ch, System.nanoTime());
      ch.register(selector, SelectionKey.OP_READ, c);
      open.put(ch, c);
    }
  }

  /** The oldest connection still sending its request, else the oldest of all. */
  private Conn oldestReading() {
    Conn first = null;
    for (Conn c : open.values()) {
      if (c.answer == null) {
        return c;
      }
      if (first == null) {
        first = c;
      }
    }
    return first;
  }

  private void read(Conn c, SelectionKey key) throws IOException {
    int from = c.head.position();
    if (c.channel.read(c.head) < 0) {
      drop(c);
      return;
    }
    int end = headEnd(c.head, Math.max(0, from - 3));
    if (end < 0) {
      if (!c.head.hasRemaining()) {
        answer(c, key, Response.text(431, "request header fields too large"), false);
      }
      return;
    }
    String head = new String(c.head.array(), 0, end, StandardCharsets.ISO_8859_1);
    String[] line = head.substring(0, Math.max(0, head.indexOf('\n'))).trim().split(" ");
    if (line.length != 3 || !line[2].startsWith("HTTP/1.")) {
      answer(c, key, Response.text(400, "bad request"), false);
      return;
    }
    String method = line[0];
    if (!method.equals("GET") && !method.equals("HEAD")) {
      answer(c, key, Response.text(405, "method not allowed"), false);
      return;
    }
    int query = line[1].indexOf('?');
    String path = query < 0 ? line[1] : line[1].substring(0, query);
    InetAddress remote = ((InetSocketAddress) c.channel.getRemoteAddress()).getAddress();
    Response r;
    try {
      r = handler.handle(new Request(method, path, remote));
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "health port: " + path + ": " + e);
      r = Response.text(500, "internal error");
    }
    answer(c, key, r == null ? Response.text(404, "not found") : r, method.equals("HEAD"));
  }

  /** Where the empty line ending the head is (exclusive), or -1 while it has not arrived. */
  private static int headEnd(ByteBuffer head, int from) {
    byte[] b = head.array();
    for (int i = from; i < head.position(); i++) {
      if (b[i] == '\n' && ((i + 1 < head.position() && b[i + 1] == '\n')
          || (i + 2 < head.position() && b[i + 1] == '\r' && b[i + 2] == '\n'))) {
        return i + 1;
      }
    }
    return -1;
  }

  private void answer(Conn c, SelectionKey key, Response r, boolean headOnly) throws IOException {
    String status = "HTTP/1.1 " + r.status() + " " + reason(r.status()) + "\r\nContent-Type: " + r.contentType()
        + "\r\nContent-Length: " + r.body().length + "\r\nConnection: close\r\n\r\n";
    byte[] top = status.getBytes(StandardCharsets.ISO_8859_1);
    ByteBuffer out = ByteBuffer.allocate(top.length + (headOnly ? 0 : r.body().length));
    out.put(top);
    if (!headOnly) {
      out.put(r.body());
    }
    c.answer = out.flip();
    key.interestOps(SelectionKey.OP_WRITE);
    write(c);
  }

  private void write(Conn c) throws IOException {
    c.channel.write(c.answer);
    if (!c.answer.hasRemaining()) {
      drop(c);
    }
  }

  /** Closes connections past their deadline: the request's until it has arrived, then the exchange's. */
  private void expire(long now) {
    List<Conn> late = new ArrayList<>();
    for (Conn c : open.values()) {
      long limit = c.answer == null ? requestTimeout : exchangeTimeout;
      if (now - c.accepted >= limit) {
        late.add(c);
      }
    }
    late.forEach(this::drop);
  }

  private void drop(Conn c) {
    if (c == null) {
      return;
    }
    open.remove(c.channel);
    try {
      c.channel.close();
    } catch (IOException e) {
      // closing is all that is left to do
    }
  }

  private static String reason(int status) {
    switch (status) {
      case 200: return "OK";
      case 400: return "Bad Request";
      case 404: return "Not Found";
      case 405: return "Method Not Allowed";
      case 431: return "Request Header Fields Too Large";
      case 500: return "Internal Server Error";
      case 503: return "Service Unavailable";
      default: return "Status";
    }
  }

  @Override
  public void close() {
    closed = true;
    selector.wakeup();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Conn c : new ArrayList<>(open.values())) {
      drop(c);
    }
    try {
      server.close();
      selector.close();
    } catch (IOException e) {
      // the port is released either way
    }
  }
}
