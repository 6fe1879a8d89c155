interface Pending<I, O> {
  subject: string;
  input: I;
  resolve: (o: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Requests that arrive within a millisecond or two share one statement: `run` gets distinct subjects of one
 * group (one statement may change a row only once, so a subject's second request waits for the next statement)
 * and answers each. Under load a request costs a fraction of a round trip; alone it waits `maxWaitMs`.
 */
export class StatementBatcher<I, O> {
  private pending: Pending<I, O>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly run: (group: { subject: string; input: I }[]) => Promise<Map<string, O>>,
    private readonly groupOf: (input: I) => string = () => "",
    private readonly maxWaitMs = 1,
  ) {}

  submit(subject: string, input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.pending.push({ subject, input, resolve, reject });
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.running = this.running.then(() => this.flush());
      }, this.maxWaitMs);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const groups = new Map<string, Pending<I, O>[]>();
    const seen = new Set<string>();
    for (const p of batch) {
      const key = `${this.groupOf(p.input)}\u0000${p.subject}`;
      if (seen.has(key)) {
        this.pending.push(p);
        continue;
      }
      seen.add(key);
      const g = this.groupOf(p.input);
      groups.set(g, [...(groups.get(g) ?? []), p]);
    }
    for (const group of groups.values()) {
      try {
        const answers = await this.run(group.map((p) => ({ subject: p.subject, input: p.input })));
        for (const p of group) p.resolve(answers.get(p.subject) as O);
      } catch (err) {
        for (const p of group) p.reject(err);
      }
    }
    if (this.pending.length > 0) this.running = this.running.then(() => this.flush());
  }
}
