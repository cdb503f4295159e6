// The library is browser-safe but feature-tests Node's Buffer (src/batch/wasm.ts, guarded by
// `typeof Buffer`); the explorer compiles without Node's types, so declare just that much.
declare const Buffer: { from(data: string, encoding: 'base64'): Uint8Array } | undefined;
