import { changeNotices, type ChangeSubscriber } from './change-notices';
import { runningDatabaseUrl } from './index';

// Rows every /v1 request reads (its API key, its merchant's settings) kept in this process's memory, and
// forgotten when a change notice names them (change-notices.ts). While notices may be missing (no
// listener yet, or it was lost) the cache answers nothing and stores nothing: every read goes to the
// database, as it did before there was a cache.

type Entry<V> = { value: V; targets: string[] };

export class NotifiedCache<V> implements ChangeSubscriber {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly keysByTarget = new Map<string, Set<string>>();
  /** Moves on every change: a load that saw it move may have read the row before the change, so is not kept. */
  private generation = 0;
  private notices?: ReturnType<typeof changeNotices>;

  constructor(private readonly maxEntries = 10_000) {}

  /**
   * The value under key, from memory when the cache is current, else from load (kept when the cache is
   * current and nothing changed meanwhile). targets are the change notices that make the value stale.
   */
  async read(key: string, load: () => Promise<V | undefined>, targets: (value: V) => string[]) {
    const current = this.listener().isCurrent();
    if (current) {
      const entry = this.entries.get(key);
      if (entry) return entry.value;
    }
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && current && generation === this.generation && this.listener().isCurrent())
      this.keep(key, value, targets(value));
    return value;
  }

  /** This process changed the row: its own next read must not wait for the notice. */
  forget(target: string): void {
    this.changed(target);
  }

  changed(target: string): void {
    this.generation += 1;
    if (target === '*') return this.reset();
    for (const key of this.keysByTarget.get(target) ?? []) this.remove(key);
  }

  reset(): void {
    this.generation += 1;
    this.entries.clear();
    this.keysByTarget.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private listener() {
    const notices = changeNotices(runningDatabaseUrl);
    if (notices !== this.notices) {
      this.reset();
      this.notices = notices;
      notices.subscribe(this);
    }
    return notices;
  }

  private keep(key: string, value: V, targets: string[]): void {
    this.remove(key);
    if (this.entries.size >= this.maxEntries) this.remove(this.entries.keys().next().value!);
    this.entries.set(key, { value, targets });
    for (const target of targets) {
      const keys = this.keysByTarget.get(target) ?? new Set<string>();
      keys.add(key);
      this.keysByTarget.set(target, keys);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const target of entry.targets) {
      const keys = this.keysByTarget.get(target);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTarget.delete(target);
    }
  }
}
