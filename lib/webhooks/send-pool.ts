// The worker's webhook sends in flight, bounded in all and per endpoint, so that one merchant's endpoint that
// answers slowly (or accepts the connection and never answers) holds a slot or two while every other
// endpoint's deliveries go out beside it. Nothing here waits: add() queues and starts what has room, and
// each finished send starts the next one waiting whose endpoint has room.

type Task = { endpointId: string; send: () => Promise<void> };
type Endpoint = { held: number; sending: number; limit: number };

export class SendPool {
  private readonly waiting: Task[] = [];
  private readonly endpoints = new Map<string, Endpoint>();
  private sending = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly maxSending: number) {}

  /** How many sends are queued or in flight. */
  get held(): number {
    return this.waiting.length + this.sending;
  }

  /** The endpoints with a send queued or in flight: their due deliveries are left for a later claim. */
  busyEndpoints(): string[] {
    return [...this.endpoints.keys()];
  }

  /** Queues sends to one endpoint, at most `perEndpoint` of its sends at a time (in the order given when 1). */
  add(endpointId: string, sends: (() => Promise<void>)[], perEndpoint: number): void {
    if (sends.length === 0) return;
    const endpoint = this.endpoints.get(endpointId) ?? { held: 0, sending: 0, limit: perEndpoint };
    endpoint.limit = Math.min(endpoint.limit, perEndpoint);
    endpoint.held += sends.length;
    this.endpoints.set(endpointId, endpoint);
    for (const send of sends) this.waiting.push({ endpointId, send });
    this.startWhatFits();
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    if (this.held === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private startWhatFits(): void {
    for (let index = 0; index < this.waiting.length && this.sending < this.maxSending;) {
      const task = this.waiting[index];
      const endpoint = this.endpoints.get(task.endpointId)!;
      if (endpoint.sending >= endpoint.limit) {
        index += 1;
        continue;
      }
      this.waiting.splice(index, 1);
      endpoint.sending += 1;
      this.sending += 1;
      void task
        .send()
        .catch(() => {})
        .finally(() => this.finished(task.endpointId, endpoint));
    }
  }

  private finished(endpointId: string, endpoint: Endpoint): void {
    endpoint.sending -= 1;
    endpoint.held -= 1;
    this.sending -= 1;
    if (endpoint.held === 0) this.endpoints.delete(endpointId);
    this.startWhatFits();
    if (this.held === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
