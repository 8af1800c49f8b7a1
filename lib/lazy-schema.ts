/**
 * @module schemas built on first use. Building a valibot schema runs code (each one computes its
 * messages and its Standard Schema interface); at module load, the hook process's schemas cost ~0.5 ms
 * of its spawn-to-answer budget, though most hooks parse only one or two of them.
 */

/** A getter that builds the schema on its first call and returns the same one after. */
export function lazySchema<S>(build: () => S): () => S {
  let schema: S | undefined;
  return () => (schema ??= build());
}
