// What a list method answers (stripe-node's pattern): awaiting it gives the first page, and `for await`
// walks every item of every page, asking for the next one with `starting_after` the last id seen.

export type ListPage<Item> = { object: 'list'; data: Item[]; has_more: boolean };

export class ListPromise<Item> implements PromiseLike<ListPage<Item>>, AsyncIterable<Item> {
  private first?: Promise<ListPage<Item>>;

  constructor(
    private readonly fetchPage: (startingAfter: string | undefined) => Promise<ListPage<Item>>,
    private readonly startingAfter: string | undefined,
  ) {}

  /** the first page, asked for once however often it is awaited */
  private firstPage(): Promise<ListPage<Item>> {
    this.first ??= this.fetchPage(this.startingAfter);
    return this.first;
  }

  then<Result = ListPage<Item>, Failure = never>(
    onFulfilled?: ((page: ListPage<Item>) => Result | PromiseLike<Result>) | null,
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<Result | Failure> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  catch<Failure = never>(
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<ListPage<Item> | Failure> {
    return this.firstPage().catch(onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page = await this.firstPage();
    for (;;) {
      yield* page.data;
      const last = idOf(page.data.at(-1));
      if (!page.has_more || last === undefined) return;
      page = await this.fetchPage(last);
    }
  }

  /** Every item of every page, up to `limit` (10 000 unless given) so that a runaway list cannot exhaust memory. */
  async toArray(options: { limit?: number } = {}): Promise<Item[]> {
    const limit = options.limit ?? 10_000;
    const items: Item[] = [];
    for await (const item of this) {
      if (items.length >= limit) break;
      items.push(item);
    }
    return items;
  }
}

function idOf(item: unknown): string | undefined {
  return typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'string' ? item.id : undefined;
}
