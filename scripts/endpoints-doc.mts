/**
 * Writes the endpoint table of docs/api-assumptions.md ("Endpoints") from the contract's table
 * (contract/endpoints.ts), between the page's two `endpoints` markers: each row's summary, method
 * and path, and origin (what the spec shows, what the project assumed).
 *
 * `node scripts/endpoints-doc.mts` rewrites the table; `--check` exits 1 when the page differs
 * from the rows (npm test runs the check). It reads the contract through the mock's public entry,
 * so the mock must be built first (`npm run build -w mock-server`; `npm run generate` does it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { API_VERSION_SEGMENT, ENDPOINTS, type Endpoint } from 'job-signals-mock-server/contract';

const PAGE = resolve(import.meta.dirname, '..', 'docs', 'api-assumptions.md');
const START = '<!-- endpoints: written from contract/endpoints.ts by `npm run generate` -->';
const END = '<!-- /endpoints -->';

const rows = (Object.values(ENDPOINTS) as Endpoint[]).map(({ method, on, path, doc, origin }) => {
	const where = `${on === 'api' ? API_VERSION_SEGMENT : '{app_url}'}${path.replace(/:([a-z_]+)/g, '{$1}')}`;
	return `| ${doc.summary} | \`${method} ${where}\` | ${origin} |`;
});
const table = [START, '| operation | method and path | origin |', '|---|---|---|', ...rows, END].join('\n');

const page = readFileSync(PAGE, 'utf8');
const [before, rest] = page.split(START);
if (rest === undefined || !rest.includes(END)) throw new Error(`docs/api-assumptions.md has no ${START} … ${END} block`);
const written = `${before}${table}${rest.slice(rest.indexOf(END) + END.length)}`;

if (process.argv.includes('--check')) {
	if (written !== page) {
		console.error('docs/api-assumptions.md\'s endpoint table is not what contract/endpoints.ts says: run `npm run generate`.');
		process.exit(1);
	}
} else {
	writeFileSync(PAGE, written);
}
