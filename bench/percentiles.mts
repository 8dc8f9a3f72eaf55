/** The benchmarks' one reading of a spread of timings: the nearest-rank percentile, so every p50 and p99 they report means the same. */

/** The value at or below which `p` % of `sorted` (ascending) lie: its ⌈p/100 · n⌉-th, one of the measured values. */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** The 50th percentile of `values`, in any order (for an even count, the lower of the two middle values). */
export const median = (values: readonly number[]): number => percentile([...values].sort((a, b) => a - b), 50);
