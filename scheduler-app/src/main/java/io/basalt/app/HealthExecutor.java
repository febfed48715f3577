package io.basalt.app;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the health server's exchanges on a few threads with deadlines, so one client that opens a connection, sends
 * half a request and stalls cannot hold up the liveness probe (which would restart a healthy leader).
 *
 * <p>The JDK server reads a request's line and headers on the thread it hands the exchange to, in a blocking
 * {@code SocketChannel} read. Interrupting that thread closes the channel, so a deadline here is a read timeout: an
 * exchange whose request has not fully arrived after {@code requestTimeout}, or that has not finished after
 * {@code exchangeTimeout}, is interrupted and its connection closed. When every thread is busy and the queue is
 * full, {@link #execute} refuses the exchange and the JDK server closes that connection (JDK-8169358). The system
 * properties {@code sun.net.httpserver.maxReqTime} would do the first part too, but for every server in the JVM and
 * only if set before the first one starts.
 */
final class HealthExecutor implements Executor, AutoCloseable {
  static final int THREADS = 4;
  static final int QUEUE = 32;

  /** The exchange running on this thread, so its handler can say the request has arrived. */
  private static final ThreadLocal<Deadline> CURRENT = new ThreadLocal<>();

  private final Duration requestTimeout;
  private final Duration exchangeTimeout;
  private final ThreadPoolExecutor pool;
  private final ScheduledThreadPoolExecutor watchdog;

  HealthExecutor(Duration requestTimeout, Duration exchangeTimeout) {
    this.requestTimeout = requestTimeout;
    this.exchangeTimeout = exchangeTimeout;
    this.pool = new ThreadPoolExecutor(THREADS, THREADS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
        daemons("basalt-health-"), new ThreadPoolExecutor.AbortPolicy());
    this.watchdog = new ScheduledThreadPoolExecutor(1, daemons("basalt-health-deadline-"));
    watchdog.setRemoveOnCancelPolicy(true); // most exchanges finish long before their deadlines
  }

  /** Queues the exchange; throws {@link java.util.concurrent.RejectedExecutionException} when full. */
  @Override
  public void execute(Runnable exchange) {
    pool.execute(new Deadline(exchange));
  }

  /** Called by a handler: the request line and headers are in, only the response-time deadline applies now. */
  static void requestArrived() {
    Deadline d = CURRENT.get();
    if (d != null) {
      d.arrived();
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
    watchdog.shutdownNow();
  }

  /** One exchange on its thread, interrupted when it outlives its deadline. */
  private final class Deadline implements Runnable {
    private final Runnable exchange;
    private Thread thread;
    private boolean arrived;
    private boolean done;

    Deadline(Runnable exchange) {
      this.exchange = exchange;
    }

    @Override
    public void run() {
      // The deadline starts when a thread takes the exchange: one still queued is not reading, and cancelling it
      // before it runs would leave its connection open for good.
      synchronized (this) {
        thread = Thread.currentThread();
      }
      ScheduledFuture<?> first = watchdog.schedule(this::check, requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
      ScheduledFuture<?> last = watchdog.schedule(this::stop, exchangeTimeout.toNanos(), TimeUnit.NANOSECONDS);
      CURRENT.set(this);
      try {
        exchange.run();
      } finally {
        CURRENT.remove();
        synchronized (this) {
          done = true;
        }
        first.cancel(false);
        last.cancel(false);
        Thread.interrupted(); // an interrupt that raced the end of the exchange must not reach the next one
      }
    }

    synchronized void arrived() {
      arrived = true;
    }

    private synchronized void check() {
      if (!arrived) {
        stop();
      }
    }

    private synchronized void stop() {
      if (!done) {
        thread.interrupt();
      }
    }
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
