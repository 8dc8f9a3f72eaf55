/**
 * `--data FILE` (the `data` option): one's own sources, jobs, signals and
 * collections, added to the generated seed (`--sources 0` generates none, so
 * the file's are then the only ones). The shape and rules are in README
 * ("Your own data"). Every record is checked against its contract schema and
 * its references; the first problem is a DataFileError naming the file and the
 * record (`jobs[3].url_job: Invalid URL`).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod/v4';
import { collectionSchema, jobSchema, signalSchema, sourceSchema, type Source } from '../../../contract/schemas';
import { ALL_TYPES, placeText, searchText } from './generate.mts';
import type { Dataset, StoredCollection } from './model.mts';

export class DataFileError extends Error {}

/** The collection that tracks the file's sources for the demo account when the file names no collections. */
export const DATA_FILE_COLLECTION_ID = 'col_data_file';

const fileSchema = z
	.object({
		// The count is the mock's to compute (the jobs it holds), so a file may leave it out.
		sources: z.array(sourceSchema.extend({ count_jobboard_jobs: sourceSchema.shape.count_jobboard_jobs.optional() }).strict()).default([]),
		jobs: z.array(jobSchema.strict()).default([]),
		signals: z.array(signalSchema.strict()).default([]),
		collections: z
			.array(collectionSchema.omit({ count_sources: true }).extend({ account_id: z.string().min(1), source_ids: z.array(z.string().min(1)) }).strict())
			.optional(),
	})
	.strict();

/** The file's contents, as the in-process `data` option takes them. */
export type DataFileContent = z.input<typeof fileSchema>;

/** Ids of this form are the mock's own (the seed's and every later cycle's), so a file's record could collide with one. */
const GENERATED_IDS = { jobs: /^job_\d+$/, signals: /^sig_\d+$/ } as const;

/** A path or the contents themselves; the contents' name in errors is "the data option". */
export type DataInput = string | DataFileContent;

/**
 * The seed with the data added, and a fingerprint of the data (a state folder
 * keeps changes per data set). Throws DataFileError.
 */
export async function addData(seed: Dataset, input: DataInput): Promise<{ dataset: Dataset; fingerprint: string }> {
	const name = typeof input === 'string' ? input : 'the data option';
	const text = typeof input === 'string' ? await readText(input) : JSON.stringify(input);
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		throw new DataFileError(`${name}: not JSON: ${(error as Error).message}`);
	}
	const parsed = fileSchema.safeParse(json);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new DataFileError(`${name}: ${recordPath(issue.path) || 'the file'}: ${issue.message}${issue.path.length === 0 ? ' (expected {"sources", "jobs", "signals", "collections"?})' : ''}`);
	}
	const fail = (where: string, message: string): never => {
		throw new DataFileError(`${name}: ${where}: ${message}`);
	};
	const file = parsed.data;
	const sources = new Map(seed.sources.map((s) => [s.source_id, s]));
	const domains = new Set(seed.sources.map((s) => s.url_source));
	const added: Source[] = file.sources.map((s, i) => {
		if (sources.has(s.source_id)) fail(`sources[${i}].source_id`, `duplicate id "${s.source_id}"`);
		if (domains.has(s.url_source)) fail(`sources[${i}].url_source`, `duplicate domain "${s.url_source}"`);
		const source = { ...s, count_jobboard_jobs: 0 };
		sources.set(source.source_id, source);
		domains.add(source.url_source);
		return source;
	});
	const checkSource = (where: string, record: { source_id: string; url_source: string }) => {
		const source = sources.get(record.source_id) ?? fail(`${where}.source_id`, `no source with id "${record.source_id}"`);
		if (source.url_source !== record.url_source) fail(`${where}.url_source`, `"${record.url_source}" is not the domain of source "${source.source_id}" ("${source.url_source}")`);
	};
	const jobIds = new Set(seed.jobs.map((j) => j.job.job_id));
	file.jobs.forEach((job, i) => {
		if (GENERATED_IDS.jobs.test(job.job_id)) fail(`jobs[${i}].job_id`, `"${job.job_id}" has the form of the mock's own job ids (job_ and digits): choose another`);
		if (jobIds.has(job.job_id)) fail(`jobs[${i}].job_id`, `duplicate id "${job.job_id}"`);
		if (job.deleted_at !== undefined) fail(`jobs[${i}].deleted_at`, 'a loaded job is live: leave deleted_at out');
		checkSource(`jobs[${i}]`, job);
		jobIds.add(job.job_id);
	});
	const signalIds = new Set(seed.signals.map((s) => s.signal_id));
	file.signals.forEach((signal, i) => {
		if (GENERATED_IDS.signals.test(signal.signal_id)) fail(`signals[${i}].signal_id`, `"${signal.signal_id}" has the form of the mock's own signal ids (sig_ and digits): choose another`);
		if (signalIds.has(signal.signal_id)) fail(`signals[${i}].signal_id`, `duplicate id "${signal.signal_id}"`);
		const { group, category, type } = signal.info;
		if (!ALL_TYPES.some((t) => t.group === group && t.category === category && t.type === type)) {
			fail(`signals[${i}].info`, `${group}/${category}/${type} is not a place in the signal hierarchy`);
		}
		checkSource(`signals[${i}]`, signal);
		signalIds.add(signal.signal_id);
	});
	const collections = file.collections ?? (added.length === 0 ? [] : [{
		collection_id: DATA_FILE_COLLECTION_ID,
		account_id: seed.accounts[0].account_id,
		name: 'Sources from the data file',
		description: 'Every source the --data file holds.',
		created_at: Math.min(...added.map((s) => s.created_at)),
		source_ids: added.map((s) => s.source_id),
	}]);
	const collectionIds = new Set(seed.collections.map((c) => c.collection_id));
	const tracked: StoredCollection[] = collections.map((c, i) => {
		if (collectionIds.has(c.collection_id)) fail(`collections[${i}].collection_id`, `duplicate id "${c.collection_id}"`);
		if (!seed.accounts.some((a) => a.account_id === c.account_id)) {
			fail(`collections[${i}].account_id`, `no account with id "${c.account_id}" (the accounts: ${seed.accounts.map((a) => a.account_id).join(', ')})`);
		}
		c.source_ids.forEach((id, j) => sources.has(id) || fail(`collections[${i}].source_ids[${j}]`, `no source with id "${id}"`));
		collectionIds.add(c.collection_id);
		return { ...c, source_ids: [...new Set(c.source_ids)], count_sources: new Set(c.source_ids).size };
	});
	const jobs = [...seed.jobs, ...file.jobs.map((job) => ({ job, text: searchText(job), places: placeText(job) }))];
	// The job counts follow the jobs the mock holds, as the seed's do.
	for (const job of file.jobs) sources.get(job.source_id)!.count_jobboard_jobs++;
	return {
		dataset: { ...seed, sources: [...seed.sources, ...added], jobs, signals: [...seed.signals, ...file.signals], collections: [...seed.collections, ...tracked] },
		fingerprint: createHash('sha256').update(text).digest('hex').slice(0, 16),
	};
}

async function readText(path: string): Promise<string> {
	try {
		return await readFile(path, 'utf8');
	} catch (error) {
		throw new DataFileError(`${path}: cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
	}
}

/** `jobs[3].url_job` from zod's ['jobs', 3, 'url_job']. */
function recordPath(path: readonly PropertyKey[]): string {
	return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}
