// A bounded, short-lived in-process cache of sessions by id, so a signed-in request need not query PostgreSQL.
// It is only as fresh as its invalidations: session-notices.ts feeds it every change from any process
// (LISTEN/NOTIFY) and disables it while those cannot be heard.

export interface CacheEntry {
  userId: string;
  /** Unix ms; the entry is never served past it, whatever its age. */
  expiresAt: number;
}

export class SessionCache<T extends CacheEntry> {
  /** In Map order, least recently used first: a hit moves its entry to the end. */
  private readonly entries = new Map<string, { value: T; storedAt: number }>();
  private readonly byUser = new Map<string, Set<string>>();
  private epoch = 0;
  private on = false;

  constructor(private readonly options: { ttlMs: number; maxEntries: number; now?: () => number }) {}

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  /**
   * Read before the query whose answer is stored with set(): an invalidation between the two (the answer may
   * predate it) changes it, and the answer is then not stored.
   */
  get generation(): number {
    return this.epoch;
  }

  get size(): number {
    return this.entries.size;
  }

  get enabled(): boolean {
    return this.on;
  }

  get(id: string): T | undefined {
    if (!this.on) return undefined;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const now = this.now();
    if (now - entry.storedAt >= this.options.ttlMs || now >= entry.value.expiresAt) {
      this.remove(id);
      return undefined;
    }
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value;
  }

  /** Stores the answer of a query started at `generation`; false when it is not stored (disabled, or stale). */
  set(id: string, value: T, generation: number): boolean {
    if (!this.on || generation !== this.epoch || this.options.ttlMs <= 0 || this.options.maxEntries <= 0) return false;
    this.remove(id);
    this.entries.set(id, { value, storedAt: this.now() });
    let ids = this.byUser.get(value.userId);
    if (!ids) this.byUser.set(value.userId, (ids = new Set()));
    ids.add(id);
    while (this.entries.size > this.options.maxEntries) this.remove(this.entries.keys().next().value!);
    return true;
  }

  /** The session ended (signed out, revoked). */
  deleteSession(id: string): void {
    this.epoch++;
    this.remove(id);
  }

  /** Something of the user changed (role, key, free calls) or they are gone: all their sessions are re-read. */
  deleteUser(userId: string): void {
    this.epoch++;
    for (const id of this.byUser.get(userId) ?? []) this.entries.delete(id);
    this.byUser.delete(userId);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.byUser.clear();
  }

  /** Serve and store entries from now on (invalidations can be heard). */
  enable(): void {
    this.clear();
    this.on = true;
  }

  /** Invalidations may be missed: forget everything and store nothing until enabled again. */
  disable(): void {
    this.on = false;
    this.clear();
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    const ids = this.byUser.get(entry.value.userId);
    ids?.delete(id);
    if (ids?.size === 0) this.byUser.delete(entry.value.userId);
  }
}
