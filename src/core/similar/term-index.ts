/**
 * An in-memory inverted index of one repository's issues over one space of terms (words, or character n-grams),
 * scored by TF-IDF cosine or BM25 (issue 32). Documents come and go (an issue edited, deleted); document
 * frequencies are the index's own (one repository's, never another's). Pure: no I/O.
 */

export interface Weighting {
  scheme: "tfidf" | "bm25";
  /** BM25's term-frequency saturation and length normalisation. */
  k1: number;
  b: number;
}

export const TFIDF: Weighting = { scheme: "tfidf", k1: 1.2, b: 0.75 };

interface Doc {
  key: number;
  terms: Int32Array;
  tfs: Float32Array;
  length: number;
}

interface Postings {
  slots: number[];
  /** Per posting: 1 + log tf (TF-IDF), or tf (BM25). */
  vals: number[];
}

/** A document's score against the query, in [0, 1] (1: the same terms in the same proportions). */
export interface Hit {
  key: number;
  score: number;
}

export class TermIndex {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly df: number[] = [];
  private readonly postings: Postings[] = [];
  private readonly docs: (Doc | undefined)[] = [];
  private readonly slotOf = new Map<number, number>();
  private totalLength = 0;
  private dead = 0;
  /** Per-slot factors under the current document frequencies (ensureNorms); recomputed after a change. */
  private norms: Float64Array | undefined;

  constructor(private readonly weighting: Weighting = TFIDF) {}

  get size(): number {
    return this.slotOf.size;
  }

  has(key: number): boolean {
    return this.slotOf.has(key);
  }

  keys(): number[] {
    return [...this.slotOf.keys()];
  }

  /** Add (or replace) a document's term counts. */
  set(key: number, counts: ReadonlyMap<string, number>): void {
    this.delete(key);
    const terms = new Int32Array(counts.size);
    const tfs = new Float32Array(counts.size);
    let i = 0;
    let length = 0;
    const slot = this.docs.length;
    for (const [term, tf] of counts) {
      let id = this.ids.get(term);
      if (id === undefined) {
        id = this.df.length;
        this.ids.set(term, id);
        this.names.push(term);
        this.df.push(0);
        this.postings.push({ slots: [], vals: [] });
      }
      this.df[id]!++;
      const p = this.postings[id]!;
      p.slots.push(slot);
      p.vals.push(this.weighting.scheme === "bm25" ? tf : 1 + Math.log(tf));
      terms[i] = id;
      tfs[i++] = tf;
      length += tf;
    }
    this.docs.push({ key, terms, tfs, length });
    this.slotOf.set(key, slot);
    this.totalLength += length;
    this.norms = undefined;
  }

  /** A document's term counts, as it was set (for querying with an indexed issue). */
  counts(key: number): Map<string, number> {
    const slot = this.slotOf.get(key);
    const doc = slot === undefined ? undefined : this.docs[slot];
    const out = new Map<string, number>();
    if (doc) for (let i = 0; i < doc.terms.length; i++) out.set(this.names[doc.terms[i]!]!, doc.tfs[i]!);
    return out;
  }

  delete(key: number): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    const doc = this.docs[slot]!;
    for (const id of doc.terms) this.df[id]!--;
    this.totalLength -= doc.length;
    this.docs[slot] = undefined;
    this.slotOf.delete(key);
    this.norms = undefined;
    // Postings keep the dead slot until a quarter of the slots are dead; then every list is compacted.
    if (++this.dead > 64 && this.dead * 4 > this.docs.length) this.compact();
  }

  private compact(): void {
    const renumber = new Int32Array(this.docs.length).fill(-1);
    const live: Doc[] = [];
    this.docs.forEach((d, slot) => {
      if (d) {
        renumber[slot] = live.length;
        live.push(d);
      }
    });
    for (const p of this.postings) {
      let j = 0;
      for (let i = 0; i < p.slots.length; i++) {
        const to = renumber[p.slots[i]!]!;
        if (to < 0) continue;
        p.slots[j] = to;
        p.vals[j++] = p.vals[i]!;
      }
      p.slots.length = j;
      p.vals.length = j;
    }
    this.docs.length = 0;
    this.docs.push(...live);
    this.slotOf.clear();
    live.forEach((d, slot) => this.slotOf.set(d.key, slot));
    this.dead = 0;
  }

  private idf(id: number): number {
    const n = this.slotOf.size;
    const df = this.df[id] ?? 0;
    return this.weighting.scheme === "bm25"
      ? Math.log(1 + (n - df + 0.5) / (df + 0.5))
      : Math.log((n + 1) / (df + 1)) + 1;
  }

  /**
   * Per slot, what a posting's value is scaled by: 1 / the document's cosine norm (TF-IDF), or BM25's
   * k1 × (1 − b + b × length / average length); 0 for a deleted document's slot.
   */
  private ensureNorms(): Float64Array {
    if (this.norms) return this.norms;
    const factors = new Float64Array(this.docs.length);
    const { k1, b } = this.weighting;
    const avgdl = this.totalLength / this.slotOf.size || 1;
    const idf = new Float64Array(this.df.length);
    for (let id = 0; id < idf.length; id++) idf[id] = this.idf(id);
    this.docs.forEach((d, slot) => {
      if (!d) return;
      if (this.weighting.scheme === "bm25") {
        factors[slot] = k1 * (1 - b + (b * d.length) / avgdl);
        return;
      }
      let s = 0;
      for (let i = 0; i < d.terms.length; i++) {
        const w = (1 + Math.log(d.tfs[i]!)) * idf[d.terms[i]!]!;
        s += w * w;
      }
      factors[slot] = s > 0 ? 1 / Math.sqrt(s) : 1;
    });
    return (this.norms = factors);
  }

  /** TF-IDF cosine of the query with each of some documents (0 for one not indexed): the re-ranker's few. */
  cosines(query: ReadonlyMap<string, number>, keys: readonly number[]): number[] {
    if (this.weighting.scheme !== "tfidf") throw new Error("cosines: a TF-IDF index only");
    const inverseNorms = this.ensureNorms();
    const weights = new Map<number, number>();
    let self = 0;
    for (const [term, qtf] of query) {
      const id = this.ids.get(term);
      const idf = this.idf(id ?? -1);
      const w = (1 + Math.log(qtf)) * idf;
      self += w * w;
      if (id !== undefined && this.df[id]! > 0) weights.set(id, w * idf);
    }
    return keys.map((key) => {
      const slot = this.slotOf.get(key);
      const doc = slot === undefined ? undefined : this.docs[slot];
      if (!doc || self === 0) return 0;
      let dot = 0;
      for (let i = 0; i < doc.terms.length; i++) {
        const wq = weights.get(doc.terms[i]!);
        if (wq !== undefined) dot += wq * (1 + Math.log(doc.tfs[i]!));
      }
      return Math.min(1, (dot * inverseNorms[slot!]!) / Math.sqrt(self));
    });
  }

  /**
   * How many of the query's terms a document shares that are rare here: in at most `share` of the documents
   * (and at most `atLeast` documents whatever the size), per document.
   */
  sharedRare(
    query: ReadonlyMap<string, number>,
    keys: readonly number[],
    share: number,
    atLeast: number,
  ): number[] {
    const maxDf = Math.max(atLeast, share * this.slotOf.size);
    const rare = new Set<number>();
    for (const term of query.keys()) {
      const id = this.ids.get(term);
      if (id !== undefined && this.df[id]! > 0 && this.df[id]! <= maxDf) rare.add(id);
    }
    return keys.map((key) => {
      const slot = this.slotOf.get(key);
      const doc = slot === undefined ? undefined : this.docs[slot];
      let n = 0;
      if (doc) for (const id of doc.terms) if (rare.has(id)) n++;
      return n;
    });
  }

  /** Slots are positions of documents; the same sequence of set and delete gives two indexes the same slots. */
  get slots(): number {
    return this.docs.length;
  }

  /** The key in a slot (undefined: a deleted document's). */
  keyAt(slot: number): number | undefined {
    return this.docs[slot]?.key;
  }

  /**
   * Adds `weight` times each document's score against the query to `into[slot]` (and each slot first touched to
   * `touched`): TF-IDF cosine in [0, 1], or BM25 divided by the query's own BM25 score (what a document holding
   * exactly the query's terms would get, near 1). One pass over the query's postings; no per-document map.
   */
  accumulate(
    query: ReadonlyMap<string, number>,
    into: Float64Array,
    weight: number,
    touched: number[],
  ): void {
    if (this.slotOf.size === 0 || query.size === 0 || weight === 0) return;
    const bm25 = this.weighting.scheme === "bm25";
    const { k1, b } = this.weighting;
    const avgdl = this.totalLength / this.slotOf.size || 1;
    const factor = this.ensureNorms();
    let qLength = 0;
    for (const tf of query.values()) qLength += tf;
    let self = 0;
    for (const [term, qtf] of query) {
      const idf = this.idf(this.ids.get(term) ?? -1);
      if (bm25) self += idf * qtf * ((qtf * (k1 + 1)) / (qtf + k1 * (1 - b + (b * qLength) / avgdl)));
      else self += ((1 + Math.log(qtf)) * idf) ** 2;
    }
    const qNorm = bm25 ? self : Math.sqrt(self);
    if (qNorm === 0) return;
    for (const [term, qtf] of query) {
      const id = this.ids.get(term);
      if (id === undefined || this.df[id] === 0) continue;
      const idf = this.idf(id);
      const p = this.postings[id]!;
      const c = (weight * (bm25 ? idf * qtf : (1 + Math.log(qtf)) * idf * idf)) / qNorm;
      const { slots, vals } = p;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        const f = factor[slot]!;
        if (f === 0) continue; // a deleted document's slot
        const v = vals[i]!;
        const add = bm25 ? (c * v * (k1 + 1)) / (v + f) : c * v * f;
        if (into[slot] === 0) touched.push(slot);
        into[slot]! += add;
      }
    }
  }
}
