/**
 * A schema built at its first use rather than when its module loads: `export const X =
 * lazySchema(() => z.strictObject({ … }))`. It is the same schema, as strict, once built; a process
 * a wake waits on (PRC-13) then pays only for the schemas it uses before it answers. Every
 * property, method and `instanceof` goes to the built schema, so callers and `z.infer<typeof X>`
 * are unchanged.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  // The target only stands in for the schema: what the proxy reports as its own (zod's `_zod` is
  // not configurable) is copied onto it first, as a proxy's invariants ask.
  const target = {} as T;
  return new Proxy(target, {
    get: (_t, key) => Reflect.get(real(), key),
    set: (_t, key, value) => Reflect.set(real(), key, value),
    has: (_t, key) => Reflect.has(real(), key),
    deleteProperty: (_t, key) => Reflect.deleteProperty(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    defineProperty: (_t, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    getOwnPropertyDescriptor: (t, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      if (descriptor && !descriptor.configurable && !Reflect.getOwnPropertyDescriptor(t, key)) {
        Reflect.defineProperty(t, key, descriptor);
      }
      return descriptor;
    },
  });
}
