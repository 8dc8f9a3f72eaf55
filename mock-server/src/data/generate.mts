/**
 * The seeded generator: same sizes and seed, same data. Timestamps hang off a
 * fixed epoch (not the clock) so two runs with one seed are byte-identical.
 */
import { type Job, JOB_CATEGORIES, MAX_CATEGORIES_PER_JOB, type Signal, SIGNAL_CATEGORIES, type Source } from '../base/contract.mts';
import type { Account, Dataset, DataSizes, StoredCollection, StoredJob, Subscriber } from './model.mts';
import { Random } from './random.mts';
import { signalValues } from './signal-values.mts';
import {
	EVIDENCE, INDUSTRIES, JOB_TAGS, NAME_PREFIXES, NAME_SUFFIXES, PLACES, SENIORITIES, SKILLS,
	TITLES_BY_CATEGORY, TLDS,
} from './vocabulary.mts';

/**
 * A template literal as one flat string: `flat\`${a} ${b}\``. V8 keeps an untagged template (and `a + b`)
 * as a tree of its parts, 32 bytes a node, and reading a character does not collapse the tree; `join`
 * copies the parts into one string. A heap snapshot of 100,000 generated jobs held 873,000 such nodes
 * (28 MB, more than the texts themselves) before the kept texts were built this way.
 */
function flat(strings: TemplateStringsArray, ...values: (string | number)[]): string {
	const parts: string[] = [strings[0]];
	for (let i = 0; i < values.length; i++) parts.push(String(values[i]), strings[i + 1]);
	return parts.join('');
}

/** 2026-09-21: the generated data is "as of" this moment. */
export const SEED_EPOCH = 1_790_000_000;
const DAY = 86_400;
const HISTORY_DAYS = 180;

export const SECOND_ACCOUNT_TOKEN = 'second-token-job-signals';
export const VOLUME_ACCOUNT_TOKEN = 'volume-token-job-signals';

/** Every signal type with its group and category: the hierarchy's leaves. */
export const ALL_TYPES = SIGNAL_CATEGORIES.flatMap((c) => c.types.map((type) => ({ group: c.group, category: c.id, type })));
const TITLED_CATEGORIES = Object.keys(TITLES_BY_CATEGORY);

/**
 * One copy of each text many records repeat (a place, a title, an evidence phrase, a day): a
 * million records otherwise hold a million equal strings. Bounded: past the bound a text is not shared.
 */
const shared = new Map<string, string>();
const MAX_SHARED = 10_000;
function share(text: string): string {
	const known = shared.get(text);
	if (known !== undefined) return known;
	if (shared.size < MAX_SHARED) shared.set(text, text);
	return text;
}

/**
 * One copy of each list many jobs repeat (their categories, their tags; a few thousand different ones),
 * frozen because jobs share it: two arrays per job were ~150 bytes of its ~750. Bounded like `share`.
 */
const sharedLists = new Map<string, readonly string[]>();
function shareList<T extends string>(list: T[]): T[] {
	const key = list.join('\n');
	const known = sharedLists.get(key);
	if (known !== undefined) return known as T[];
	if (sharedLists.size < MAX_SHARED) sharedLists.set(key, Object.freeze(list));
	return list;
}

export function generateDataset(sizes: DataSizes): Dataset {
	const random = new Random(sizes.seed);
	const accounts = makeAccounts(sizes.token);
	const sources = Array.from({ length: sizes.sources }, (_, i) => makeSource(random, i));
	const jobs: StoredJob[] = [];
	const jobsBySource = new Map<string, JobRef[]>();
	for (let i = 0; i < sizes.jobs && sources.length > 0; i++) {
		// Squaring skews the pick: a few large boards and a long tail of small ones.
		const source = sources[Math.floor(random.next() ** 2 * sources.length)];
		const stored = makeJob(random, i + 1, source, SEED_EPOCH - random.int(0, HISTORY_DAYS * DAY));
		jobs.push(stored);
		const list = jobsBySource.get(source.source_id) ?? [];
		list.push(jobRef(stored.job));
		jobsBySource.set(source.source_id, list);
	}
	for (const source of sources) source.count_jobboard_jobs = jobsBySource.get(source.source_id)?.length ?? 0;
	const signals = Array.from({ length: sources.length > 0 ? sizes.signals : 0 }, (_, i) => {
		const source = random.pick(sources);
		return makeSignal(random, i + 1, source, jobsBySource.get(source.source_id) ?? [], SEED_EPOCH - random.int(0, HISTORY_DAYS * DAY));
	});
	return {
		accounts,
		sources,
		collections: makeCollections(accounts, sources),
		jobs,
		signals,
		subscribers: makeSubscribers(accounts),
	};
}

/** The mock's fixed accounts' ids (the tokens play no part in them): a clone of any other account would not load. */
export const ACCOUNT_IDS: readonly string[] = makeAccounts('').map((account) => account.account_id);

function makeAccounts(demoToken: string): Account[] {
	return [
		{ account_id: 'acc_demo', organization_id: 'org_demo', name: 'Demo account', token: demoToken, job_tags: ['remote', 'full-time'], job_board: true, filters: { regions: [] } },
		{ account_id: 'acc_second', organization_id: 'org_second', name: 'Second account', token: SECOND_ACCOUNT_TOKEN, job_tags: ['remote', 'hybrid', 'contract'], job_board: true, filters: { regions: [] } },
		// A high-volume enterprise plan without an attached job board, filtered to two regions.
		{ account_id: 'acc_volume', organization_id: 'org_volume', name: 'High-volume account', token: VOLUME_ACCOUNT_TOKEN, job_tags: ['remote', 'onsite'], job_board: false, filters: { regions: ['Europe', 'North America'] } },
	];
}

export function sourceId(index: number): string {
	return `src_${String(index + 1).padStart(6, '0')}`;
}

function makeSource(random: Random, index: number): Source {
	const combos = NAME_PREFIXES.length * NAME_SUFFIXES.length;
	const prefix = NAME_PREFIXES[index % NAME_PREFIXES.length];
	const suffix = NAME_SUFFIXES[Math.floor(index / NAME_PREFIXES.length) % NAME_SUFFIXES.length];
	const round = Math.floor(index / combos);
	const name = round === 0 ? `${prefix} ${suffix}` : `${prefix} ${suffix} ${round + 1}`;
	const domain = `${prefix}${suffix}${round === 0 ? '' : round + 1}`.toLowerCase() + `.${random.pick(TLDS)}`;
	const place = random.pick(PLACES);
	const industries = random.sample(INDUSTRIES, random.int(1, 2));
	const created = SEED_EPOCH - random.int(HISTORY_DAYS, 3 * HISTORY_DAYS) * DAY;
	return {
		source_id: sourceId(index),
		url_source: domain,
		name,
		description: `${name} builds ${industries.join(' and ')} products for customers worldwide.`,
		location: `${place.city}, ${place.country}`,
		url_logo: `https://logo.example.com/${domain}.png`,
		industry_tags: industries,
		count_jobboard_jobs: 0,
		count_jobbard_jobs_success_at: SEED_EPOCH - random.int(0, DAY),
		created_at: created,
		updated_at: created + random.int(0, HISTORY_DAYS) * DAY,
	};
}

export function jobId(serial: number): string {
	return `job_${String(serial).padStart(7, '0')}`;
}

/** Lower-cased text search matches: title, description, tags and categories. */
export function searchText(job: Job): string {
	return `${job.job_title}\n${job.description}\n${job.job_tags.join(' ')}\n${job.categories.join(' ')}`.toLowerCase();
}

export function placeText(job: Job): string {
	return share(`${job.location}, ${job.region}`.toLowerCase());
}

/**
 * "a" or "an" by the sound of the title's first word: a vowel letter, except words said with a "you" sound (UX);
 * the titles are the vocabulary's, so the rule only has to fit them (test/data.test.mts reads every one).
 */
export function withArticle(title: string): string {
	return `${/^[AEIOU]/i.test(title) && !/^U[XS]/i.test(title) ? 'an' : 'a'} ${title}`;
}

export function makeJob(random: Random, serial: number, source: Source, createdAt: number): StoredJob {
	const main = random.pick(TITLED_CATEGORIES);
	const others = random.sample(
		JOB_CATEGORIES.filter((c) => c !== main),
		random.int(0, MAX_CATEGORIES_PER_JOB - 1),
	);
	const title = share(flat`${random.chance(0.5) ? `${random.pick(SENIORITIES)} ` : ''}${random.pick(TITLES_BY_CATEGORY[main])}`);
	const place = random.pick(PLACES);
	const skills = random.sample(SKILLS, random.int(1, 3));
	const tags = random.sample(JOB_TAGS, random.int(1, 3));
	const id = jobId(serial);
	const job: Job = {
		job_id: id,
		job_title: title,
		url_job: flat`https://careers.${source.url_source}/jobs/${id}`,
		description: flat`${source.name} is hiring ${withArticle(title)} in ${place.city}. You will work with ${skills.join(', ')}.`,
		location: share(flat`${place.city}, ${place.country}`),
		region: place.region,
		// concat, not a spread: an array built by a spread keeps room for 17.
		categories: shareList([main as Job['categories'][number]].concat(others)),
		job_tags: shareList(tags),
		source_id: source.source_id,
		url_source: source.url_source,
		source_name: source.name,
		created_at: createdAt,
		updated_at: createdAt + (random.chance(0.2) ? random.int(1, 10 * DAY) : 0),
	};
	return { job, text: searchText(job), places: placeText(job) };
}

export function signalId(serial: number): string {
	return `sig_${String(serial).padStart(7, '0')}`;
}

export type SignalPlace = (typeof ALL_TYPES)[number];

/** A job as a signal's jobs_list names it. */
export type JobRef = Signal['jobs_list'][number];

/** A job's entry in jobs_list. Generation makes one per job, shared by the signals that name it (never changed). */
export function jobRef(job: Job): JobRef {
	return { created_at: job.created_at, job_id: job.job_id, job_title: job.job_title, url_job: job.url_job };
}

/** One `info` per place in the hierarchy, shared by the signals there (never changed). */
const INFO = new Map(ALL_TYPES.map((t) => [t.type, { group: t.group, category: t.category, type: t.type }]));

/**
 * `chosen` fixes the signal's place in the hierarchy (an event asked for by type); otherwise it is picked.
 * `given` fixes current_value/previous_value (a change the caller made, such as a domain move).
 */
export function makeSignal(
	random: Random, serial: number, source: Source, sourceJobs: readonly JobRef[], createdAt: number,
	chosen?: SignalPlace, given?: { current: string; previous: string },
): Signal {
	// The first signals walk the hierarchy so every type exists even in a tiny data set.
	const where = chosen ?? (serial <= ALL_TYPES.length ? ALL_TYPES[serial - 1] : random.pick(ALL_TYPES));
	const jobs = random.sample(sourceJobs, Math.min(sourceJobs.length, random.int(1, 3)));
	const phrases = EVIDENCE[where.type] ?? [`signs of ${where.type.replace(/-/g, ' ')}`];
	const values = given ?? signalValues(random, where.group, where.type, source);
	const start = createdAt - random.int(1, 60) * DAY;
	return {
		signal_id: signalId(serial),
		created_at: createdAt,
		date: share(new Date(createdAt * 1000).toISOString().slice(0, 10)),
		info: INFO.get(where.type) ?? { group: where.group, category: where.category, type: where.type },
		evidence_list: random.sample(phrases, random.int(1, phrases.length)).map((p) => share(flat`"...${p}..."`)),
		jobs_list: jobs,
		signal_match: random.int(1, 3) as 1 | 2 | 3,
		signal_severity: random.int(1, 3) as 1 | 2 | 3,
		signal_classification: random.chance(0.7) ? 'direct' : 'inferred',
		signal_recency: random.chance(0.7) ? 'active' : 'inactive',
		signal_start_at: start,
		signal_recent_at: createdAt,
		current_value: values.current,
		previous_value: values.previous,
		source_id: source.source_id,
		source_name: source.name,
		source_description: source.description,
		url_source: source.url_source,
	};
}

/**
 * Demo account: one collection per industry, together covering every source.
 * Second account: every fourth source, split into two collections.
 * High-volume account: nine sources in ten, split into two collections.
 */
function makeCollections(accounts: Account[], sources: Source[]): StoredCollection[] {
	const [demo, second, volume] = accounts;
	const collections: StoredCollection[] = INDUSTRIES.map((industry, i) => ({
		collection_id: `col_demo_${i + 1}`,
		account_id: demo.account_id,
		name: `${industry[0].toUpperCase()}${industry.slice(1)} companies`,
		description: `Companies whose main industry is ${industry}.`,
		source_ids: sources.filter((s) => s.industry_tags[0] === industry).map((s) => s.source_id),
		count_sources: 0,
		created_at: SEED_EPOCH - (INDUSTRIES.length - i) * DAY,
	}));
	const subset = sources.filter((_, i) => i % 4 === 1).map((s) => s.source_id);
	collections.push(
		{ collection_id: 'col_second_1', account_id: second.account_id, name: 'Watchlist A', description: 'Half of the second account\'s watchlist.', source_ids: subset.filter((_, i) => i % 2 === 0), count_sources: 0, created_at: SEED_EPOCH - 2 * DAY },
		{ collection_id: 'col_second_2', account_id: second.account_id, name: 'Watchlist B', description: 'The other half.', source_ids: subset.filter((_, i) => i % 2 === 1), count_sources: 0, created_at: SEED_EPOCH - DAY },
	);
	const pipeline = sources.filter((_, i) => i % 10 !== 9).map((s) => s.source_id);
	collections.push(
		{ collection_id: 'col_volume_1', account_id: volume.account_id, name: 'Pipeline A', description: 'Half of the high-volume pipeline.', source_ids: pipeline.filter((_, i) => i % 2 === 0), count_sources: 0, created_at: SEED_EPOCH - 3 * DAY },
		{ collection_id: 'col_volume_2', account_id: volume.account_id, name: 'Pipeline B', description: 'The other half.', source_ids: pipeline.filter((_, i) => i % 2 === 1), count_sources: 0, created_at: SEED_EPOCH - 3 * DAY },
	);
	for (const c of collections) c.count_sources = c.source_ids.length;
	return collections;
}

function makeSubscribers(accounts: Account[]): Subscriber[] {
	return accounts.flatMap((account) =>
		['alice', 'bob'].map((name) => ({
			account_id: account.account_id,
			email: `${name}@${account.account_id.replace('acc_', '')}.example.com`,
			tags: [...account.job_tags],
			created_at: SEED_EPOCH,
		})),
	);
}
