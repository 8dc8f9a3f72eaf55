/**
 * The walk as a `--data` file (data/data-file.mts reads it): the collections for one mock account
 * with the source ids the walk found in each, and the sources, jobs and signals as the API sent them
 * (counts included: a source's `count_jobboard_jobs` is kept). One record a line, so the file reads
 * and diffs well. Checked by the mock's own reader before it is written, and written under another
 * name then renamed, so FILE is either whole or absent.
 */
import { open, rename, rm } from 'node:fs/promises';
import type { Job, Signal } from '../../../contract/schemas';
import { addData, type DataFileContent } from '../data/data-file.mts';
import { generateDataset } from '../data/generate.mts';
import { DEFAULT_OPTIONS } from '../options.mts';
import { DOMAIN_CHANGE_TYPE } from '../data/store.mts';
import type { Walk } from './walk.mts';

/** Records written per write call. */
const BATCH = 1000;

export interface Clone {
	content: Required<DataFileContent>;
	/** Jobs and signals left out: their source was not (or no longer under that domain) in the collections when they were listed. */
	left: number;
}

export function cloneOf(walk: Walk, accountId: string): Clone {
	const { sources } = walk;
	const formerDomains = new Set(
		[...walk.signals.values()].filter((s) => s.info.type === DOMAIN_CHANGE_TYPE && s.previous_value !== '').map((s) => `${s.source_id} ${s.previous_value}`),
	);
	const jobs = [...walk.jobs.values()].filter((j: Job) => sources.get(j.source_id)?.url_source === j.url_source);
	const signals = [...walk.signals.values()].filter((s: Signal) => {
		const source = sources.get(s.source_id);
		return source !== undefined && (source.url_source === s.url_source || formerDomains.has(`${s.source_id} ${s.url_source}`));
	});
	return {
		content: {
			collections: walk.collections.map(({ collection: { collection_id, name, description, created_at }, source_ids }) => ({
				collection_id, account_id: accountId, name, description, created_at, source_ids,
			})),
			sources: [...sources.values()],
			jobs,
			signals,
		},
		left: walk.jobs.size - jobs.length + walk.signals.size - signals.length,
	};
}

/** The mock's reader's first objection to the clone (as `--data` would load it over `--sources 0`), or undefined. */
export async function loadProblem(clone: Clone): Promise<string | undefined> {
	const empty = generateDataset({ ...DEFAULT_OPTIONS, sources: 0 });
	return addData(empty, clone.content).then(
		() => undefined,
		(error: unknown) => (error as Error).message.replace(/^the data option: /, ''),
	);
}

export async function writeClone(path: string, clone: Clone): Promise<void> {
	const temporary = `${path}.${process.pid}.tmp`;
	const file = await open(temporary, 'w');
	try {
		const keys = Object.keys(clone.content) as (keyof Clone['content'])[];
		for (const [k, key] of keys.entries()) {
			const records: readonly object[] = clone.content[key];
			await file.write(`${k === 0 ? '{' : ','}\n"${key}": [${records.length === 0 ? '' : '\n'}`);
			for (let i = 0; i < records.length; i += BATCH) {
				const lines = records.slice(i, i + BATCH).map((r) => JSON.stringify(r));
				await file.write(`${i === 0 ? '' : ',\n'}${lines.join(',\n')}`);
			}
			await file.write(records.length === 0 ? ']' : '\n]');
		}
		await file.write('\n}\n');
		await file.sync();
	} catch (error) {
		await file.close();
		await rm(temporary, { force: true });
		throw error;
	}
	await file.close();
	await rename(temporary, path);
}
