/** Runs a task on an interval that never keeps the process alive by itself; returns the stop function. */
export function every(intervalMs: number, task: () => unknown, onError: (error: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    // A run that outlasts the interval is not overlapped by the next.
    if (running) return;
    running = true;
    Promise.resolve()
      .then(task)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
