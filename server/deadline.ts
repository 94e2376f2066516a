// Bounding a wait: the promise's outcome, or a timeout's, whichever comes first, and the timer never outlives it.

/** The promise's outcome, or a rejection with onTimeout()'s error when it has not settled within `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class Late extends Error {}

/** The promise's value, or null when it has not settled within `ms` (its own failure still rejects). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  try {
    return await withDeadline(promise, ms, () => new Late());
  } catch (error) {
    if (error instanceof Late) return null;
    throw error;
  }
}
