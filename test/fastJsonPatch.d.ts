// The tests import fast-json-patch by its ES module file: its package also ships its TypeScript
// source beside index.js, which tsx would otherwise load instead (and fail on).
declare module 'fast-json-patch/index.mjs' {
  export * from 'fast-json-patch';
}
