/** What the benchmark reads from a `gc` performance entry. */
import { constants, type PerformanceEntry } from 'node:perf_hooks';

/** Whether the pause was a major (mark-compact) collection; node puts the kind in the entry's detail. */
export function isMajorGc(entry: PerformanceEntry): boolean {
	return (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}
