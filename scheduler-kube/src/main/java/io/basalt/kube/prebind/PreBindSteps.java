package io.basalt.kube.prebind;

import io.basalt.session.SessionResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pre-bind steps of one binder, in order, and what they did for one binding: {@link #annotate} and
 * {@link #preBind} run them in order, {@link #unreserve} undoes the ones that wrote, last first. One {@link Run} per
 * binding; a step that asks to wait is asked again on the next attempt, the ones done before it are not.
 */
public final class PreBindSteps {
  private final List<PreBindStep> steps;

  public PreBindSteps(List<PreBindStep> steps) {
    this.steps = List.copyOf(steps);
  }

  /** {@code first}, then these steps (the volume binding step runs before the device protocols' locks). */
  public PreBindSteps after(PreBindStep first) {
    List<PreBindStep> all = new ArrayList<>();
    all.add(first);
    all.addAll(steps);
    return new PreBindSteps(all);
  }

  /** Tells each step the bindings of one bind call before any of them runs ({@link PreBindStep#batch}). */
  public void batch(List<SessionResult.Binding> bindings, java.util.Set<String> sent) {
    for (PreBindStep s : steps) {
      s.batch(bindings, sent);
    }
  }

  /** A new run of the steps for {@code binding}. */
  public Run start(SessionResult.Binding binding) {
    return new Run(binding);
  }

  /** The steps for one binding. Not thread-safe: a binding's attempts run one at a time. */
  public final class Run {
    private final SessionResult.Binding binding;
    private final List<PreBindStep> done = new ArrayList<>();
    private int next;

    private Run(SessionResult.Binding binding) {
      this.binding = binding;
    }

    /** The binding's annotations with each step's added. */
    public Map<String, String> annotate(Instant now) {
      Map<String, String> a = binding.annotations();
      for (PreBindStep s : steps) {
        a = s.annotate(binding, a, now);
      }
      return a;
    }

    /**
     * Runs the steps not done yet, in order, stopping at the first that does not finish: DONE when all are,
     * otherwise that step's result (the steps before it stay done until {@link #unreserve}).
     */
    public PreBindStep.Result preBind(Map<String, String> annotations, ApiObjects api) {
      for (; next < steps.size(); next++) {
        PreBindStep s = steps.get(next);
        if (!s.writesBefore(binding, annotations)) {
          continue;
        }
        PreBindStep.Result r = s.preBind(binding, api);
        if (r.state() != PreBindStep.State.DONE) {
          return r;
        }
        done.add(s);
      }
      return PreBindStep.Result.DONE;
    }

    /** Undoes what the steps wrote, last first; the steps whose undo failed, as their class names. */
    public List<String> unreserve(ApiObjects api) {
      List<String> failed = new ArrayList<>();
      for (int i = done.size() - 1; i >= 0; i--) {
        if (!done.get(i).unreserve(binding, api)) {
          failed.add(done.get(i).getClass().getSimpleName());
        }
      }
      done.clear();
      next = 0;
      return failed;
    }
  }
}
