/** The drift report (drift.mts) written as JSON where `--drift-report` says, by `record` and `check-drift` alike. */
import { writeFile } from 'node:fs/promises';
import type { DriftReport } from './drift.mts';
import type { Messages } from './messages.mts';

/** Writes `drift`'s summary to `path` when one is given; false, once `messages` has said why, when it cannot. */
export async function writeDriftReport(path: string | undefined, drift: DriftReport, messages: Messages): Promise<boolean> {
	if (path === undefined) return true;
	try {
		await writeFile(path, `${JSON.stringify(drift.summary(), null, 2)}\n`);
		return true;
	} catch (error) {
		messages.say(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
		return false;
	}
}
