// Polls until an assertion passes (background work such as fact extraction), failing after a deadline. The deadline is
// generous because it only bounds a wait: on a loaded machine running two test files at a time, a worker thread's
// first job (loading its models) took over 5 s.
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 20_000, stepMs = 25): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}
