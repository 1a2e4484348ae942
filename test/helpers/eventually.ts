// Polls until an assertion passes (background work such as fact extraction), failing after a deadline.
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 5000, stepMs = 25): Promise<T> {
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
