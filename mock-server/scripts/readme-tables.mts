/**
 * The reference tables of mock-server/README.md, written from the code that defines what they list: the CLI's
 * flags (src/cli-flags.mts), record's (src/clone/flags.mts), the control routes (the control API's OpenAPI
 * document, src/openapi/control-document.mts), and WireMock's admin routes, served (src/wiremock/served-routes.mts,
 * checked against the routes the admin router registers) and not served (src/wiremock/not-served-routes.mts).
 *
 * `readmeTables()` makes the blocks, `{"<block>": "<markdown>"}`; readme-tables.mjs prints them, and the
 * repository's scripts/mock-readme-doc.mts writes them into the README between their markers (`npm run generate`;
 * `--check` in `npm run typecheck`).
 */
import { FLAGS } from '../src/cli-flags.mts';
import { openApiControlDocument } from '../src/openapi/control-document.mts';
import { CHECK_DRIFT_FLAGS, CLONE_FLAGS } from '../src/clone/flags.mts';
import { DEFAULT_HOST, DEFAULT_PORT } from '../src/server.mts';
import { createMockService } from '../src/service.mts';
import { ADMIN_PREFIX } from '../src/wiremock/admin-routes.mts';
import { NOT_SERVED_ROUTES } from '../src/wiremock/not-served-routes.mts';
import { SERVED_ROUTES } from '../src/wiremock/served-routes.mts';
import type { UsageFlag } from '../src/base/usage-lines.mts';

/** A table cell: pipes escaped, so that a cell's text cannot end it. */
const cell = (text: string) => text.replace(/\|/g, '\\|');
/** Plain text of the code (--help's, an error message's) as Markdown shows it: no tag, emphasis or escape read into it. */
const plain = (text: string) => text.replace(/[\\*_`[\]]/g, '\\$&').replace(/</g, '&lt;');
const table = (header: string[], rows: string[][]) =>
	['', `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`), ''].join('\n');

const flagRows = (flags: readonly UsageFlag[]) =>
	flags.map((flag) => [`\`--${flag.name}${flag.value ? ` ${flag.value}` : ''}\``, flag.required ? 'required' : plain(flag.default ?? ''), plain(flag.meaning)]);

/** The control routes: every operation of the control document but WireMock's (those are in the admin tables). */
function controlRows(): string[][] {
	const { paths } = openApiControlDocument(`http://${DEFAULT_HOST}:${DEFAULT_PORT}`);
	return Object.entries(paths)
		.filter(([path]) => !path.startsWith(ADMIN_PREFIX))
		.flatMap(([path, operations]) => Object.entries(operations).map(([method, operation]) => [`\`${method.toUpperCase()} ${path}\``, (operation as { summary: string }).summary]));
}

/** The served admin routes, as SERVED_ROUTES describes them; it must name exactly the routes the admin router registers. */
async function servedRows(): Promise<string[][]> {
	const mock = await createMockService({ sources: 0, jobs: 0, signals: 0, rateLimit: 0 });
	try {
		const registered = mock.wiremock.routes
			.filter(({ info }) => typeof info.method === 'string' && typeof info.path === 'string' && !String(info.path).endsWith('*'))
			.map(({ info }) => `${String(info.method)} ${String(info.path).replace(/^\*/, '').replace(/:(\w+)/g, '{$1}')}`)
			.filter((route) => route.includes(` ${ADMIN_PREFIX}/`));
		const described = SERVED_ROUTES.map(({ method, path }) => `${method} ${ADMIN_PREFIX}${path}`);
		const missing = registered.filter((route) => !described.includes(route));
		const extra = described.filter((route) => !registered.includes(route));
		if (missing.length > 0 || extra.length > 0) {
			throw new Error(`src/wiremock/served-routes.mts does not match the admin routes: ${[...missing.map((r) => `no entry for ${r}`), ...extra.map((r) => `${r} is not served`)].join('; ')}`);
		}
	} finally {
		mock.close();
	}
	return SERVED_ROUTES.map(({ method, path, answers }) => [`\`${method} ${ADMIN_PREFIX}${path}\``, answers]);
}

/** The routes not served, one row per reason. */
function notServedRows(): string[][] {
	const byReason = new Map<string, string[]>();
	for (const { method, path, why } of NOT_SERVED_ROUTES) byReason.set(why, [...(byReason.get(why) ?? []), `\`${method} ${ADMIN_PREFIX}${path}\``]);
	return [...byReason].map(([why, routes]) => [routes.join(', '), plain(why)]);
}

/** The README's generated blocks by name. */
export async function readmeTables(): Promise<Record<string, string>> {
	return {
		'cli-flags': table(['flag', 'default', 'meaning'], flagRows(FLAGS)),
		'record-flags': table(['flag', 'default', 'meaning'], flagRows(CLONE_FLAGS)),
		'check-drift-flags': CLONE_FLAGS.filter(({ name }) => CHECK_DRIFT_FLAGS.includes(name)).map(({ name }) => `\`--${name}\``).join(', '),
		'control-routes': table(['method and path', 'does'], controlRows()),
		'admin-served': table(['served', 'answers'], await servedRows()),
		'admin-not-served': table(['not served', 'why'], notServedRows()),
	};
}
