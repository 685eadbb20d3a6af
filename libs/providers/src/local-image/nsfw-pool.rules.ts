/** What a worker found after asking tfjs for its backend. */
export interface BackendReport {
  backend: string;
  simd: boolean;
}

/** Why the backend is unfit, or null. The pure-JS cpu backend and wasm without SIMD are
 * 5-20× slower: a pool on them would answer, but far too slowly, so it refuses to start. */
export function backendProblem(report: BackendReport): string | null {
  if (report.backend !== 'wasm') {
    return `tfjs runs on the "${report.backend}" backend, not "wasm": image classification would be ~20× slower; refusing to start`;
  }
  if (!report.simd) {
    return 'tfjs wasm backend has no SIMD support in this runtime: image classification would be several times slower; refusing to start';
  }
  return null;
}
