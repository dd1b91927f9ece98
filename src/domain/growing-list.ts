/**
 * An immutable list that only grows at its end, appended to in what the appended values
 * cost. The versions made from one another share one array and each sees its first `length`
 * values: appending to the newest version pushes onto the shared array, past the end every
 * other version sees; appending to an older one (a second branch from it) copies its part
 * first. So what any version holds never changes under a reader, and no version ever sees
 * another's values.
 */
export class GrowingList<T> {
  private constructor(
    private readonly shared: T[],
    readonly length: number,
  ) {}

  static empty<T>(): GrowingList<T> {
    return new GrowingList<T>([], 0);
  }

  at(index: number): T | undefined {
    return index >= 0 && index < this.length ? this.shared[index] : undefined;
  }

  /** A new list with these values at the end; this one is unchanged. */
  concat(values: readonly T[]): GrowingList<T> {
    if (values.length === 0) return this;
    // an empty list starts an array of its own: an empty value shared by every aggregate
    // (an initial state) would otherwise keep the first one's values alive for good
    const shared =
      this.length > 0 && this.shared.length === this.length ? this.shared : this.shared.slice(0, this.length);
    for (const value of values) shared.push(value);
    return new GrowingList(shared, this.length + values.length);
  }

  *[Symbol.iterator](): Generator<T> {
    for (let i = 0; i < this.length; i++) yield this.shared[i]!;
  }
}
