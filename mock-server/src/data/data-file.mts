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
import { collectionSchema, jobSchema, signalSchema, sourceSchema, type Source } from '../base/contract.mts';
import { ALL_TYPES, placeText, searchText } from './generate.mts';
import { DOMAIN_CHANGE_TYPE, type Dataset, type StoredCollection } from './model.mts';

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
		// A count the file gives is kept (a cloned account's board may hold jobs its filters hide); else the mock counts.
		const source = { ...s, count_jobboard_jobs: s.count_jobboard_jobs ?? 0 };
		sources.set(source.source_id, source);
		domains.add(source.url_source);
		return source;
	});
	// A signal made before its source moved keeps the old domain (as the mock's own do): a domain the file's
	// domain-url-change signals say the source left is its domain too, for signals.
	const formerDomains = new Set(file.signals.filter((s) => s.info.type === DOMAIN_CHANGE_TYPE && s.previous_value !== '').map((s) => `${s.source_id} ${s.previous_value}`));
	const checkSource = (where: string, record: { source_id: string; url_source: string }, formerAllowed = false) => {
		const source = sources.get(record.source_id) ?? fail(`${where}.source_id`, `no source with id "${record.source_id}"`);
		if (source.url_source === record.url_source || (formerAllowed && formerDomains.has(`${source.source_id} ${record.url_source}`))) return;
		fail(`${where}.url_source`, `"${record.url_source}" is not the domain of source "${source.source_id}" ("${source.url_source}")`);
	};
	const jobIds = new Set(seed.jobs.map((j) => j.job.job_id));
	file.jobs.forEach((job, i) => {
		if (jobIds.has(job.job_id)) fail(`jobs[${i}].job_id`, `duplicate id "${job.job_id}"`);
		if (job.deleted_at !== undefined) fail(`jobs[${i}].deleted_at`, 'a loaded job is live: leave deleted_at out');
		checkSource(`jobs[${i}]`, job);
		jobIds.add(job.job_id);
	});
	const signalIds = new Set(seed.signals.map((s) => s.signal_id));
	file.signals.forEach((signal, i) => {
		if (signalIds.has(signal.signal_id)) fail(`signals[${i}].signal_id`, `duplicate id "${signal.signal_id}"`);
		const { group, category, type } = signal.info;
		if (!ALL_TYPES.some((t) => t.group === group && t.category === category && t.type === type)) {
			fail(`signals[${i}].info`, `${group}/${category}/${type} is not a place in the signal hierarchy`);
		}
		checkSource(`signals[${i}]`, signal, true);
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
	// With no sources (--sources 0) the seed's collections are empty: the file's are then the only ones.
	const seedCollections = seed.sources.length === 0 ? [] : seed.collections;
	const collectionIds = new Set(seedCollections.map((c) => c.collection_id));
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
	// The job counts follow the jobs the mock holds, as the seed's do (unless the file gave the count).
	const given = new Set(file.sources.filter((s) => s.count_jobboard_jobs !== undefined).map((s) => s.source_id));
	for (const job of file.jobs) if (!given.has(job.source_id)) sources.get(job.source_id)!.count_jobboard_jobs++;
	return {
		dataset: { ...seed, sources: [...seed.sources, ...added], jobs, signals: [...seed.signals, ...file.signals], collections: [...seedCollections, ...tracked] },
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
