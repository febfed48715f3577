package io.basalt.kube.fake;

/**
 * A stand-in for one of the cluster's controllers in tests: {@link #once} every 50 ms on its own daemon thread until
 * closed, a round that meets a concurrent writer's conflict simply looked at again on the next.
 */
abstract class PollingController implements AutoCloseable {
  private final Thread thread;
  private volatile boolean closed;

  PollingController(String threadName) {
    this.thread = new Thread(this::loop, threadName);
    this.thread.setDaemon(true);
  }

  /** One round over the objects the controller watches. */
  public abstract void once();

  final void startPolling() {
    thread.start();
  }

  private void loop() {
    while (!closed) {
      try {
        once();
        Thread.sleep(50);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        // a conflict with a concurrent writer: look again on the next round
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    thread.interrupt();
    thread.join(5_000);
  }
}
